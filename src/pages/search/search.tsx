import type { ComponentChildren } from 'preact';
import { FILTER_NAMES, FilterName, LISTING_FILTERS, LISTING_SORTS } from '../../contract/listing-filters';
import { LIVE_FILTER_VALUES } from '../../liveness/liveness.schema';
import type { CategoriesResponse, SearchResponse, TasksResponse } from '../../contract/responses';
import { COMPARED_RATE_UNITS, LIFECYCLE_STATUSES, MCP_FILTER_VALUES, PAYMENT_METHOD_NAMES, PAYMENT_METHODS } from '../../contract/vocabulary';
import { AUTH_TYPES, SDK_LANGUAGES } from '../../contract/vocabulary';
import { PAGE_PATHS } from '../page-paths';
import { SearchBox } from '../home/home';
import { itemList } from '../shared/json-ld';
import { absolute, href, Layout, PageContext } from '../shared/layout';
import { ListingCard, localName, Pager, PickForm } from '../shared/parts';
import { searchText } from './search-messages';

/** The filter values as the form shows them (what the request gave, or nothing). */
export type FilterValues = Record<FilterName, string>;

export interface SearchPageProps {
  ctx: PageContext;
  q: string | null;
  values: FilterValues;
  categories: CategoriesResponse;
  /** The task list, for the task filter. */
  tasks: TasksResponse['tasks'];
  /** The answer; null when the request was refused (`error` says why). */
  result: SearchResponse | null;
  error: string | null;
  /** Paths (without language) of the first page, when this is a later one, and of the next. */
  firstPage: string | null;
  nextPage: string | null;
  /** The order asked for with `sort` ('' for the default: relevance with words, popularity without). */
  sort: string;
}

/** The order of the results: one control, beside the common filters, so a phone reaches it without unfolding. */
function SortControl({ ctx, value }: { ctx: PageContext; value: string }) {
  const t = searchText(ctx.lang);
  return (
    <p class="field">
      <label for="f-sort">{t.modelsSort}</label>
      <select id="f-sort" name="sort">
        <option value="">{t.any}</option>
        {LISTING_SORTS.map((sort) => (
          <option value={sort} selected={sort === value}>
            {t.listingSorts[sort]}
          </option>
        ))}
      </select>
    </p>
  );
}

/**
 * Every filter and the order behind one control that says how many are set, folded: the results, not the
 * form, fill the first screen of a phone. Opened, the common filters come first, the rest folded again.
 */
function FiltersFold({ ctx, set, children }: { ctx: PageContext; set: number; children: ComponentChildren }) {
  return (
    <details class="fold">
      <summary>
        {searchText(ctx.lang).filtersSummary}
        <span class="count-set">{set > 0 ? ` ${searchText(ctx.lang).filtersSet(set)}` : ''}</span>
      </summary>
      {children}
    </details>
  );
}

/** The filters of the facts as data and of lifecycle: folded away until one is set, so a phone shows the common ones first. */
const MORE_FILTERS = new Set<FilterName>(['model', 'maxPrice', 'priceUnit', 'freeQuota', 'lifecycle', 'retiringWithin', 'includeRetired', 'mcp', 'providerCountry', 'dataRegion', 'buyerCountry', 'paymentMethod']);

/** One control per filter of LISTING_FILTERS, by its kind. */
function FilterControl({ ctx, name, value, categories, tasks }: { ctx: PageContext; name: FilterName; value: string; categories: CategoriesResponse; tasks: TasksResponse['tasks'] }) {
  const t = searchText(ctx.lang);
  const id = `f-${name}`;
  const kind = LISTING_FILTERS[name].kind;
  const select = (options: Array<[string, string]>) => (
    <select id={id} name={name}>
      <option value="">{t.any}</option>
      {options.map(([option, label]) => (
        <option value={option} selected={option === value}>
          {label}
        </option>
      ))}
    </select>
  );
  let control;
  switch (kind) {
    case 'category':
      control = select(categories.categories.map((c) => [c.slug, localName(ctx, c)]));
      break;
    case 'boolean':
      control = select([
        ['true', t.yes],
        ['false', t.no],
      ]);
      break;
    case 'auth':
      control = select(AUTH_TYPES.map((a) => [a, t.authTypes[a]]));
      break;
    case 'sdk':
      control = select(SDK_LANGUAGES.map((s) => [s, s]));
      break;
    case 'tokens':
      control = <input type="text" id={id} name={name} value={value} inputmode="numeric" placeholder={t.minContextHint} size={8} />;
      break;
    case 'lifecycle':
      control = select(LIFECYCLE_STATUSES.map((status) => [status, t.lifecycleStatuses[status]]));
      break;
    case 'days':
      control = <input type="text" id={id} name={name} value={value} placeholder={t.daysHint} size={8} />;
      break;
    case 'model':
      control = <input type="text" id={id} name={name} value={value} placeholder={t.modelHint} size={16} spellcheck={false} autocapitalize="off" />;
      break;
    case 'amount':
      control = <input type="text" id={id} name={name} value={value} inputmode="decimal" size={8} />;
      break;
    case 'unit':
      control = select(COMPARED_RATE_UNITS.map((unit) => [unit, t.rateUnits[unit]]));
      break;
    case 'live':
      control = select(LIVE_FILTER_VALUES.map((state) => [state, t.liveStates[state]]));
      break;
    case 'mcp':
      control = select(MCP_FILTER_VALUES.map((v) => [v, t.mcpValues[v]]));
      break;
    case 'paymentMethod':
      control = select(PAYMENT_METHODS.map((method) => [method, PAYMENT_METHOD_NAMES[method][ctx.lang === 'zh' ? 1 : 0]]));
      break;
    case 'slug':
      control = select(tasks.map((task) => [task.slug, ctx.lang === 'zh' ? task.nameCn : task.name]));
      break;
    case 'country':
      control = <input type="text" id={id} name={name} value={value} placeholder={t.countryHint} size={4} maxlength={2} spellcheck={false} autocapitalize="off" />;
      break;
  }
  return (
    <p class="field">
      <label for={id}>{t.filterLabels[name]}</label>
      {control}
    </p>
  );
}

