import type { ComponentChildren } from 'preact';
import type { CategoriesResponse, ListResponse } from '../../contract/responses';
import type { LatestChanges } from '../../changes/latest-changes.handler';
import { HTML_LANG } from '../messages';
import { PAGE_PATHS, searchPath } from '../page-paths';
import { NO_FILTERS } from '../../contract/listing-filters';
import { ChangeList } from '../changes/changes';
import { itemList, webSite } from '../shared/json-ld';
import { absolute, href, Layout, PageContext } from '../shared/layout';
import { ListingCard, localName } from '../shared/parts';
import { homeText } from './home-messages';

/** The search box of the home and search pages; the script turns on results as you type (data-live). */
export function SearchBox({ ctx, q, children }: { ctx: PageContext; q: string | null; children?: ComponentChildren }) {
  const t = homeText(ctx.lang);
  return (
    <form
      class="search"
      role="search"
      action={href(ctx, PAGE_PATHS.search)}
      method="get"
      data-live="results"
      data-all={t.allResults}
    >
      <label for="q">{t.searchLabel}</label>
      <div class="row">
        <input type="search" id="q" name="q" value={q ?? ''} placeholder={t.searchPlaceholder} maxlength={200} autocomplete="off" />
        <button type="submit">{t.searchButton}</button>
      </div>
      {children}
      <p id="live-status" class="visually-hidden" role="status"></p>
    </form>
  );
}

const EXAMPLES = { en: ['text to speech', 'vector database', 'free llm', 'payments'], zh: ['语音合成', '向量数据库', '免费 大模型', '支付'] };

export function HomePage({ ctx, categories, popular, changes }: { ctx: PageContext; categories: CategoriesResponse; popular: ListResponse; changes: LatestChanges }) {
  const t = homeText(ctx.lang);
  const names = new Map(categories.categories.map((c) => [c.slug, c]));
  return (
    <Layout
      ctx={ctx}
      title={t.homeTitle}
      description={t.homeDescription(categories.totalListings)}
      jsonLd={[
        webSite(t.siteName, absolute(ctx, PAGE_PATHS.home), `${absolute(ctx, PAGE_PATHS.search)}?q={search_term_string}`, HTML_LANG[ctx.lang]),
        itemList(t.popularTitle, popular.tools.map((item) => ({ name: localName(ctx, item), url: absolute(ctx, PAGE_PATHS.listing(item.slug)) }))),
      ]}
    >
      <section class="hero">
        <h1>{t.siteName}</h1>
        <p class="lead">{t.siteTagline}</p>
        <SearchBox ctx={ctx} q={null} />
        <p class="examples">
          {t.searchExamples}{' '}
          {EXAMPLES[ctx.lang].map((example, i) => (
            <>
              {i > 0 && ' · '}
              <a href={href(ctx, searchPath(example, NO_FILTERS))}>{example}</a>
            </>
          ))}
        </p>
        <div id="results" class="live"></div>
      </section>
      <section aria-labelledby="categories">
        <h2 id="categories">{t.categoriesTitle}</h2>
        <ul class="cats">
          {categories.categories.map((category) => (
            <li>
              <a href={href(ctx, PAGE_PATHS.category(category.slug))}>
                <span>{localName(ctx, category)}</span> <span class="count">{t.categoryCount(category.count)}</span>
              </a>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="popular">
        <h2 id="popular">{t.popularTitle}</h2>
        <ul class="cards">
          {popular.tools.map((item) => (
            <ListingCard ctx={ctx} item={item} categories={names} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="latest">
        <h2 id="latest">{t.latestChangesTitle}</h2>
        <ChangeList ctx={ctx} changes={changes} />
        <p>
          <a href={href(ctx, PAGE_PATHS.changes)}>{t.allChanges}</a>
        </p>
      </section>
    </Layout>
  );
}
