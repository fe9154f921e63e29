import type { LatestChanges } from '../../changes/latest-changes.handler';
import type { Change } from '../../contract/responses';
import { errorsPath, PAGE_PATHS } from '../page-paths';
import { href, Layout, PageContext } from '../shared/layout';
import { changesText } from './changes-messages';

/** The page a change leads to: the listing, or the provider's entries of the error reference. */
function pageOf(change: Change): string {
  if (change.kind === 'listing' || change.kind === 'liveness') return PAGE_PATHS.listing(change.id);
  if (change.kind === 'model') return PAGE_PATHS.model(change.id);
  const provider = new URLSearchParams(change._links.self.split('?')[1] ?? '').get('provider');
  return errorsPath(provider, null);
}

export function ChangeList({ ctx, changes }: { ctx: PageContext; changes: LatestChanges }) {
  const t = changesText(ctx.lang);
  if (changes.changes.length === 0) return <p class="muted">{t.noneListed}</p>;
  return (
    <ol class="changes">
      {changes.changes.map(({ change, name }) => (
        <li>
          <time datetime={change.occurredAt}>{t.dateTime(change.occurredAt)}</time>{' '}
          <span class={`badge ${change.type}`}>{t.changeTypes[change.type]}</span> {t.changeKinds[change.kind]}{' '}
          <a href={href(ctx, pageOf(change))}>{name ?? change.id}</a>{' '}
          <span class="muted">
            ({t.version} {change.version})
          </span>
          {change.changedFields && change.changedFields.length > 0 && (
            <span class="small">
              {' '}
              · {t.changedFields}{t.colon}{change.changedFields.map((field, i) => (
                <>
                  {i > 0 && ', '}
                  <code>{field}</code>
                </>
              ))}
            </span>
          )}
          {change.reason && (
            <span class="small" lang="en">
              {' '}
              · {change.reason}
            </span>
          )}
          {change.replacedBy && change.replacedBy.length > 0 && (
            <span class="small">
              {' '}
              · {t.replacedBy}{t.colon}
              {change.replacedBy.map((slug, i) => (
                <>
                  {i > 0 && ', '}
                  <a href={href(ctx, PAGE_PATHS.listing(slug))}>{slug}</a>
                </>
              ))}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

export function ChangesPage({ ctx, changes }: { ctx: PageContext; changes: LatestChanges }) {
  const t = changesText(ctx.lang);
  return (
    <Layout ctx={ctx} title={`${t.changesTitle} · ${t.siteName}`} description={t.changesDescription} crumbs={[{ name: t.changesTitle }]}>
      <h1>{t.changesTitle}</h1>
      <p class="lead">{t.changesDescription}</p>
      <p>
        {t.changesFeeds} <a href="/api/v1/changes.atom">{t.atomFeed}</a> · <a href="/api/v1/changes">{t.jsonFeed}</a>
      </p>
      <ChangeList ctx={ctx} changes={changes} />
    </Layout>
  );
}
