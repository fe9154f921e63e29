import type { z } from 'zod';
import type { rateSchema } from '../../../contract/listing-facts';
import type { ToolDetail } from '../../../contract/listing-views';
import type { CategoriesResponse, ToolDetailResponse } from '../../../contract/responses';
import { HTML_LANG } from '../../messages';
import { comparePath, PAGE_PATHS } from '../../page-paths';
import { webApi } from '../json-ld';
import { absolute, href, Layout, PageContext } from '../layout';
import { CodeBlock, english, ExternalLink, localCategory, localDescription, localName, otherName, Popularity, SourceNote, TextList, Wide } from '../parts';

type Rate = z.infer<typeof rateSchema>;

/** A rate as one line: `8 USD / 1m-input-tokens (batch)`. */
function rateText(rate: Rate, currency: string | null): string {
  const amount = `${rate.price}${currency ? ` ${currency}` : ''}${rate.percent !== null ? ` + ${rate.percent}%` : ''} / ${rate.unit}`;
  const notes = [rate.appliesTo, rate.note].filter(Boolean).join('; ');
  return notes ? `${amount} (${notes})` : amount;
}

/** A rate's line, with its own source when another page than its block's states it. */
function RateLine({ ctx, rate, currency }: { ctx: PageContext; rate: Rate; currency: string | null }) {
  return (
    <div>
      {rateText(rate, currency)}
      {rate.source && (
        <>
          {' '}
          <SourceNote ctx={ctx} source={rate.source} brief />
        </>
      )}
    </div>
  );
}

function Lifecycle({ ctx, lifecycle }: { ctx: PageContext; lifecycle: NonNullable<ToolDetail['lifecycle']> }) {
  const { t } = ctx;
  return (
    <dl class="facts">
      <dt>{t.status}</dt>
      <dd>{t.lifecycleStatuses[lifecycle.status]}</dd>
      {lifecycle.since && (
        <>
          <dt>{t.since}</dt>
          <dd>{lifecycle.since}</dd>
        </>
      )}
      {lifecycle.retiresAt && (
        <>
          <dt>{t.retiresAt}</dt>
          <dd>{lifecycle.retiresAt}</dd>
        </>
      )}
      {lifecycle.replacedBy && lifecycle.replacedBy.length > 0 && (
        <>
          <dt>{t.replacedBy}</dt>
          <dd>
            {lifecycle.replacedBy.map((slug, i) => (
              <>
                {i > 0 && ', '}
                <a href={href(ctx, PAGE_PATHS.listing(slug))}>{slug}</a>
              </>
            ))}
          </dd>
        </>
      )}
      {lifecycle.migrationUrl && (
        <>
          <dt>{t.migrationGuide}</dt>
          <dd>
            <ExternalLink url={lifecycle.migrationUrl}>{lifecycle.migrationUrl}</ExternalLink>
          </dd>
        </>
      )}
      {lifecycle.reason && (
        <>
          <dt>{t.reason}</dt>
          <dd {...english(ctx)}>{lifecycle.reason}</dd>
        </>
      )}
      {lifecycle.source && (
        <>
          <dt>{t.source}</dt>
          <dd>
            <SourceNote ctx={ctx} source={lifecycle.source} />
          </dd>
        </>
      )}
    </dl>
  );
}

