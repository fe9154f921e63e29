import type { z } from 'zod';
import type { rateLimitsSchema, sourceSchema } from '../../contract/listing-facts';
import type { ToolDetail } from '../../contract/listing-views';
import { isCurrent, isRetiring } from '../../listings/write/listing-facts';
import { modelEntryId } from '../../models/views/model-views';

/**
 * What a reader decides by, worked out of one listing's facts as data: the page's decision summary and its
 * retirement banner read these, never the prose. Pure functions of the listing, so the page, its tests and
 * any later adapter agree on what "price from" or "retiring" means.
 */

type Source = z.infer<typeof sourceSchema>;
type Model = NonNullable<ToolDetail['models']>[number];
type Limit = z.infer<typeof rateLimitsSchema>['limits'][number];

/** A model named by the summary or the banner, with the path of its page. */
export interface NamedModel {
  id: string;
  name: string;
  /** Its page: /models/{canonical id}, or the listing's own id for a model without an entry. */
  entry: string;
}

export interface DecisionFacts {
  /** The listing's price from (src/listings/views/price-from.ts), with its model's page; null where it publishes no prices. */
  price: (NonNullable<ToolDetail['priceFrom']> & { entry: NamedModel | null }) | null;
  /** The first free allowance, where the prices state one. */
  freeQuota: NonNullable<ToolDetail['prices']>['freeQuota'][number] | null;
  /** The headline rate limit (see decisionFacts); null where none is recorded. */
  rateLimit: { limit: Limit; source: Source; count: number } | null;
  /** The largest context of a current model, or the listing's; undefined where context does not apply. */
  context?: { tokens: number | null; model: NamedModel | null; source: Source | null };
}

export const modelEntryOf = (slug: string, model: Model): NamedModel => ({
  id: model.id,
  name: model.name,
  entry: modelEntryId(slug, model),
});

/** Context applies to an API that serves models with one, states one, or is a language-model API. */
function contextOf(tool: ToolDetail): DecisionFacts['context'] {
  const current = (tool.models ?? []).filter((model) => isCurrent(model.lifecycle) && model.contextTokens !== null);
  if (current.length > 0) {
    const largest = current.reduce((a, b) => (b.contextTokens! > a.contextTokens! ? b : a));
    return { tokens: largest.contextTokens, model: modelEntryOf(tool.slug, largest), source: largest.source };
  }
  if (tool.contextTokens !== null || tool.category === 'llm') return { tokens: tool.contextTokens, model: null, source: tool.sources?.contextTokens ?? null };
  return undefined;
}

function modelNamed(tool: ToolDetail, id: string | null): NamedModel | null {
  const model = id === null ? undefined : tool.models?.find((m) => m.id === id);
  return model ? modelEntryOf(tool.slug, model) : null;
}

export function decisionFacts(tool: ToolDetail): DecisionFacts {
  const limits = tool.rateLimits;
  return {
    price: tool.priceFrom && { ...tool.priceFrom, entry: modelNamed(tool, tool.priceFrom.model?.id ?? null) },
    freeQuota: tool.prices?.freeQuota[0] ?? null,
    // The headline limit: the first one for the whole API, else the first (for the model or endpoint it names).
    rateLimit: limits && limits.limits.length > 0 ? { limit: limits.limits.find((limit) => !limit.appliesTo) ?? limits.limits[0], source: limits.source, count: limits.limits.length } : null,
    context: contextOf(tool),
  };
}

export interface Retiring {
  model: NamedModel;
  lifecycle: Model['lifecycle'];
  /** Its successors: models of the same listing where the listing has them, else the ids as given. */
  successors: Array<NamedModel | { id: string; name: string; entry: null }>;
}

/**
 * A model is retiring once it is deprecated or has a shutdown day announced, until it is retired: the
 * banner lists them, the soonest shutdown first (those without a day last). No clock is read: what the
 * content says is what the page says, so a cached page never differs from a fresh one.
 */
export function retiringModels(tool: ToolDetail): Retiring[] {
  const models = tool.models ?? [];
  const retiring = models.filter((model) => isRetiring(model.lifecycle));
  return retiring
    .sort((a, b) => (a.lifecycle.retiresAt ?? '9999') .localeCompare(b.lifecycle.retiresAt ?? '9999') || a.name.localeCompare(b.name))
    .map((model) => ({
      model: modelEntryOf(tool.slug, model),
      lifecycle: model.lifecycle,
      successors: (model.lifecycle.replacedBy ?? []).map((id) => {
        const successor = models.find((m) => m.id === id);
        return successor ? modelEntryOf(tool.slug, successor) : { id, name: id, entry: null };
      }),
    }));
}

/** The listing itself is going away: deprecated, or a shutdown day announced and not yet retired. */
export function listingRetiring(tool: ToolDetail): boolean {
  return tool.lifecycle !== null && isRetiring(tool.lifecycle);
}
