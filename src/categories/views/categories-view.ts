import type { Categories } from '../categories';
import type { RenderState } from '../../listings/views/render-state';
import { withEtag } from '../../http/stored-body';

/** Every category, in the published order, with its count of the listings `state` holds. */
export function categoryList(state: RenderState, categories: Categories): Array<{ slug: string; name: string; nameCn: string; count: number }> {
  const counts = new Map<string, number>();
  for (const card of state.cards.values()) counts.set(card.category, (counts.get(card.category) ?? 0) + 1);
  return categories.all.map((c) => ({ slug: c.slug, name: c.name, nameCn: c.nameCn, count: counts.get(c.slug) ?? 0 }));
}

/** Renders GET /tools/categories: every category with its live count of listings. */
export function renderCategories(state: RenderState, categories: Categories): string {
  const list = categoryList(state, categories);
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
