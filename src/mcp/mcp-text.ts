import type { z } from 'zod';
import type { lifecycleSchema, modelSchema, rateLimitsSchema, rateSchema, sourceSchema } from '../contract/listing-facts';
import type { ComparisonRow, ToolDetail, ToolSummary } from '../contract/listing-views';
import { unconfirmedFacts } from '../listings/write/listing-facts';
import { DECISION_FACT_NAMES, NOT_STATED, yesNoText } from '../contract/vocabulary';
import type { CategoriesResponse, CompareResponse, ErrorsResponse, ListResponse, SearchResponse, ToolDetailResponse } from '../contract/responses';

/**
 * The text each tool sends beside its structured result: short, in the order an agent reads it (what was
 * found, one line per listing, how to go on), for clients that show or feed the model text only.
 */

/** A listing's price from in words: `0.1 USD per 1m-input-tokens (gpt-6-luna)`, `2.9% + 0.3 USD per transaction`. */
function priceFromText(from: ToolSummary['priceFrom']): string | null {
  if (!from) return null;
  const amount = `${from.percent ? `${from.percent}% + ` : ''}${from.price} ${from.currency} per ${from.unit}`;
  return `${amount}${from.model ? ` (${from.model.id})` : ''}${from.appliesTo ? ` [${from.appliesTo}]` : ''}`;
}

/** One line of a listing: slug first (what the other tools take), then what it is and what it costs. */
function summaryLine(position: number, tool: ToolSummary): string {
  const free = tool.freeTier ? ', free tier' : '';
  const from = priceFromText(tool.priceFrom);
  return `${position}. ${tool.slug} — ${tool.name} [${tool.category}${free}]: ${tool.description} Pricing: ${tool.pricing}${from ? ` From: ${from}.` : ''}`;
}

function nextPage(tool: string, cursor: string | null): string[] {
  return cursor ? [`More results: call ${tool} again with the same arguments and cursor "${cursor}".`] : [];
}

function appliedFilters(filters: Record<string, unknown>): string {
  const set = Object.entries(filters).filter(([, value]) => value !== null);
  return set.length === 0 ? '' : ` (${set.map(([name, value]) => `${name}: ${value}`).join(', ')})`;
}

export function searchText(found: SearchResponse, offset: number): string {
  const about = `${found.query === null ? 'listed' : `for "${found.query}"`}${appliedFilters(found.filters)}`;
  if (found.results.length === 0) {
    return found.total > 0
      ? `No more results ${about}: all ${found.total} were on earlier pages.`
      : `No tools found ${about}. Try other or fewer words (English or Chinese), or browse with list_categories and list_tools.`;
  }
  return [
    `${found.total} ${found.total === 1 ? 'tool' : 'tools'} found ${about}; results ${offset + 1}-${offset + found.returned}, ${orderWords(found.sort, 'best first')}:`,
    ...found.results.map((tool, i) => summaryLine(offset + i + 1, tool)),
    ...nextPage('search_tools', found.nextCursor),
    'Full facts of one: get_tool with its slug. Side by side: compare_tools with 2-10 slugs.',
  ].join('\n');
}

/** A page of the list (its cursor names a listing, not a position: the lines are numbered within the page). */
export function listText(page: ListResponse): string {
  if (page.tools.length === 0) return `No tools${appliedFilters(page.filters)}.`;
  return [
    `${page.total} ${page.total === 1 ? 'tool' : 'tools'}${appliedFilters(page.filters)}, ${orderWords(page.sort, 'most popular first')}; ${page.returned} on this page:`,
    ...page.tools.map((tool, i) => summaryLine(i + 1, tool)),
    ...nextPage('list_tools', page.nextCursor),
  ].join('\n');
}

/** The order of a page in words: by price says in which unit, of which models, and how many have no such rate. */
function orderWords(sort: SearchResponse['sort'], usual: string): string {
  switch (sort.by) {
    case 'price': {
      const of = sort.modelKind ? ` of ${sort.modelKind} models` : '';
      const unit = sort.priceUnit ? `lowest rate${of} per ${sort.priceUnit} first` : 'by price (no result has a rate to compare)';
      return sort.withoutRate > 0 ? `${unit} (${sort.withoutRate} without such a rate last)` : unit;
    }
    case 'context':
      return 'largest context window first';
    case 'checked':
      return 'most recently checked first';
    case 'popular':
      return 'most popular first';
    default:
      return usual;
  }
}

