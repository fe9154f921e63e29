import type { ToolDetail } from '../../contract/listing-views';
import { comparePath, PAGE_PATHS } from '../page-paths';
import { href, PageContext } from '../shared/layout';
import { authTypeText, CodeBlock, english, Inline, localDescription, localName, Popularity, SourceNote, TextList, Wide } from '../shared/parts';
import { Lifecycle, Models, Prices, RateLimits } from './facts-as-data';
import { LivenessView } from './liveness';
import { listingText } from './listing-messages';

/** The sections of a listing page below its head, in the order a decision needs them (see listing-page.tsx). */

/** Whether model facts (context, OpenAI compatibility) apply: the listing serves models, states a context, is compatible, or is a language-model API. */
function appliesToModels(tool: ToolDetail): boolean {
  return (tool.models?.length ?? 0) > 0 || tool.contextTokens !== null || tool.openaiCompatible || tool.category === 'llm';
}

/** The spec's prose facts: pricing, authentication, rate limit, latency, max context where stated, popularity, last checked. */
export function KeyFacts({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  const en = english(ctx);
  return (
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
        {tool.maxTokens && (
          <>
            <dt>{t.maxContext}</dt>
            <dd {...en}>{tool.maxTokens}</dd>
          </>
        )}
        <dt>{t.popularity}</dt>
        <dd>{t.popularityValue(tool.popularity)}</dd>
        <dt>{t.lastUpdated}</dt>
        <dd>
          <time datetime={tool.lastUpdated}>{tool.lastUpdated}</time>
        </dd>
      </dl>
    </section>
  );
}

/** The facts as data, each with its source: lifecycle, models, prices, rate limits. */
export function FactsAsData({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  return (
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
  );
}

/** The facts agents filter on, each with its source or "not yet confirmed"; model rows only where models apply. */
export function AgentFacts({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  // Rows about models (OpenAI compatibility, context) mean nothing for a payment or weather API.
  const servesModels = appliesToModels(tool);
  return (
    <section aria-labelledby="agent-facts">
      <h2 id="agent-facts">{t.agentFacts}</h2>
      <dl class="facts">
        <dt>{t.aliases}</dt>
        <dd>{tool.aliases.length === 0 ? t.none : tool.aliases.join(', ')}</dd>
        <dt>{t.freeTierBadge}</dt>
        <dd>
          {t.yesNo(tool.freeTier)} <SourceNote ctx={ctx} source={tool.sources?.freeTier ?? null} required={tool.freeTier !== null} />
        </dd>
        {servesModels && (
          <>
            <dt>{t.openaiCompatible}</dt>
            <dd>
              {t.yesNo(tool.openaiCompatible)} <SourceNote ctx={ctx} source={tool.sources?.openaiCompatible ?? null} required={tool.openaiCompatible !== null} />
            </dd>
          </>
        )}
        <dt>{t.authType}</dt>
        <dd>
          {authTypeText(ctx, tool.authType)} <SourceNote ctx={ctx} source={tool.sources?.auth ?? null} required={tool.authType !== null} />
        </dd>
        {servesModels && (
          <>
            <dt>{t.contextTokens}</dt>
            <dd>
              {tool.contextTokens === null ? '–' : t.tokens(tool.contextTokens)} <SourceNote ctx={ctx} source={tool.sources?.contextTokens ?? null} />
            </dd>
          </>
        )}
        <dt>{t.sdkLanguages}</dt>
        <dd>{tool.sdkLanguages.join(', ')}</dd>
      </dl>
    </section>
  );
}

/** Endpoints, SDKs, features and usage tips. */
export function EndpointsAndSdks({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  return (
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
  );
}

/** Code examples, each with a copy button. */
export function CodeExamples({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  return (
    <section aria-labelledby="examples">
      <h2 id="examples">{t.codeExamples}</h2>
      {tool.codeExamples.length === 0 && <p class="muted">{t.noneListed}</p>}
      {tool.codeExamples.map((example, i) => (
        <CodeBlock ctx={ctx} id={`example-${i + 1}`} label={example.label} language={example.language} code={example.code} />
      ))}
    </section>
  );
}

/** The errors this API returns: cause and fix, with an example. */
export function ErrorEntries({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  return (
    <section aria-labelledby="errors">
      <h2 id="errors">{t.errorEntries}</h2>
      {tool.errors.length === 0 && <p class="muted">{t.noneListed}</p>}
      {tool.errors.map((entry, i) => (
        <div class="err">
          <h3>
            <span class="status">{entry.status}</span> <Inline text={ctx.lang === 'zh' ? entry.titleCn : entry.title} />
          </h3>
          <p>
            <strong>{t.cause}{t.colon}</strong><Inline text={ctx.lang === 'zh' ? entry.causeCn : entry.cause} />
          </p>
          <p>
            <strong>{t.fix}{t.colon}</strong><Inline text={ctx.lang === 'zh' ? entry.fixCn : entry.fix} />
          </p>
          {entry.curlExample && <CodeBlock ctx={ctx} id={`error-${i + 1}`} label={`${t.example}${t.colon}${entry.status}`} language="bash" code={entry.curlExample} />}
        </div>
      ))}
    </section>
  );
}

/** What the prober last found. */
export function LivenessSection({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  return (
    <section aria-labelledby="liveness">
      <h2 id="liveness">{t.livenessTitle}</h2>
      <LivenessView ctx={ctx} liveness={tool.liveness} />
    </section>
  );
}

/** The similar APIs the editors named, and a comparison of them. */
export function SimilarApis({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  const others = tool.similarApis.map((similar) => similar.slug);
  return (
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
  );
}

/** This listing's pricing and authentication beside those of its neighbours. */
export function PricingComparison({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  const en = english(ctx);
  return (
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
  );
}

/** Tags and the day the facts were last checked. */
export function Tags({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  return (
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
  );
}
