import type { z } from 'zod';
import type { sourceSchema } from '../../contract/listing-facts';
import type { ToolDetail } from '../../contract/listing-views';
import { PAGE_PATHS } from '../page-paths';
import { href, PageContext } from '../shared/layout';
import { ExternalLink } from '../shared/parts';
import { decisionFacts, listingRetiring, NamedModel, retiringModels } from './decision';
import { rateText } from './facts-as-data';
import { listingText } from './listing-messages';

type Source = z.infer<typeof sourceSchema>;

/** A fact's source in a few words (the page and the day it was checked), or that none is confirmed yet. */
function SourceMark({ ctx, source }: { ctx: PageContext; source: Source | null }) {
  const t = listingText(ctx.lang);
  if (!source) return <span class="src muted">{t.unconfirmedBrief}</span>;
  return (
    <span class="src">
      <ExternalLink url={source.url}>{t.sourceLink}</ExternalLink> <time datetime={source.checked}>{source.checked}</time>
    </span>
  );
}

const ModelLink = ({ ctx, model }: { ctx: PageContext; model: NamedModel }) => <a href={href(ctx, PAGE_PATHS.model(model.entry))}>{model.name}</a>;

/**
 * The decision at the top of a listing page, inside the first screen of a phone: price from, free tier,
 * authentication, the headline rate limit, context where it applies, lifecycle and liveness, each with its
 * source and check day or "not yet confirmed". Worked out in ./decision.ts from the facts as data.
 */
export function DecisionSummary({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  const facts = decisionFacts(tool);
  const { price, rateLimit, context, freeQuota } = facts;
  const retiring = retiringModels(tool);
  const firstShutdown = retiring.map((r) => r.lifecycle.retiresAt).find((day): day is string => Boolean(day)) ?? null;
  const liveness = tool.liveness;
  return (
    <section class="summary" aria-labelledby="summary">
      <h2 id="summary">{t.summaryTitle}</h2>
      <dl>
        <div data-fact="price">
          <dt>{t.priceFrom}</dt>
          <dd>
            {price ? (
              <>
                <strong>{rateText(ctx, { ...price, note: null }, price.currency)}</strong>
                {price.entry && (
                  <>
                    {' · '}
                    <ModelLink ctx={ctx} model={price.entry} />
                  </>
                )}{' '}
                <SourceMark ctx={ctx} source={price.source} />
              </>
            ) : (
              <span class="muted">{t.noPrices}</span>
            )}
          </dd>
        </div>
        <div data-fact="freeTier">
          <dt>{t.freeTier}</dt>
          <dd>
            {tool.freeTier ? t.freeYes : t.freeNo}
            {tool.freeTier && freeQuota && <> · {t.quota(freeQuota.amount.toLocaleString('en-US'), t.rateUnits[freeQuota.unit] ?? freeQuota.unit, freeQuota.period)}</>}{' '}
            <SourceMark ctx={ctx} source={tool.sources?.freeTier ?? null} />
          </dd>
        </div>
        <div data-fact="auth">
          <dt>{t.authentication}</dt>
          <dd>
            {t.authTypes[tool.authType]} <SourceMark ctx={ctx} source={tool.sources?.auth ?? null} />
          </dd>
        </div>
        <div data-fact="rateLimit">
          <dt>{t.rateLimit}</dt>
          <dd>
            {rateLimit ? (
              <>
                {t.limitText(t.tokens(rateLimit.limit.limit), t.limitMetrics[rateLimit.limit.metric], rateLimit.limit.per ? t.limitPeriods[rateLimit.limit.per] : null)}
                <span class="small"> ({rateLimit.limit.tier}{rateLimit.limit.appliesTo ? `, ${rateLimit.limit.appliesTo}` : ''})</span>
                {rateLimit.count > 1 && (
                  <>
                    {' '}
                    <a href="#rate-limits">{t.moreLimits(rateLimit.count - 1)}</a>
                  </>
                )}{' '}
                <SourceMark ctx={ctx} source={rateLimit.source} />
              </>
            ) : (
              <span class="muted">{t.noLimits}</span>
            )}
          </dd>
        </div>
        {context && (
          <div data-fact="context">
            <dt>{t.context}</dt>
            <dd>
              {t.tokensInWords(context.tokens)}
              {context.model && (
                <>
                  {' · '}
                  <ModelLink ctx={ctx} model={context.model} />
                </>
              )}{' '}
              <SourceMark ctx={ctx} source={context.source} />
            </dd>
          </div>
        )}
        <div data-fact="lifecycle">
          <dt>{t.lifecycle}</dt>
          <dd>
            {tool.lifecycle ? (
              <span class={listingRetiring(tool) ? 'badge deprecated' : undefined}>
                {t.lifecycleStatuses[tool.lifecycle.status]}
                {tool.lifecycle.retiresAt && `, ${t.listingRetires(tool.lifecycle.retiresAt)}`}
              </span>
            ) : (
              <span class="muted">{t.unconfirmedBrief}</span>
            )}
            {retiring.length > 0 && (
              <>
                {' · '}
                <a href="#retirements" class="warn">
                  {t.modelsRetiring(retiring.length, firstShutdown)}
                </a>
              </>
            )}
          </dd>
        </div>
        <div data-fact="liveness">
          <dt>{t.answering}</dt>
          <dd>
            {liveness ? (
              <>
                <a href="#liveness">{t.liveStates[liveness.state]}</a>, {t.checkedAt(t.dateTime(liveness.checkedAt))}
              </>
            ) : (
              <span class="muted">{t.liveStates.unchecked}</span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}
