import type { ComponentChildren } from 'preact';
import type { z } from 'zod';
import type { sourceSchema } from '../../contract/listing-facts';
import type { ToolDetail } from '../../contract/listing-views';
import { PAGE_PATHS } from '../page-paths';
import { href, PageContext } from '../shared/layout';
import { authTypeText, ExternalLink } from '../shared/parts';
import { DecisionFacts, decisionFacts, listingRetiring, NamedModel, retiringModels } from './decision';
import { rateText } from './facts-as-data';
import { listingText } from './listing-messages';

type Source = z.infer<typeof sourceSchema>;

/**
 * A fact's source in a few words (the page and the day it was checked), or that none confirms it yet;
 * nothing for a fact not stated (`stated` false).
 */
function SourceMark({ ctx, source, stated = true }: { ctx: PageContext; source: Source | null; stated?: boolean }) {
  const t = listingText(ctx.lang);
  if (!source) return stated ? <span class="src muted">{t.unconfirmedBrief}</span> : null;
  return (
    <span class="src">
      <ExternalLink url={source.url}>{t.sourceLink}</ExternalLink> <time datetime={source.checked}>{source.checked}</time>
    </span>
  );
}

const ModelLink = ({ ctx, model }: { ctx: PageContext; model: NamedModel }) => <a href={href(ctx, PAGE_PATHS.model(model.entry))}>{model.name}</a>;

type Facts = DecisionFacts;
type Props = { ctx: PageContext; tool: ToolDetail };

/** One fact of the summary: its name, and what it says. */
function Fact({ name, label, children }: { name: string; label: string; children: ComponentChildren }) {
  return (
    <div data-fact={name}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** " · " and a model's link, where the fact names a model. */
const OfModel = ({ ctx, model }: { ctx: PageContext; model: NamedModel | null }) =>
  model && (
    <>
      {' · '}
      <ModelLink ctx={ctx} model={model} />
    </>
  );

function PriceFact({ ctx, price }: { ctx: PageContext; price: Facts['price'] }) {
  const t = listingText(ctx.lang);
  return (
    <Fact name="price" label={t.priceFrom}>
      {price ? (
        <>
          <strong>{rateText(ctx, { ...price, note: null }, price.currency)}</strong>
          <OfModel ctx={ctx} model={price.entry} /> <SourceMark ctx={ctx} source={price.source} />
        </>
      ) : (
        <span class="muted">{t.noPrices}</span>
      )}
    </Fact>
  );
}

function FreeTierFact({ ctx, tool, quota }: Props & { quota: Facts['freeQuota'] }) {
  const t = listingText(ctx.lang);
  return (
    <Fact name="freeTier" label={t.freeTier}>
      {tool.freeTier === null ? t.notStated : tool.freeTier ? t.freeYes : t.freeNo}
      {tool.freeTier && quota && <> · {t.quota(quota.amount.toLocaleString('en-US'), t.rateUnits[quota.unit] ?? quota.unit, quota.period)}</>}{' '}
      <SourceMark ctx={ctx} source={tool.sources?.freeTier ?? null} stated={tool.freeTier !== null} />
    </Fact>
  );
}

function RateLimitFact({ ctx, rateLimit }: { ctx: PageContext; rateLimit: Facts['rateLimit'] }) {
  const t = listingText(ctx.lang);
  if (!rateLimit) {
    return (
      <Fact name="rateLimit" label={t.rateLimit}>
        <span class="muted">{t.noLimits}</span>
      </Fact>
    );
  }
  const { limit, count, source } = rateLimit;
  return (
    <Fact name="rateLimit" label={t.rateLimit}>
      {t.limitText(t.tokens(limit.limit), t.limitMetrics[limit.metric], limit.per ? t.limitPeriods[limit.per] : null)}
      <span class="small"> ({limit.tier}{limit.appliesTo ? `, ${limit.appliesTo}` : ''})</span>
      {count > 1 && (
        <>
          {' '}
          <a href="#rate-limits">{t.moreLimits(count - 1)}</a>
        </>
      )}{' '}
      <SourceMark ctx={ctx} source={source} />
    </Fact>
  );
}

function LifecycleFact({ ctx, tool }: Props) {
  const t = listingText(ctx.lang);
  const retiring = retiringModels(tool);
  const firstShutdown = retiring.map((r) => r.lifecycle.retiresAt).find((day): day is string => Boolean(day)) ?? null;
  return (
    <Fact name="lifecycle" label={t.lifecycle}>
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
    </Fact>
  );
}

function LivenessFact({ ctx, tool }: Props) {
  const t = listingText(ctx.lang);
  const liveness = tool.liveness;
  return (
    <Fact name="liveness" label={t.answering}>
      {liveness ? (
        <>
          <a href="#liveness">{t.liveStates[liveness.state]}</a>, {t.checkedAt(t.dateTime(liveness.checkedAt))}
        </>
      ) : (
        <span class="muted">{t.liveStates.unchecked}</span>
      )}
    </Fact>
  );
}

/**
 * The decision at the top of a listing page, inside the first screen of a phone: price from, free tier,
 * authentication, the headline rate limit, context where it applies, lifecycle and liveness, each with its
 * source and check day or "not yet confirmed". Worked out in ./decision.ts from the facts as data.
 */
export function DecisionSummary({ ctx, tool }: Props) {
  const t = listingText(ctx.lang);
  const { price, rateLimit, context, freeQuota } = decisionFacts(tool);
  return (
    <section class="summary" aria-labelledby="summary">
      <h2 id="summary">{t.summaryTitle}</h2>
      <dl>
        <PriceFact ctx={ctx} price={price} />
        <FreeTierFact ctx={ctx} tool={tool} quota={freeQuota} />
        <Fact name="auth" label={t.authentication}>
          {authTypeText(ctx, tool.authType)} <SourceMark ctx={ctx} source={tool.sources?.auth ?? null} stated={tool.authType !== null} />
        </Fact>
        <RateLimitFact ctx={ctx} rateLimit={rateLimit} />
        {context && (
          <Fact name="context" label={t.context}>
            {t.tokensInWords(context.tokens)}
            <OfModel ctx={ctx} model={context.model} /> <SourceMark ctx={ctx} source={context.source} />
          </Fact>
        )}
        <LifecycleFact ctx={ctx} tool={tool} />
        <LivenessFact ctx={ctx} tool={tool} />
      </dl>
    </section>
  );
}