function Models({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const { t } = ctx;
  if (!tool.models) return <p class="muted">{t.notRecorded}</p>;
  const currency = tool.prices?.currency ?? null;
  return (
    <Wide ctx={ctx} label={t.models}>
      <table>
        <thead>
          <tr>
            <th scope="col">{t.modelId}</th>
            <th scope="col">{t.kind}</th>
            <th scope="col">{t.modalities}</th>
            <th scope="col">{t.contextTokens}</th>
            <th scope="col">{t.maxOutput}</th>
            <th scope="col">{t.prices}</th>
            <th scope="col">{t.lifecycle}</th>
            <th scope="col">{t.source}</th>
          </tr>
        </thead>
        <tbody>
          {tool.models.map((model) => (
            <tr>
              <th scope="row">
                <a href={href(ctx, PAGE_PATHS.model(model.canonical ?? `${tool.slug}/${model.id}`.toLowerCase()))} title={t.modelLink}>
                  {model.name}
                </a>{' '}
                <code>{model.id}</code>
              </th>
              <td>{model.kind}</td>
              <td>
                {model.input.join(', ')} → {model.output.join(', ')}
              </td>
              <td>{model.contextTokens === null ? '–' : t.tokens(model.contextTokens)}</td>
              <td>{model.maxOutputTokens === null ? '–' : t.tokens(model.maxOutputTokens)}</td>
              <td>{model.prices.length === 0 ? '–' : model.prices.map((rate) => <RateLine ctx={ctx} rate={rate} currency={currency} />)}</td>
              <td>
                {t.lifecycleStatuses[model.lifecycle.status]}
                {model.lifecycle.retiresAt && ` (${t.retiresAt} ${model.lifecycle.retiresAt})`}
              </td>
              <td>
                <ExternalLink url={model.source.url}>{model.source.checked}</ExternalLink>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Wide>
  );
}

function Prices({ ctx, prices }: { ctx: PageContext; prices: ToolDetail['prices'] }) {
  const { t } = ctx;
  if (!prices) return <p class="muted">{t.notRecorded}</p>;
  return (
    <dl class="facts">
      <dt>{t.currency}</dt>
      <dd>{prices.currency}</dd>
      <dt>{t.pricingModels}</dt>
      <dd>{prices.models.join(', ')}</dd>
      <dt>{t.freeQuota}</dt>
      <dd>
        {prices.freeQuota.length === 0
          ? t.none
          : prices.freeQuota.map((quota) => (
              <div>
                {quota.amount} {quota.unit} / {quota.period}
                {quota.conditions && <span {...english(ctx)}> ({quota.conditions})</span>}
              </div>
            ))}
      </dd>
      <dt>{t.rates}</dt>
      <dd>{prices.rates.length === 0 ? t.none : prices.rates.map((rate) => <RateLine ctx={ctx} rate={rate} currency={prices.currency} />)}</dd>
      <dt>{t.batchDiscount}</dt>
      <dd>{prices.batchDiscount === null ? t.none : `${Math.round(prices.batchDiscount * 100)}%`}</dd>
      <dt>{t.source}</dt>
      <dd>
        <SourceNote ctx={ctx} source={prices.source} />
      </dd>
    </dl>
  );
}

/**
 * The head's status: beta or deprecated as the editors say; otherwise what the prober found (answering,
 * partly, not answering), or that it has not checked yet. Never a green badge for health nobody measured.
 */
function HealthBadge({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const { t } = ctx;
  if (tool.status !== 'online') return <span class={`badge ${tool.status}`}>{t.listingStatuses[tool.status]}</span>;
  const liveness = tool.liveness;
  if (!liveness) return <span class="badge unchecked">{t.liveStates.unchecked}</span>;
  return (
    <a class={`badge ${liveness.state === 'ok' ? 'online' : 'warn'}`} href="#liveness">
      {t.liveStates[liveness.state]}
    </a>
  );
}

/** What the prober last published of the listing's targets. */
function LivenessView({ ctx, liveness }: { ctx: PageContext; liveness: ToolDetail['liveness'] }) {
  const { t } = ctx;
  if (!liveness) return <p class="muted">{t.liveStates.unchecked}</p>;
  return (
    <>
      <p>
        <span class={`badge ${liveness.state === 'ok' ? 'online' : 'warn'}`}>{t.liveStates[liveness.state]}</span>{' '}
        <time datetime={liveness.checkedAt}>{t.dateTime(liveness.checkedAt)}</time>
        {liveness.failingSince && (
          <>
            {' '}
            · {t.livenessFailingSince} <time datetime={liveness.failingSince}>{t.dateTime(liveness.failingSince)}</time>
          </>
        )}
        {liveness.lastOk && liveness.state !== 'ok' && (
          <>
            {' '}
            · {t.livenessLastOk} <time datetime={liveness.lastOk}>{t.dateTime(liveness.lastOk)}</time>
          </>
        )}
      </p>
      <Wide ctx={ctx} label={t.livenessTitle}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t.livenessTarget}</th>
              <th scope="col">{t.livenessUrl}</th>
              <th scope="col">{t.status}</th>
              <th scope="col">{t.livenessTime}</th>
            </tr>
          </thead>
          <tbody>
            {liveness.targets.map((target) => (
              <tr>
                <td>{t.targetKinds[target.kind]}</td>
                <td>
                  <code>{target.url}</code>
                </td>
                <td>
                  {t.targetStates[target.state]}
                  {target.httpStatus !== null && ` (${target.httpStatus})`}
                </td>
                <td>{target.timeMs === null ? '–' : `${target.timeMs} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Wide>
      <p class="small muted">{t.livenessNote}</p>
    </>
  );
}

function RateLimits({ ctx, rateLimits }: { ctx: PageContext; rateLimits: ToolDetail['rateLimits'] }) {
  const { t } = ctx;
  if (!rateLimits) return <p class="muted">{t.notRecorded}</p>;
  return (
    <>
      <Wide ctx={ctx} label={t.rateLimits}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t.tier}</th>
              <th scope="col">{t.scope}</th>
              <th scope="col">{t.limit}</th>
              <th scope="col">{t.appliesTo}</th>
            </tr>
          </thead>
          <tbody>
            {rateLimits.limits.map((limit) => (
              <tr>
                <td>{limit.tier}</td>
                <td>{t.limitScopes[limit.scope]}</td>
                <td>{t.limitText(t.tokens(limit.limit), t.limitMetrics[limit.metric], limit.per ? t.limitPeriods[limit.per] : null)}</td>
                <td>{limit.appliesTo ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Wide>
      <p class="small">
        {t.limitHeaders}: {rateLimits.headers.length === 0 ? t.none : rateLimits.headers.map((header, i) => (
          <>
            {i > 0 && ', '}
            <code>{header}</code>
          </>
        ))}
        . <SourceNote ctx={ctx} source={rateLimits.source} />
      </p>
    </>
  );
}

export function ListingPage({ ctx, detail, categories }: { ctx: PageContext; detail: ToolDetailResponse; categories: CategoriesResponse }) {
  const { t } = ctx;
  const tool = detail.tool;
  const name = localName(ctx, tool);
  const categoryNames = new Map(categories.categories.map((c) => [c.slug, c]));
  const category = localCategory(ctx, tool, categoryNames);
  const description = localDescription(ctx, tool);
  const listingPath = PAGE_PATHS.listing(tool.slug);
  const others = tool.similarApis.map((similar) => similar.slug);
  const en = english(ctx);
  return (
    <Layout
      ctx={ctx}
      title={`${name} · ${t.siteName}`}
      description={t.listingDescription(description, category)}
      crumbs={[{ name: category, path: PAGE_PATHS.category(tool.category) }, { name }]}
      ogType="article"
      jsonLd={[
        webApi({
          name,
          alternateName: otherName(ctx, tool),
          description,
          url: absolute(ctx, listingPath),
          inLanguage: HTML_LANG[ctx.lang],
          documentation: tool.docsUrl,
          website: tool.website,
          category,
          keywords: tool.tags,
          dateModified: tool.lastUpdated,
          sameAs: tool.website,
        }),
      ]}
    >
      <article class="listing">
        <header>
          <h1>{name}</h1>
          <p class="other-name" lang={ctx.lang === 'zh' ? 'en' : HTML_LANG.zh}>
            {otherName(ctx, tool)}
          </p>
          <p class="meta">
            <Popularity ctx={ctx} value={tool.popularity} /> · <HealthBadge ctx={ctx} tool={tool} />
            {tool.freeTier && (
              <>
                {' · '}
                <span class="badge">{t.freeTierBadge}</span>
              </>
            )}
          </p>
          <p class="lead">{description}</p>
          {tool.sponsored && (
            <p class="notice" role="note">
              <strong>{t.sponsoredBadge}.</strong> {t.sponsoredNotice}
            </p>
          )}
          <ul class="links">
            <li>
              <ExternalLink url={tool.website}>{t.website}</ExternalLink>
            </li>
            <li>
              <ExternalLink url={tool.docsUrl}>{t.docs}</ExternalLink>
            </li>
            {tool.openapiUrl && (
              <li>
                <ExternalLink url={tool.openapiUrl}>{t.openapi}</ExternalLink>
              </li>
            )}
            {tool.statusPageUrl && (
              <li>
                <ExternalLink url={tool.statusPageUrl}>{t.statusPage}</ExternalLink>
              </li>
            )}
          </ul>
        </header>

        <section aria-labelledby="facts">
          <h2 id="facts">{t.listingFacts}</h2>
          <dl class="facts">
            <dt>{t.pricing}</dt>
            <dd {...en}>{tool.pricing}</dd>
            <dt>{t.authentication}</dt>
            <dd>
              <TextList ctx={ctx} items={tool.auth} />
            </dd>
            <dt>{t.rateLimit}</dt>
            <dd {...en}>{tool.rateLimit}</dd>
            <dt>{t.latency}</dt>
            <dd {...en}>{tool.latency}</dd>
            <dt>{t.maxContext}</dt>
            <dd {...en}>{tool.maxTokens ?? '–'}</dd>
            <dt>{t.popularity}</dt>
            <dd>{t.popularityValue(tool.popularity)}</dd>
            <dt>{t.lastUpdated}</dt>
            <dd>
              <time datetime={tool.lastUpdated}>{tool.lastUpdated}</time>
            </dd>
          </dl>
        </section>

        <section aria-labelledby="endpoints">
          <h2 id="endpoints">{t.endpoints}</h2>
          <TextList ctx={ctx} items={tool.endpoints} code />
          <h2>{t.sdks}</h2>
          <TextList ctx={ctx} items={tool.sdks} />
          <h2>{t.features}</h2>
          <TextList ctx={ctx} items={tool.features} />
          <h2>{t.usageTips}</h2>
          <TextList ctx={ctx} items={tool.usageTips} />
        </section>

        <section aria-labelledby="examples">
          <h2 id="examples">{t.codeExamples}</h2>
          {tool.codeExamples.length === 0 && <p class="muted">{t.noneListed}</p>}
          {tool.codeExamples.map((example, i) => (
            <CodeBlock ctx={ctx} id={`example-${i + 1}`} label={example.label} language={example.language} code={example.code} />
          ))}
        </section>

        <section aria-labelledby="tags">
          <h2 id="tags">{t.tags}</h2>
          <ul class="tags">
            {tool.tags.map((tag) => (
              <li>{tag}</li>
            ))}
          </ul>
          <p class="small">
            {t.lastUpdated}: <time datetime={tool.lastUpdated}>{tool.lastUpdated}</time>
          </p>
        </section>

        <section aria-labelledby="similar">
          <h2 id="similar">{t.similarApis}</h2>
          <ul class="similar">
            {tool.similarApis.map((similar) => (
              <li>
                <a href={href(ctx, PAGE_PATHS.listing(similar.slug))}>{localName(ctx, similar)}</a> <Popularity ctx={ctx} value={similar.popularity} />
                <br />
                <span class="small">{localDescription(ctx, similar)}</span>
              </li>
            ))}
          </ul>
          {others.length > 0 && (
            <p>
              <a href={href(ctx, comparePath([tool.slug, ...others]))}>{t.compareThese}</a>
            </p>
          )}
        </section>

        <section aria-labelledby="pricing-comparison">
          <h2 id="pricing-comparison">{t.pricingComparison}</h2>
          <Wide ctx={ctx} label={t.pricingComparison}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.api}</th>
                  <th scope="col">{t.pricing}</th>
                  <th scope="col">{t.authentication}</th>
                  <th scope="col">{t.popularity}</th>
                </tr>
              </thead>
              <tbody>
                <tr class="self">
                  <th scope="row">
                    {tool.name} <span class="muted">{t.thisListing}</span>
                  </th>
                  <td {...en}>{tool.pricing}</td>
                  <td {...en}>{tool.auth.join('; ')}</td>
                  <td>{t.popularityValue(tool.popularity)}</td>
                </tr>
                {tool.pricingComparison.map((row) => (
                  <tr>
                    <th scope="row">
                      <a href={href(ctx, PAGE_PATHS.listing(row.slug))}>{row.name}</a>
                    </th>
                    <td {...en}>{row.pricing}</td>
                    <td {...en}>{row.auth.join('; ')}</td>
                    <td>{t.popularityValue(row.popularity)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Wide>
        </section>

        <section aria-labelledby="agent-facts">
          <h2 id="agent-facts">{t.agentFacts}</h2>
          <dl class="facts">
            <dt>{t.aliases}</dt>
            <dd>{tool.aliases.length === 0 ? t.none : tool.aliases.join(', ')}</dd>
            <dt>{t.freeTierBadge}</dt>
            <dd>
              {t.yesNo(tool.freeTier)} <SourceNote ctx={ctx} source={tool.sources?.freeTier ?? null} required />
            </dd>
            <dt>{t.openaiCompatible}</dt>
            <dd>
              {t.yesNo(tool.openaiCompatible)} <SourceNote ctx={ctx} source={tool.sources?.openaiCompatible ?? null} required />
            </dd>
            <dt>{t.authType}</dt>
            <dd>
              {t.authTypes[tool.authType]} <SourceNote ctx={ctx} source={tool.sources?.auth ?? null} required />
            </dd>
            <dt>{t.contextTokens}</dt>
            <dd>
              {tool.contextTokens === null ? '–' : t.tokens(tool.contextTokens)} <SourceNote ctx={ctx} source={tool.sources?.contextTokens ?? null} />
            </dd>
            <dt>{t.sdkLanguages}</dt>
            <dd>{tool.sdkLanguages.join(', ')}</dd>
          </dl>
        </section>

        <section aria-labelledby="liveness">
          <h2 id="liveness">{t.livenessTitle}</h2>
          <LivenessView ctx={ctx} liveness={tool.liveness} />
        </section>

        <section aria-labelledby="data">
          <h2 id="data">{t.factsAsData}</h2>
          <p class="small">{t.factsAsDataIntro}</p>
          <h3>{t.lifecycle}</h3>
          {tool.lifecycle ? <Lifecycle ctx={ctx} lifecycle={tool.lifecycle} /> : <p class="muted">{t.notRecorded}</p>}
          <h3 id="models">{t.models}</h3>
          <Models ctx={ctx} tool={tool} />
          <h3 id="prices">{t.prices}</h3>
          <Prices ctx={ctx} prices={tool.prices} />
          <h3 id="rate-limits">{t.rateLimits}</h3>
          <RateLimits ctx={ctx} rateLimits={tool.rateLimits} />
        </section>

        <section aria-labelledby="errors">
          <h2 id="errors">{t.errorEntries}</h2>
          {tool.errors.length === 0 && <p class="muted">{t.noneListed}</p>}
          {tool.errors.map((entry, i) => (
            <div class="err">
              <h3>
                <span class="status">{entry.status}</span> {ctx.lang === 'zh' ? entry.titleCn : entry.title}
              </h3>
              <p>
                <strong>{t.cause}:</strong> {ctx.lang === 'zh' ? entry.causeCn : entry.cause}
              </p>
              <p>
                <strong>{t.fix}:</strong> {ctx.lang === 'zh' ? entry.fixCn : entry.fix}
              </p>
              {entry.curlExample && <CodeBlock ctx={ctx} id={`error-${i + 1}`} label={`${t.example}: ${entry.status}`} language="bash" code={entry.curlExample} />}
            </div>
          ))}
        </section>

        <p class="small">
          <a href={`/api/v1/tools/${encodeURIComponent(tool.slug)}`} type="application/json">
            {t.asJson}
          </a>
        </p>
      </article>
    </Layout>
  );
}
