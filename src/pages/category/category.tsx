import type { Category } from '../../categories/categories';
import type { CategoriesResponse, ListResponse } from '../../contract/responses';
import { PAGE_PATHS } from '../page-paths';
import { itemList } from '../shared/json-ld';
import { absolute, Layout, PageContext } from '../shared/layout';
import { ListingCard, localName, Pager, PickForm } from '../shared/parts';
import { categoryText } from './category-messages';

export interface CategoryPageProps {
  ctx: PageContext;
  category: Category & { count: number };
  list: ListResponse;
  categories: CategoriesResponse;
  /** Where this page's list starts in the category (0 for the first page). */
  firstPage: string | null;
  nextPage: string | null;
}

/** A category: its listings by popularity, a page at a time. */
export function CategoryPage({ ctx, category, list, categories, firstPage, nextPage }: CategoryPageProps) {
  const t = categoryText(ctx.lang);
  const name = localName(ctx, category);
  const names = new Map(categories.categories.map((c) => [c.slug, c]));
  return (
    <Layout
      ctx={ctx}
      title={`${t.categoryTitle(name)} · ${t.siteName}`}
      description={t.categoryDescription(name, category.count)}
      crumbs={[{ name }]}
      jsonLd={[itemList(name, list.tools.map((item) => ({ name: localName(ctx, item), url: absolute(ctx, PAGE_PATHS.listing(item.slug)) })))]}
    >
      <h1>{name}</h1>
      <p class="lead">{t.categoryCount(category.count)}</p>
      <h2>{t.categoryByPopularity}</h2>
      <ul class="cards">
        {list.tools.map((item) => (
          <ListingCard ctx={ctx} item={item} pickForm="pick" categories={names} />
        ))}
      </ul>
      <PickForm ctx={ctx} id="pick" />
      <Pager ctx={ctx} first={firstPage} next={nextPage} />
    </Layout>
  );
}
