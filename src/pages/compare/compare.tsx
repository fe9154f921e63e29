import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import type { ComparisonRow, ToolSummary } from '../../contract/listing-views';
import type { CategoriesResponse, CompareResponse } from '../../contract/responses';
import { isRetiring } from '../../listings/write/listing-facts';
import { comparePath, PAGE_PATHS } from '../page-paths';
import { itemList } from '../shared/json-ld';
import { absolute, href, Layout, PageContext } from '../shared/layout';
import { amountText, authTypeText, english, localCategory, localDescription, localName, SourceNote, Wide } from '../shared/parts';
import { compareText } from './compare-messages';

type Gone = CompareResponse['gone'][number];
type Model = NonNullable<ComparisonRow['models']>[number];
type Source = Model['source'];

export interface ComparePageProps {
  ctx: PageContext;
  /** The slugs asked for, in order. */
  ids: string[];
  /** The comparison; null when nothing could be compared (`error` says why). */
  result: CompareResponse | null;
  /** Unknown and gone slugs when none could be compared. */
  notFound: string[];
  gone: Gone[];
  error: string | null;
  /** Listings offered to pick from. */
  popular: ToolSummary[];
  categories: CategoriesResponse;
}

/**
 * One row of the table: a field, and its value for each listing. A row whose cells all read the same is
 * marked `same`, for the "differences only" switch (CSS hides such rows while it is ticked).
 */
function Row({ label, rows, cell }: { label: string; rows: ComparisonRow[]; cell: (row: ComparisonRow) => ComponentChildren }) {
  const cells = rows.map((row) => cell(row));
  const same = rows.length > 1 && new Set(cells.map((content) => render(<>{content}</>))).size === 1;
  return (
    <tr class={same ? 'same' : undefined}>
      <th scope="row">{label}</th>
      {cells.map((content) => (
        <td>{content}</td>
      ))}
    </tr>
  );
}

/** A listing's price from, in words, with the model it is for and its source. */
function PriceFromCell({ ctx, row }: { ctx: PageContext; row: ComparisonRow }) {
  const from = row.priceFrom;
  if (!from) return <span class="muted">{compareText(ctx.lang).notRecorded}</span>;
  return (
    <Sourced ctx={ctx} source={from.source}>
      {compareText(ctx.lang).cardPriceFrom(amountText(from, from.currency), compareText(ctx.lang).rateUnits[from.unit] ?? from.unit)}
      {from.model && (
        <>
          {' · '}
          <code>{from.model.id}</code>
        </>
      )}
    </Sourced>
  );
}

/**
 * A decision fact and where it comes from (the page and the day it was checked), as the listing page's facts
 * agents filter on show it; with `required`, a fact every listing sources says when it is not confirmed yet.
 */
function Sourced({ ctx, source, required = false, children }: { ctx: PageContext; source: Source | null; required?: boolean; children: ComponentChildren }) {
  return (
    <>
      {children}
      {(source || required) && (
        <>
          {' '}
          <SourceNote ctx={ctx} source={source} required={required} brief />
        </>
      )}
    </>
  );
}

/** The listing's models: how many, and the largest context (with its model's source); the list itself is on its page. */
function ModelsCell({ ctx, row }: { ctx: PageContext; row: ComparisonRow }) {
  const t = compareText(ctx.lang);
  if (!row.models) return <span class="muted">{t.notRecorded}</span>;
  const largest = row.models.reduce<Model | null>((best, model) => (model.contextTokens !== null && (best === null || model.contextTokens > best.contextTokens!) ? model : best), null);
  return (
    <>
      <div>
        <a href={`${href(ctx, PAGE_PATHS.listing(row.slug))}#models`}>{t.compareModels(row.models.length)}</a>
      </div>
      {largest && (
        <div>
          <Sourced ctx={ctx} source={largest.source}>
            {t.compareLargestContext(t.tokens(largest.contextTokens!))}
          </Sourced>
        </div>
      )}
    </>
  );
}

