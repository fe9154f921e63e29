import type { ErrorEntryDocument } from '../../error-reference/write/error-entry.document';
import type { ListingDocument } from '../write/listing.document';
import type { Liveness } from '../../liveness/liveness.schema';

/** What other listings need to know of a listing to show it as similar or in a pricing comparison. */
export interface ListingCard {
  slug: string;
  name: string;
  nameCn: string;
  category: string;
  description: string;
  descriptionCn: string;
  pricing: string;
  auth: string[];
  popularity: number;
  similarApis: string[];
  /** It gives its rate limits as data (limits, or the headers that report them): its 429 entries link there. */
  hasRateLimits: boolean;
}

export function cardOf(listing: ListingDocument): ListingCard {
  const { slug, name, nameCn, category, description, descriptionCn, pricing, auth, popularity, similarApis, rateLimits } = listing;
  const hasRateLimits = (rateLimits?.limits.length ?? 0) > 0 || (rateLimits?.headers.length ?? 0) > 0;
  return { slug, name, nameCn, category, description, descriptionCn, pricing, auth, popularity, similarApis, hasRateLimits };
}

/** How many listings of its category a detail page may need to fill its pricing comparison. */
export const COMPARISON_SIZE = 4;
/** Enough of a category's top to fill a comparison after skipping the listing and its similar APIs. */
const CATEGORY_TOP_SIZE = COMPARISON_SIZE + 11;

/**
 * The projector's working memory for one generation: the cards of all listings, the error entries,
 * and who depends on whom, so a change re-renders exactly the documents that show it. A build leaves it
 * complete; a runner that takes a generation over loads it from the event store as of the generation's
 * checkpoint (see GenerationProjector.load).
 */
export class RenderState {
  readonly cards = new Map<string, ListingCard>();
  readonly errors = new Map<string, ErrorEntryDocument>();
  /** slug -> the listing's liveness as published (none: not checked yet). */
  readonly liveness = new Map<string, Liveness>();
  /** slug -> listings whose detail shows it (as similar API or in the pricing comparison). */
  readonly usedBy = new Map<string, Set<string>>();
  /** slug -> the listings its detail shows. */
  readonly uses = new Map<string, string[]>();
  /** category -> listings whose pricing comparison was filled from the category's most popular. */
  readonly fillUsers = new Map<string, Set<string>>();

  private readonly topCache = new Map<string, string[]>();

  setCard(card: ListingCard): void {
    const previous = this.cards.get(card.slug);
    if (previous) this.topCache.delete(previous.category);
    this.topCache.delete(card.category);
    this.cards.set(card.slug, card);
  }

  /** The most popular listings of a category (popularity desc, then slug), at most CATEGORY_TOP_SIZE. */
  categoryTop(category: string): string[] {
    const cached = this.topCache.get(category);
    if (cached) return cached;
    const top: ListingCard[] = [];
    for (const card of this.cards.values()) {
      if (card.category !== category) continue;
      let i = top.length;
      while (i > 0 && byPopularity(card, top[i - 1]) < 0) i--;
      if (i < CATEGORY_TOP_SIZE) {
        top.splice(i, 0, card);
        if (top.length > CATEGORY_TOP_SIZE) top.pop();
      }
    }
    const slugs = top.map((c) => c.slug);
    this.topCache.set(category, slugs);
    return slugs;
  }

  errorsOf(provider: string): ErrorEntryDocument[] {
    const entries = [...this.errors.values()].filter((e) => e.provider === provider);
    return entries.sort((a, b) => a.status - b.status || a.title.localeCompare(b.title));
  }

  /** Records what a listing's rendered detail depends on. */
  setDependencies(slug: string, uses: string[], filledFrom: string | null): void {
    for (const old of this.uses.get(slug) ?? []) this.usedBy.get(old)?.delete(slug);
    for (const set of this.fillUsers.values()) set.delete(slug);
    this.uses.set(slug, uses);
    for (const used of uses) {
      let set = this.usedBy.get(used);
      if (!set) this.usedBy.set(used, (set = new Set()));
      set.add(slug);
    }
    if (filledFrom) {
      let set = this.fillUsers.get(filledFrom);
      if (!set) this.fillUsers.set(filledFrom, (set = new Set()));
      set.add(slug);
    }
  }

  forget(slug: string): void {
    this.setDependencies(slug, [], null);
    this.uses.delete(slug);
    const card = this.cards.get(slug);
    if (card) this.topCache.delete(card.category);
    this.cards.delete(slug);
  }
}

export function byPopularity(a: { popularity: number; slug: string }, b: { popularity: number; slug: string }): number {
  return b.popularity - a.popularity || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}