function listOf(label: string, items: string[]): string[] {
  return items.length === 0 ? [] : [`${label}:`, ...items.map((item) => `- ${item}`)];
}

type Source = z.infer<typeof sourceSchema>;
type Rate = z.infer<typeof rateSchema>;
type Model = z.infer<typeof modelSchema>;
type Lifecycle = z.infer<typeof lifecycleSchema>;

/** A fact's source as the text cites it: ` [n]`, or nothing for a fact without one. */
type Cite = (source: Source | null) => string;

/**
 * The sources a text cites, numbered in the order it cites them; one page checked on one day is one
 * source, however many facts it gives. Listed once at the end of the facts, so each fact costs a few
 * characters and an agent still has the page and the day of every one.
 */
class Citations {
  private readonly numbers = new Map<string, number>();
  private readonly sources: Source[] = [];

  readonly cite: Cite = (source) => {
    if (!source) return '';
    const key = `${source.checked} ${source.url}`;
    let n = this.numbers.get(key);
    if (n === undefined) {
      this.sources.push(source);
      n = this.sources.length;
      this.numbers.set(key, n);
    }
    return ` [${n}]`;
  };

  lines(): string[] {
    if (this.sources.length === 0) return [];
    return ['Sources of the facts above ([n]): the page, the day it was checked, and the day after which to check it again:', ...this.sources.map((source, i) => `[${i + 1}] ${source.url} (checked ${source.checked}, stale after ${source.staleAfter})`)];
  }
}

/** A citation's width while lines are measured, before it is known which of them are shown. */
const measuring: Cite = (source) => (source ? ' [00]' : '');

/**
 * The lines of `items` an answer shows: at most `max.lines` of them and `max.chars` characters, then one
 * line for the rest. A listing may name 80 models and 60 limits; the text stays within bounds, the
 * rest is in structuredContent. Only the lines shown cite their sources.
 */
function bounded<T>(items: readonly T[], render: (item: T, cite: Cite) => string, cite: Cite, max: { lines: number; chars: number }, rest: (left: readonly T[]) => string): string[] {
  let chars = 0;
  let shown = 0;
  for (const item of items) {
    const length = render(item, measuring).length + 1;
    if (shown === max.lines || chars + length > max.chars) break;
    chars += length;
    shown += 1;
  }
  const lines = items.slice(0, shown).map((item) => render(item, cite));
  return shown < items.length ? [...lines, rest(items.slice(shown))] : lines;
}

/** The text's bounds on the facts as data (see `bounded`). */
export const FACT_TEXT_BOUNDS = {
  models: { lines: 30, chars: 6000 },
  rates: { lines: 20, chars: 2500 },
  freeQuota: { lines: 10, chars: 1500 },
  limits: { lines: 20, chars: 2500 },
  /** The ids of the models past `models`. */
  modelIds: { chars: 1500 },
} as const;

const tokens = (n: number) => n.toLocaleString('en-US');

/** A rate as `8/1m-input-tokens`, `0.3 + 2.9%/transaction`, with what it applies to. */
function rateText(rate: Rate): string {
  const amount = `${rate.price}${rate.percent !== null ? ` + ${rate.percent}%` : ''}/${rate.unit}`;
  const notes = [rate.appliesTo, rate.note].filter(Boolean).join('; ');
  return notes ? `${amount} (${notes})` : amount;
}

/** A lifecycle other than plain active, in a few words: `deprecated since 2026-06-11, shuts down 2026-12-11, successor gpt-6.1-sol`. */
function lifecycleText(lifecycle: Lifecycle, successor: string): string {
  return [
    `${lifecycle.status}${lifecycle.since ? ` since ${lifecycle.since}` : ''}`,
    ...(lifecycle.retiresAt ? [`${lifecycle.status === 'retired' ? 'shut down' : 'shuts down'} ${lifecycle.retiresAt}`] : []),
    ...(lifecycle.replacedBy && lifecycle.replacedBy.length > 0 ? [`${successor} ${lifecycle.replacedBy.join(', ')}`] : []),
    ...(lifecycle.migrationUrl ? [`migration guide ${lifecycle.migrationUrl}`] : []),
  ].join(', ');
}