/** A result scoring under this share of the best one is a weaker match (speech to text under "text to speech"). */
const WEAKER_THAN = 0.7;

/**
 * How many of the results, from the first, are strong matches: those of an order by relevance, on its first
 * page, scoring at least WEAKER_THAN times the best; the rest are set apart under their own heading. Every
 * result of another order, or of a later page, counts as shown in its order.
 */
function strongMatches(result: SearchResponse, laterPage: boolean): number {
  const results = result.results;
  if (laterPage || result.sort.by !== 'relevance' || results.length === 0) return results.length;
  const weaker = results.findIndex((item) => item.score < WEAKER_THAN * results[0].score);
  return weaker <= 0 ? results.length : weaker;
}

export function SearchResults({ ctx, result, firstPage, nextPage, categories }: { ctx: PageContext; result: SearchResponse; firstPage: string | null; nextPage: string | null; categories: CategoriesResponse }) {
  const t = searchText(ctx.lang);
  const strong = strongMatches(result, firstPage !== null);
  const names = new Map(categories.categories.map((c) => [c.slug, c]));
  return (
    <>
      <h2 class="count">{t.resultsCount(result.total, result.returned)}</h2>
      {result.sort.by !== 'relevance' && result.sort.by !== 'popular' && (
        <p class="muted orderedby">
          {t.orderedBy(t.listingSorts[result.sort.by], result.sort.priceUnit ? t.rateUnits[result.sort.priceUnit] : null, result.sort.withoutRate)}
        </p>
      )}
      {result.interpretation.length > 0 && (
        <div class="readas">
          <h2 class="small">{t.readAs}</h2>
          <ul>
            {result.interpretation.map((item) => (
              <li>
                <q>{item.input}</q> → {item.matchedAs.length > 0 ? item.matchedAs.join(', ') : t.readAsNothing}
                {item.via.length > 0 && <span class="muted"> ({item.via.map((via) => t.viaNames[via] ?? via).join(', ')})</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.total === 0 ? (
        <div class="empty">
          <h2>{t.emptyTitle}</h2>
          <ul>
            {t.emptyTips.map((tip) => (
              <li>{tip}</li>
            ))}
          </ul>
          <ul class="cats">
            {categories.categories.map((category) => (
              <li>
                <a href={href(ctx, PAGE_PATHS.category(category.slug))}>{localName(ctx, category)}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <>
          <ul class="cards">
            {result.results.slice(0, strong).map((item) => (
              <ListingCard ctx={ctx} item={item} pickForm="pick" categories={names} />
            ))}
          </ul>
          {strong < result.results.length && (
            <>
              <h2 class="weaker">{t.weakerMatches}</h2>
              <ul class="cards">
                {result.results.slice(strong).map((item) => (
                  <ListingCard ctx={ctx} item={item} pickForm="pick" categories={names} />
                ))}
              </ul>
            </>
          )}
          <PickForm ctx={ctx} id="pick" />
          <Pager ctx={ctx} first={firstPage} next={nextPage} />
        </>
      )}
    </>
  );
}

export function SearchPage({ ctx, q, values, categories, tasks, result, error, firstPage, nextPage, sort }: SearchPageProps) {
  const t = searchText(ctx.lang);
  const title = `${t.searchTitle(q)} · ${t.siteName}`;
  const jsonLd = result
    ? [itemList(t.searchTitle(q), result.results.map((item) => ({ name: localName(ctx, item), url: absolute(ctx, PAGE_PATHS.listing(item.slug)) })))]
    : [];
  return (
    <Layout ctx={ctx} title={title} description={t.searchDescription} crumbs={[{ name: t.navSearch }]} jsonLd={jsonLd}>
      <h1>{t.searchTitle(q)}</h1>
      <SearchBox ctx={ctx} q={q}>
        <FiltersFold ctx={ctx} set={FILTER_NAMES.filter((name) => values[name] !== '').length + (sort ? 1 : 0)}>
          <fieldset class="filters">
            <legend>{t.filtersLegend}</legend>
            {FILTER_NAMES.filter((name) => !MORE_FILTERS.has(name)).map((name) => (
              <FilterControl ctx={ctx} name={name} value={values[name]} categories={categories} tasks={tasks} />
            ))}
            <SortControl ctx={ctx} value={sort} />
            <details class="more" open={[...MORE_FILTERS].some((name) => values[name] !== '')}>
              <summary>{t.moreFilters}</summary>
              <div class="fields">
                {[...MORE_FILTERS].map((name) => (
                  <FilterControl ctx={ctx} name={name} value={values[name]} categories={categories} tasks={tasks} />
                ))}
              </div>
            </details>
          </fieldset>
        </FiltersFold>
      </SearchBox>
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      <div id="results" class="live">
        {result && <SearchResults ctx={ctx} result={result} firstPage={firstPage} nextPage={nextPage} categories={categories} />}
      </div>
    </Layout>
  );
}
