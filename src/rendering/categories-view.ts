import type { Categories } from '../categories/categories';
import type { RenderState } from './render-state';
import { withEtag } from './stored-body';

/** Renders GET /tools/categories: every category with its live count of listings. */
export function renderCategories(state: RenderState, categories: Categories): string {
  const counts = new Map<string, number>();
  for (const card of state.cards.values()) counts.set(card.category, (counts.get(card.category) ?? 0) + 1);
  const list = categories.all.map((c) => ({ slug: c.slug, name: c.name, nameCn: c.nameCn, count: counts.get(c.slug) ?? 0 }));
  return withEtag(
    JSON.stringify({
      success: true,
      total: list.length,
      totalListings: state.cards.size,
      categories: list,
      _links: { self: '/api/v1/tools/categories', search: '/api/v1/tools/search?category={slug}' },
    }),
  );
}
