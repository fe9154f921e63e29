import type { ModelOffer, ModelSummary } from '../contract/model-views';
import type { ModelCompareResponse, ModelDetailResponse, ModelListResponse } from '../contract/responses';

/**
 * The text of the model tools: one line per model (id first, what the other tools take), then its facts
 * in the order an agent decides by: lowest rates with who charges them, context, capabilities, lifecycle.
 */

function tokens(count: number | null): string {
  if (count === null) return 'not stated';
  return count >= 1_000_000 ? `${+(count / 1_000_000).toFixed(2)}M` : count >= 1000 ? `${+(count / 1000).toFixed(1)}k` : String(count);
}

function capabilities(model: Omit<ModelSummary, 'score'>): string {
  const c = model.capabilities;
  const on = (['tools', 'structuredOutput', 'reasoning', 'batch', 'fineTuning', 'promptCaching', 'imageInput', 'audioInput', 'audioOutput', 'openWeights'] as const).filter((name) => c[name] === true);
  return on.length > 0 ? on.join(', ') : 'none stated';
}

function lifecycle(model: Omit<ModelSummary, 'score'>): string {
  const { status, retiresAt, replacedBy } = model.lifecycle;
  const when = retiresAt ? ` (a provider shuts it down on ${retiresAt})` : '';
  const next = replacedBy.length > 0 ? `; successor: ${replacedBy.join(', ')}` : '';
  return `${status}${when}${next}`;
}

function modelLine(position: number, model: ModelSummary): string {
  const rates = model.lowestRates.slice(0, 3).map((rate) => `$${rate.price}/${rate.unit} at ${rate.listing}`).join(', ') || 'no current US-dollar rate';
  return `${position}. ${model.id} — ${model.name} [${model.kind}; ${model.offers.length} provider(s)]: from ${rates}; context ${tokens(model.contextTokens)}; ${capabilities(model)}; ${lifecycle(model)}`;
}

export function modelsText(page: ModelListResponse, offset: number): string {
  const set = Object.entries(page.filters).filter(([, value]) => value !== null);
  const about = set.length > 0 ? ` (${set.map(([name, value]) => `${name}: ${value}`).join(', ')})` : '';
  const order = page.sort.by === 'price' ? `cheapest first in ${page.sort.priceUnit}${page.sort.withoutRate > 0 ? `; ${page.sort.withoutRate} without a rate in that unit come last` : ''}` : `by ${page.sort.by}`;
  if (page.models.length === 0) return page.total > 0 ? `No more models${about}: all ${page.total} were on earlier pages.` : `No models found${about}. Try fewer filters, or other words.`;
  return [
    `${page.total} ${page.total === 1 ? 'model' : 'models'}${about}, ${order}; ${offset + 1}-${offset + page.returned}:`,
    ...page.models.map((model, i) => modelLine(offset + i + 1, model)),
    ...(page.nextCursor ? [`More: call search_models again with the same arguments and cursor "${page.nextCursor}".`] : []),
    'Every provider of one, with prices and sources: get_model with its id.',
  ].join('\n');
}

function offerLine(offer: ModelOffer): string {
  const prices = offer.prices.map((rate) => `${rate.price} ${offer.currency}/${rate.unit}${rate.appliesTo ? ` (${rate.appliesTo})` : ''}`).join(', ') || 'prices not stated';
  const status = offer.lifecycle.status === 'active' ? '' : `; ${offer.lifecycle.status}${offer.lifecycle.retiresAt ? ` until ${offer.lifecycle.retiresAt}` : ''}`;
  return `- ${offer.listing} as "${offer.modelId}": ${prices}; context ${tokens(offer.contextTokens)}, output ${tokens(offer.maxOutputTokens)}; liveness ${offer.liveness}${status} [source: ${offer.source.url}, checked ${offer.source.checked}]`;
}

export function modelText({ model }: ModelDetailResponse): string {
  const maker = model.creator ? ` by ${model.creator}` : '';
  const weights = model.openWeights ? `; open weights (${model.openWeights.licence})` : '';
  return [
    `${model.id} — ${model.name}${maker} [${model.kind}${model.family ? `, family ${model.family}` : ''}${weights}]`,
    `Input ${model.input.join(', ')}; output ${model.output.join(', ')}; context ${tokens(model.contextTokens)}; max output ${tokens(model.maxOutputTokens)}.`,
    `Capabilities: ${capabilities(model)}. Lifecycle: ${lifecycle(model)}.`,
    ...(model.releaseDate ? [`Released ${model.releaseDate}${model.knowledgeCutoff ? `; knowledge cutoff ${model.knowledgeCutoff}` : ''}.`] : []),
    `Served by ${model.offers.length} provider(s):`,
    ...model.offers.map(offerLine),
    ...(model.history.length > 0 ? [`Latest changes: ${model.history.slice(0, 5).map((c) => `${c.occurredAt.slice(0, 10)} ${c.listing} ${c.field}`).join('; ')}.`] : []),
  ].join('\n');
}

export function compareModelsText(answer: ModelCompareResponse): string {
  return [
    `${answer.compared.length} models side by side, lowest current rate in ${answer.priceUnit}:`,
    ...answer.rates.map((rate) => `- ${rate.id}: ${rate.price === null ? 'no current US-dollar rate in this unit' : `$${rate.price} at ${rate.listing} as "${rate.modelId}"${rate.source ? ` [source: ${rate.source.url}, checked ${rate.source.checked}]` : ''}`}`),
    ...answer.compared.map((model, i) => modelLine(i + 1, model)),
    ...(answer.notFound.length > 0 ? [`Not in the catalog: ${answer.notFound.join(', ')} (search_models finds the right ids).`] : []),
  ].join('\n');
}
