import type { ErrorEntryView } from '../../contract/listing-views';
import type { ErrorsResponse } from '../../contract/responses';
import { PAGE_PATHS } from '../page-paths';
import { href, Layout, PageContext } from '../shared/layout';
import { CodeBlock, Inline } from '../shared/parts';
import { errorReferenceText } from './error-reference-messages';

export interface ErrorReferencePageProps {
  ctx: PageContext;
  /** The entries shown (narrowed by provider and status). */
  errors: ErrorsResponse;
  /** Every entry, for the choices of the form. */
  all: ErrorsResponse;
}

/** The error reference, grouped by provider, each provider's entries by status. */
export function ErrorReferencePage({ ctx, errors, all }: ErrorReferencePageProps) {
  const t = errorReferenceText(ctx.lang);
  const providers = new Map<string, string>();
  for (const entry of all.errors) providers.set(entry.provider, entry.providerName ?? entry.provider);
  const statuses = [...new Set(all.errors.map((entry) => entry.status))].sort((a, b) => a - b);
  const groups = new Map<string, ErrorEntryView[]>();
  for (const entry of errors.errors) groups.set(entry.provider, [...(groups.get(entry.provider) ?? []), entry]);
  const zh = ctx.lang === 'zh';
  return (
    <Layout ctx={ctx} title={`${t.errorsTitle} · ${t.siteName}`} description={t.errorsDescription} crumbs={[{ name: t.errorsTitle }]}>
      <h1>{t.errorsTitle}</h1>
      <p class="lead">{t.errorsDescription}</p>
      <form class="inline" action={href(ctx, PAGE_PATHS.errors)} method="get">
        <p class="field">
          <label for="provider">{t.provider}</label>
          <select id="provider" name="provider">
            <option value="">{t.allProviders}</option>
            {[...providers].map(([slug, name]) => (
              <option value={slug} selected={slug === errors.provider}>
                {name}
              </option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="status">{t.statusCode}</label>
          <select id="status" name="status">
            <option value="">{t.allStatuses}</option>
            {statuses.map((status) => (
              <option value={String(status)} selected={status === errors.status}>
                {status}
              </option>
            ))}
          </select>
        </p>
        <button type="submit">{t.show}</button>
      </form>
      <p class="count">{t.errorCount(errors.total)}</p>
      {groups.size > 1 && (
        <nav class="toc" aria-label={t.errorsIndex}>
          <ul>
            {[...groups].map(([provider, entries]) => (
              <li>
                <a href={`#p-${provider}`}>
                  {providers.get(provider) ?? provider} ({entries.length})
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {[...groups].map(([provider, entries]) => (
        <section aria-labelledby={`p-${provider}`}>
          <h2 id={`p-${provider}`}>
            <a href={href(ctx, PAGE_PATHS.listing(provider))}>{providers.get(provider) ?? provider}</a>
          </h2>
          {entries.map((entry) => (
            <div class="err" id={entry.id}>
              <h3>
                <span class="status">{entry.status}</span> <Inline text={zh ? entry.titleCn : entry.title} />
              </h3>
              <p>
                <strong>{t.cause}{t.colon}</strong><Inline text={zh ? entry.causeCn : entry.cause} />
              </p>
              <p>
                <strong>{t.fix}{t.colon}</strong><Inline text={zh ? entry.fixCn : entry.fix} />
              </p>
              {entry.rateLimitsUrl && (
                <p>
                  <a href={`${href(ctx, PAGE_PATHS.listing(provider))}#rate-limits`}>{t.rateLimitsAsData}</a>
                </p>
              )}
              {entry.curlExample && <CodeBlock ctx={ctx} id={`code-${entry.id}`} label={`${t.example}${t.colon}${entry.status}`} language="bash" code={entry.curlExample} />}
            </div>
          ))}
        </section>
      ))}
    </Layout>
  );
}