const isPlainActive = (lifecycle: Lifecycle) => lifecycle.status === 'active' && !lifecycle.retiresAt;

/** A model's prices on its line: the first few, then how many more. */
const MODEL_RATES_SHOWN = 6;

function modelLine(model: Model, cite: Cite): string {
  const about = [
    model.kind,
    `${model.input.join('+')} → ${model.output.join('+')}`,
    ...(model.contextTokens !== null ? [`context ${tokens(model.contextTokens)}`] : []),
    ...(model.maxOutputTokens !== null ? [`max output ${tokens(model.maxOutputTokens)}`] : []),
  ].join(', ');
  const rates = model.prices.slice(0, MODEL_RATES_SHOWN).map((rate) => `${rateText(rate)}${cite(rate.source)}`);
  if (model.prices.length > MODEL_RATES_SHOWN) rates.push(`${model.prices.length - MODEL_RATES_SHOWN} more`);
  const lifecycle = isPlainActive(model.lifecycle) ? '' : `; ${lifecycleText(model.lifecycle, 'successor')}${cite(model.lifecycle.source)}`;
  return `- ${model.id}${model.name !== model.id ? ` (${model.name})` : ''}: ${about}; ${rates.length > 0 ? rates.join(', ') : 'no price published'}${cite(model.source)}${lifecycle}`;
}

/** The ids of the models a text has no room to describe, within a bound of their own. */
function idsOf(models: readonly Model[]): string {
  const ids: string[] = [];
  let chars = 0;
  for (const { id } of models) {
    if (chars + id.length > FACT_TEXT_BOUNDS.modelIds.chars) return `${ids.join(', ')} and ${models.length - ids.length} others`;
    ids.push(id);
    chars += id.length + 2;
  }
  return ids.join(', ');
}

/** The models, those still served first (in the listing's order), each on a line. */
function modelsText(tool: ToolDetail, cite: Cite): string[] {
  if (!tool.models) return ['Models: none recorded.'];
  if (tool.models.length === 0) return ['Models: none.'];
  const models = [...tool.models.filter((m) => m.lifecycle.status !== 'retired'), ...tool.models.filter((m) => m.lifecycle.status === 'retired')];
  const currency = tool.prices ? ` in ${tool.prices.currency}` : '';
  return [
    `Models (${models.length}; prices${currency} per unit):`,
    ...bounded(models, modelLine, cite, FACT_TEXT_BOUNDS.models, (left) => `- … ${left.length} more (tool.models in structuredContent): ${idsOf(left)}`),
  ];
}

function pricesText({ prices, models }: ToolDetail, cite: Cite): string[] {
  if (!prices) return ['Prices as data: none recorded (the pricing above is in words).'];
  const more = (what: string) => (left: readonly unknown[]) => `- … ${left.length} more (tool.prices.${what} in structuredContent)`;
  const head = [prices.models.join(', '), ...(prices.batchDiscount !== null ? [`batch discount ${Math.round(prices.batchDiscount * 100)}%`] : [])].join(' · ');
  return [
    `Prices (${prices.currency})${cite(prices.source)}: ${head}`,
    ...(prices.freeQuota.length === 0
      ? ['Free quota: none']
      : ['Free quota:', ...bounded(prices.freeQuota, (q) => `- ${q.amount.toLocaleString('en-US')} ${q.unit} ${q.period === 'once' ? 'once' : `a ${q.period}`}${q.conditions ? ` (${q.conditions})` : ''}`, cite, FACT_TEXT_BOUNDS.freeQuota, more('freeQuota'))]),
    ...(prices.rates.length === 0
      ? [(models ?? []).some((m) => m.prices.length > 0) ? "Rates: none beside the models' prices" : 'Rates: none']
      : ['Rates:', ...bounded(prices.rates, (rate, citing) => `- ${rateText(rate)}${citing(rate.source)}`, cite, FACT_TEXT_BOUNDS.rates, more('rates'))]),
  ];
}

type RateLimits = z.infer<typeof rateLimitsSchema>;

