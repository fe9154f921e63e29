import type { CompareResponse } from '../../contract/responses';
import { NO_FILTERS } from '../../contract/listing-filters';
import { PAGE_PATHS, searchPath } from '../page-paths';
import { href, Layout, PageContext } from './layout';

type Gone = CompareResponse['gone'][number];

export interface ErrorPageProps {
  ctx: PageContext;
  status: number;
  /** The problem's detail, as the JSON API says it (English). */
  detail: string;
  /** A listing that is no longer served: when, why and what to use instead. */
  gone?: Gone | null;
  /** An unknown listing: its slug, to search for. */
  missingSlug?: string | null;
  /** For an unknown listing: the listings it most likely meant (the 404's didYouMean). */
  closest?: string[];
}

/** Any error in the site's style: 404, 410 (naming the successor), 400, 429, 503, 500. */
export function ErrorPage({ ctx, status, detail, gone, missingSlug, closest = [] }: ErrorPageProps) {
  const { t } = ctx;
  const [title, text] =
    status === 404
      ? [t.notFoundTitle, missingSlug ? t.notFoundListing(missingSlug) : t.notFoundText]
      : status === 410
        ? [t.goneTitle, gone ? (gone.status === 'withdrawn' ? t.goneWithdrawn(gone.slug) : t.goneRetired(gone.slug)) : detail]
        : status === 429
          ? [t.rateLimitedTitle, t.rateLimitedText]
          : status === 503
            ? [t.unavailableTitle, t.unavailableText]
            : status >= 500
              ? [t.internalTitle, t.internalText]
              : [t.badRequestTitle, detail];
  return (
    <Layout ctx={ctx} title={`${title} · ${t.siteName}`} description={text} noindex>
      <div class="error-page">
        <p class="code">{t.errorStatus(status)}</p>
        <h1>{title}</h1>
        <p class="lead" {...(ctx.lang === 'zh' && text === detail ? { lang: 'en' } : {})}>
          {text}
        </p>
        {gone && (
          <dl class="facts">
            {gone.since && (
              <>
                <dt>{t.goneSince}</dt>
                <dd>{gone.since.slice(0, 10)}</dd>
              </>
            )}
            {gone.reason && (
              <>
                <dt>{t.reason}</dt>
                <dd lang="en">{gone.reason}</dd>
              </>
            )}
            {gone.replacedBy.length > 0 && (
              <>
                <dt>{t.useInstead}</dt>
                <dd>
                  <ul>
                    {gone.replacedBy.map((slug) => (
                      <li>
                        <a href={href(ctx, PAGE_PATHS.listing(slug))}>{slug}</a>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            <dt>{t.history}</dt>
            <dd>
              <a href={`/api/v1/tools/${encodeURIComponent(gone.slug)}/history`}>{`/api/v1/tools/${gone.slug}/history`}</a>
            </dd>
          </dl>
        )}
        {closest.length > 0 && (
          <p>
            {t.didYouMean}
            {t.colon}
            {closest.map((slug, i) => (
              <>
                {i > 0 && ', '}
                <a href={href(ctx, PAGE_PATHS.listing(slug))}>{slug}</a>
              </>
            ))}
          </p>
        )}
        {missingSlug && (
          <p>
            <a href={href(ctx, searchPath(missingSlug, NO_FILTERS))}>{t.searchFor(missingSlug)}</a>
          </p>
        )}
        <p>
          <a href={href(ctx, PAGE_PATHS.home)}>{t.backHome}</a>
        </p>
      </div>
    </Layout>
  );
}