/** The listing's rate limits as figures: how many, the first of them, and their source; the table is on its page. */
function RateLimitsCell({ ctx, row }: { ctx: PageContext; row: ComparisonRow }) {
  const t = compareText(ctx.lang);
  if (!row.rateLimits) return <span class="muted">{t.notRecorded}</span>;
  const { limits, headers, source } = row.rateLimits;
  const first = limits[0];
  const limitText = first && t.limitText(t.tokens(first.limit), t.limitMetrics[first.metric], first.per && t.limitPeriods[first.per]);
  const about = first && [first.tier, first.appliesTo].filter(Boolean).join(', ');
  return (
    <>
      <div>
        <a href={`${href(ctx, PAGE_PATHS.listing(row.slug))}#rate-limits`}>{t.compareLimits(limits.length)}</a>
      </div>
      {first && (
        <div>
          {limits.length > 1 ? t.compareFirstLimit(limitText) : limitText}
          {about && <span {...english(ctx)}> ({about})</span>}
        </div>
      )}
      {!first && headers.length > 0 && <div>{t.compareLimitHeaders(headers.length)}</div>}
      <div>
        <SourceNote ctx={ctx} source={source} brief />
      </div>
    </>
  );
}

/** The head of a table with a column per compared listing, each linking to its page. */
function ListingColumns({ ctx, first, rows, names }: { ctx: PageContext; first: string; rows: ComparisonRow[]; names: Map<string, string> }) {
  return (
    <thead>
      <tr>
        <th scope="col">{first}</th>
        {rows.map((row) => (
          <th scope="col">
            <a href={href(ctx, PAGE_PATHS.listing(row.slug))}>{names.get(row.slug)}</a>
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** For each unit, the lowest US-dollar rate of each listing side by side (the compare answer's `rates`), and where the prices come from. */
function Rates({ ctx, rows, rates, names }: { ctx: PageContext; rows: ComparisonRow[]; rates: CompareResponse['rates']; names: Map<string, string> }) {
  const t = compareText(ctx.lang);
  if (rates.length === 0) return <p class="muted">{t.compareRatesNone}</p>;
  return (
    <>
      <p class="small">{t.compareRatesIntro}</p>
      <Wide ctx={ctx} label={t.compareRates}>
        <table class="compare rates">
          <ListingColumns ctx={ctx} first={t.compareUnit} rows={rows} names={names} />
          <tbody>
            {rates.map((rate) => (
              <tr>
                <th scope="row">{t.rateUnits[rate.unit]}</th>
                {rows.map((row) => {
                  const lowest = rate.lowest[row.slug] ?? null;
                  return <td>{lowest === null ? '—' : t.compareRate(lowest)}</td>;
                })}
              </tr>
            ))}
            <tr>
              <th scope="row">{t.compareRetiring}</th>
              {rows.map((row) => {
                const deprecated = (row.models ?? []).filter((model) => isRetiring(model.lifecycle));
                const first = deprecated.map((model) => model.lifecycle.retiresAt).filter((day): day is string => Boolean(day)).sort()[0] ?? null;
                return (
                  <td>
                    {deprecated.length === 0 ? '—' : <a href={`${href(ctx, PAGE_PATHS.listing(row.slug))}#retirements`}>{t.compareRetiringModels(deprecated.length, first)}</a>}
                  </td>
                );
              })}
            </tr>
            <tr>
              <th scope="row">{t.comparePricesSource}</th>
              {rows.map((row) => (
                <td>{row.prices ? <SourceNote ctx={ctx} source={row.prices.source} brief /> : <span class="muted">{t.notRecorded}</span>}</td>
              ))}
            </tr>
          </tbody>
        </table>
      </Wide>
    </>
  );
}

function Checkbox({ slug, label, checked }: { slug: string; label: string; checked: boolean }) {
  return (
    <li>
      <input type="checkbox" id={`c-${slug}`} name="ids" value={slug} checked={checked} />
      <label for={`c-${slug}`}>{label}</label>
    </li>
  );
}

/** The listings that could not be compared: unknown ones by their slug, withdrawn or retired ones with their successors. */
function NotCompared({ ctx, unknown, gone }: { ctx: PageContext; unknown: string[]; gone: Gone[] }) {
  const t = compareText(ctx.lang);
  return (
    <>
      {unknown.length > 0 && (
        <p class="alert">
          {t.notFoundIds}{t.colon}{unknown.map((slug, i) => (
            <>
              {i > 0 && ', '}
              <code>{slug}</code>
            </>
          ))}
        </p>
      )}
      {gone.length > 0 && (
        <div class="alert">
          <p>{t.goneIds}{t.colon}</p>
          <ul>
            {gone.map((listing) => (
              <li>
                <code>{listing.slug}</code> ({t.goneStatuses[listing.status]}
                {listing.since && `, ${listing.since.slice(0, 10)}`})
                {listing.replacedBy.length > 0 && (
                  <>
                    {' '}
                    {t.useInstead}{t.colon}
                    {listing.replacedBy.map((slug, i) => (
                      <>
                        {i > 0 && ', '}
                        <a href={href(ctx, PAGE_PATHS.listing(slug))}>{slug}</a>
                      </>
                    ))}
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** The comparison itself: a row per field, a column per listing, with the "differences only" switch. */
function ComparisonTable({ ctx, rows, names, categories }: { ctx: PageContext; rows: ComparisonRow[]; names: Map<string, string>; categories: CategoriesResponse }) {
  const t = compareText(ctx.lang);
  const categoryNames = new Map(categories.categories.map((c) => [c.slug, c]));
  const en = english(ctx);
  return (
    <section aria-labelledby="table">
      <h2 id="table">{t.compareTable}</h2>
      <p class="diffonly">
        <input type="checkbox" id="diff" />
        <label for="diff">{t.compareDifferencesOnly}</label>
      </p>
      <Wide ctx={ctx} label={t.compareTable}>
        <table class="compare">
          <ListingColumns ctx={ctx} first={t.field} rows={rows} names={names} />
          <tbody>
            <Row label={t.filterLabels.category} rows={rows} cell={(row) => <a href={href(ctx, PAGE_PATHS.category(row.category))}>{localCategory(ctx, row, categoryNames)}</a>} />
            <Row label={t.popularity} rows={rows} cell={(row) => t.popularityValue(row.popularity)} />
            <Row label={t.status} rows={rows} cell={(row) => t.listingStatuses[row.status]} />
            <Row label={t.description} rows={rows} cell={(row) => localDescription(ctx, row)} />
            <Row label={t.comparePriceFrom} rows={rows} cell={(row) => <PriceFromCell ctx={ctx} row={row} />} />
            <Row label={t.pricing} rows={rows} cell={(row) => <span {...en}>{row.pricing}</span>} />
            <Row label={t.freeTierBadge} rows={rows} cell={(row) => <Sourced ctx={ctx} source={row.sources?.freeTier ?? null} required={row.freeTier !== null}>{t.yesNo(row.freeTier)}</Sourced>} />
            <Row label={t.authentication} rows={rows} cell={(row) => <span {...en}>{row.auth.join('; ')}</span>} />
            <Row label={t.authType} rows={rows} cell={(row) => <Sourced ctx={ctx} source={row.sources?.auth ?? null} required={row.authType !== null}>{authTypeText(ctx, row.authType)}</Sourced>} />
            <Row label={t.openaiCompatible} rows={rows} cell={(row) => <Sourced ctx={ctx} source={row.sources?.openaiCompatible ?? null} required={row.openaiCompatible !== null}>{t.yesNo(row.openaiCompatible)}</Sourced>} />
            <Row label={t.rateLimit} rows={rows} cell={(row) => <span {...en}>{row.rateLimit}</span>} />
            <Row label={t.compareLimitsLabel} rows={rows} cell={(row) => <RateLimitsCell ctx={ctx} row={row} />} />
            <Row label={t.latency} rows={rows} cell={(row) => <span {...en}>{row.latency}</span>} />
            <Row label={t.maxContext} rows={rows} cell={(row) => <span {...en}>{row.maxTokens ?? '–'}</span>} />
            <Row label={t.contextTokens} rows={rows} cell={(row) => <Sourced ctx={ctx} source={row.sources?.contextTokens ?? null}>{row.contextTokens === null ? '–' : t.tokens(row.contextTokens)}</Sourced>} />
            <Row label={t.models} rows={rows} cell={(row) => <ModelsCell ctx={ctx} row={row} />} />
            <Row label={t.sdkLanguages} rows={rows} cell={(row) => row.sdkLanguages.join(', ')} />
            <Row label={t.endpoints} rows={rows} cell={(row) => String(row.endpoints.length)} />
            <Row label={t.features} rows={rows} cell={(row) => <span {...en}>{row.features.join('; ') || '–'}</span>} />
            <Row label={t.lifecycle} rows={rows} cell={(row) => (row.lifecycle ? t.lifecycleStatuses[row.lifecycle.status] : '–')} />
            <Row label={t.lastUpdated} rows={rows} cell={(row) => row.lastUpdated} />
            <Row label={t.tags} rows={rows} cell={(row) => row.tags.join(', ')} />
          </tbody>
        </table>
      </Wide>
    </section>
  );
}

/** The form to pick what to compare: the current ones, the popular ones, and names or slugs typed in. */
function Picker({ ctx, ids, names, popular }: { ctx: PageContext; ids: string[]; names: Map<string, string>; popular: ToolSummary[] }) {
  const t = compareText(ctx.lang);
  return (
    <section aria-labelledby="pick">
      <h2 id="pick">{t.comparePick}</h2>
      <form class="pick" action={href(ctx, comparePath([]))} method="get">
        {ids.length > 0 && (
          <fieldset>
            <legend>{t.compareCurrent}</legend>
            <ul class="checks">
              {ids.map((slug) => (
                <Checkbox slug={slug} label={names.get(slug) ?? slug} checked />
              ))}
            </ul>
          </fieldset>
        )}
        <fieldset>
          <legend>{t.comparePopular}</legend>
          <ul class="checks">
            {popular
              .filter((item) => !ids.includes(item.slug))
              .map((item) => (
                <Checkbox slug={item.slug} label={localName(ctx, item)} checked={false} />
              ))}
          </ul>
        </fieldset>
        <p class="field">
          <label for="more">{t.compareMore}</label>
          <input type="text" id="more" name="more" placeholder={t.compareMoreHint} autocomplete="off" />
        </p>
        <button type="submit">{t.compareButton}</button>
      </form>
    </section>
  );
}

export function ComparePage({ ctx, ids, result, notFound, gone, error, popular, categories }: ComparePageProps) {
  const t = compareText(ctx.lang);
  const rows = result?.compared ?? [];
  const names = new Map(rows.map((row) => [row.slug, localName(ctx, row)]));
  const title = rows.length > 0 ? `${rows.map((row) => localName(ctx, row)).join(' · ')} · ${t.compareTitle}` : `${t.compareTitle} · ${t.siteName}`;
  return (
    <Layout
      ctx={ctx}
      title={title}
      description={t.compareDescription}
      crumbs={[{ name: t.compareTitle }]}
      jsonLd={rows.length > 0 ? [itemList(t.compareTitle, rows.map((row) => ({ name: localName(ctx, row), url: absolute(ctx, PAGE_PATHS.listing(row.slug)) })))] : []}
    >
      <h1>{t.compareTitle}</h1>
      <p class="lead">{t.compareDescription}</p>
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      <NotCompared ctx={ctx} unknown={result?.notFound ?? notFound} gone={result?.gone ?? gone} />
      {rows.length > 0 && <ComparisonTable ctx={ctx} rows={rows} names={names} categories={categories} />}
      {result && rows.length > 0 && (
        <section aria-labelledby="rates">
          <h2 id="rates">{t.compareRates}</h2>
          <Rates ctx={ctx} rows={rows} rates={result.rates} names={names} />
        </section>
      )}
      <Picker ctx={ctx} ids={ids} names={names} popular={popular} />
    </Layout>
  );
}