function rateLimitsText(rateLimits: RateLimits | null, cite: Cite): string[] {
  if (!rateLimits) return ['Rate limits as data: none recorded.'];
  const limit = (l: RateLimits['limits'][number]) => `- tier ${l.tier}, per ${l.scope}: ${tokens(l.limit)} ${l.metric}${l.per ? `/${l.per}` : ''}${l.appliesTo ? ` (${l.appliesTo})` : ''}`;
  return [
    `Rate limits${cite(rateLimits.source)}:${rateLimits.limits.length === 0 ? ' none stated' : ''}`,
    ...bounded(rateLimits.limits, limit, cite, FACT_TEXT_BOUNDS.limits, (left) => `- … ${left.length} more (tool.rateLimits.limits in structuredContent)`),
    `Limit headers: ${rateLimits.headers.length === 0 ? 'none' : rateLimits.headers.join(', ')}`,
  ];
}

/** Where the listing's context comes from: the model that has it, else its own source (null: not confirmed). */
function contextSource(tool: ToolDetail): Source | null {
  if (tool.contextTokens === null) return null;
  return tool.models?.find((m) => m.contextTokens === tool.contextTokens)?.source ?? tool.sources?.contextTokens ?? null;
}

export function detailText({ tool }: ToolDetailResponse): string {
  const citations = new Citations();
  const { cite } = citations;
  const from = priceFromText(tool.priceFrom);
  const facts = [
    `Free tier: ${yesNoText(tool.freeTier)}${cite(tool.sources?.freeTier ?? null)}`,
    `OpenAI-compatible: ${yesNoText(tool.openaiCompatible)}${cite(tool.sources?.openaiCompatible ?? null)}`,
    `auth type: ${tool.authType ?? NOT_STATED}${cite(tool.sources?.auth ?? null)}`,
    ...(tool.contextTokens ? [`context: ${tokens(tool.contextTokens)} tokens${cite(contextSource(tool))}`] : []),
  ];
  const notConfirmed = unconfirmedFacts(tool).map((fact) => DECISION_FACT_NAMES[fact]);
  return [
    `${tool.name} (${tool.slug}; ${tool.nameCn}) — category ${tool.category}${tool.categoryCn ? ` (${tool.categoryCn})` : ''}, ${tool.status}, popularity ${tool.popularity}/100`,
    tool.description,
    `Pricing: ${tool.pricing}`,
    `Authentication: ${tool.auth.join('; ')}`,
    ...(from ? [`Price from: ${from}${cite(tool.priceFrom!.source)}`] : []),
    facts.join(' · '),
    ...(notConfirmed.length > 0 ? [`Not yet confirmed on the provider's pages: ${notConfirmed.join(', ')}.`] : []),
    ...(tool.lifecycle && !isPlainActive(tool.lifecycle)
      ? [`Lifecycle: ${lifecycleText(tool.lifecycle, 'replaced by')}${tool.lifecycle.reason ? ` (${tool.lifecycle.reason})` : ''}${cite(tool.lifecycle.source)}`]
      : []),
    ...(tool.rateLimit ? [`Rate limit: ${tool.rateLimit}`] : []),
    ...(tool.latency ? [`Latency: ${tool.latency}`] : []),
    ...(tool.maxTokens ? [`Max tokens: ${tool.maxTokens}`] : []),
    ...modelsText(tool, cite),
    ...pricesText(tool, cite),
    ...rateLimitsText(tool.rateLimits, cite),
    ...citations.lines(),
    `Website: ${tool.website} · Docs: ${tool.docsUrl}`,
    ...listOf('Endpoints', tool.endpoints),
    `SDKs: ${tool.sdks.join(', ')}`,
    ...listOf('Features', tool.features),
    ...listOf('Usage tips', tool.usageTips),
    ...(tool.similarApis.length > 0 ? [`Similar: ${tool.similarApis.map((s) => s.slug).join(', ')}`] : []),
    ...(tool.errors.length > 0 ? [`Known errors (get_errors with provider "${tool.slug}"): ${tool.errors.map((e) => `${e.status} ${e.title}`).join('; ')}`] : []),
    ...(tool.curlExample ? ['Example:', tool.curlExample.trimEnd()] : []),
    `Last checked: ${tool.lastUpdated}`,
  ].join('\n');
}

/** A row's models in a few words: how many, and the largest context among them. */
function modelsInBrief(row: ComparisonRow): string {
  if (!row.models) return 'none recorded';
  const contexts = row.models.map((m) => m.contextTokens).filter((n): n is number => n !== null);
  return `${row.models.length}${contexts.length > 0 ? `, largest context ${tokens(Math.max(...contexts))} tokens` : ''}`;
}

export function compareText(comparison: CompareResponse): string {
  const rows = comparison.compared.map((tool) =>
    [
      `${tool.slug} — ${tool.name} [${tool.category}], ${tool.status}, popularity ${tool.popularity}`,
      `  Pricing: ${tool.pricing ?? 'unknown'}${tool.priceFrom ? ` · from ${priceFromText(tool.priceFrom)}` : ''}`,
      `  Free tier: ${yesNoText(tool.freeTier)} · OpenAI-compatible: ${yesNoText(tool.openaiCompatible)} · auth: ${tool.authType ?? NOT_STATED}` +
        (tool.contextTokens ? ` · context: ${tokens(tool.contextTokens)} tokens` : ''),
      `  Rate limit: ${tool.rateLimit ?? 'unknown'}`,
      `  Latency: ${tool.latency ?? 'unknown'} · Max tokens: ${tool.maxTokens ?? 'none'}`,
      `  Models: ${modelsInBrief(tool)}`,
      `  SDKs: ${tool.sdks.join(', ')}`,
    ].join('\n'),
  );
  const slugs = comparison.compared.map((tool) => tool.slug);
  const rates =
    comparison.rates.length === 0
      ? ['Rates: none of the compared listings publishes a US-dollar rate.']
      : [
          "Lowest US-dollar rate per unit, each listing's own or one of its models' (– none published):",
          ...comparison.rates.map((rate) => `- ${rate.unit}: ${slugs.map((slug) => `${slug} ${rate.lowest[slug] ?? '–'}`).join(' · ')}`),
        ];
  return [
    `${comparison.total} ${comparison.total === 1 ? 'tool' : 'tools'} side by side:`,
    ...rows,
    ...rates,
    ...(comparison.notFound.length > 0 ? [`Not in the directory: ${comparison.notFound.join(', ')} (search_tools finds slugs).`] : []),
    ...comparison.gone.map(
      (gone) =>
        `Gone: ${gone.slug} was ${gone.status === 'withdrawn' ? 'withdrawn from the directory' : 'retired by its provider'}${gone.since ? ` on ${gone.since.slice(0, 10)}` : ''}` +
        `${gone.reason ? ` (${gone.reason})` : ''}${gone.replacedBy.length > 0 ? `; instead: ${gone.replacedBy.join(', ')}` : ''}.`,
    ),
    'Models, prices and rate limits of one, with their sources: get_tool with its slug.',
  ].join('\n');
}

export function categoriesText(list: CategoriesResponse): string {
  return [
    `${list.total} categories, ${list.totalListings} listings:`,
    ...list.categories.map((c) => `- ${c.slug}: ${c.name} (${c.nameCn}) — ${c.count} ${c.count === 1 ? 'listing' : 'listings'}`),
    'Pass a slug as `category` to search_tools or list_tools.',
  ].join('\n');
}

export function errorsText(reference: ErrorsResponse): string {
  const about = [reference.provider ? `provider ${reference.provider}` : '', reference.status !== null ? `status ${reference.status}` : ''].filter(Boolean).join(', ');
  if (reference.errors.length === 0) return `No entries in the error reference${about ? ` for ${about}` : ''}.`;
  return [
    `${reference.total} ${reference.total === 1 ? 'entry' : 'entries'} of the error reference${about ? ` for ${about}` : ''}:`,
    ...reference.errors.map(
      (e, i) =>
        `${i + 1}. ${e.providerName ?? e.provider} ${e.status} — ${e.title}\n   Cause: ${e.cause}\n   Fix: ${e.fix}` +
        (e.rateLimitsUrl ? `\n   Rate limits as data: get_tool with slug ${e.provider} (rateLimits)` : ''),
    ),
  ].join('\n');
}
