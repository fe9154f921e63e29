import type { z } from 'zod';
import type { rateSchema } from '../../contract/listing-facts';
import type { ToolDetail } from '../../contract/listing-views';
import { PAGE_PATHS } from '../page-paths';
import { href, PageContext } from '../shared/layout';
import { amountText, english, ExternalLink, SourceNote, Wide } from '../shared/parts';
import { modelEntryOf } from './decision';
import { listingText } from './listing-messages';

/** The listing's facts as data, each block as its table or list: lifecycle, models, prices, rate limits. */

type Model = NonNullable<ToolDetail['models']>[number];
type Rate = z.infer<typeof rateSchema>;

/** A rate in words: `8 USD per 1M input tokens (batch)`, `2.9% + 0.3 USD per transaction`. */
export function rateText(ctx: PageContext, rate: Rate, currency: string | null): string {
  const amount = listingText(ctx.lang).priceAmount(amountText(rate, currency), listingText(ctx.lang).rateUnits[rate.unit] ?? rate.unit);
  const notes = [rate.appliesTo, rate.note].filter(Boolean).join('; ');
  return notes ? `${amount} (${notes})` : amount;
}

/** A rate's line, with its own source when another page than its block's states it. */
function RateLine({ ctx, rate, currency }: { ctx: PageContext; rate: Rate; currency: string | null }) {
  return (
    <div>
      {rateText(ctx, rate, currency)}
      {rate.source && (
        <>
          {' '}
          <SourceNote ctx={ctx} source={rate.source} brief />
        </>
      )}
    </div>
  );
}

export function Lifecycle({ ctx, lifecycle }: { ctx: PageContext; lifecycle: NonNullable<ToolDetail['lifecycle']> }) {
  const t = listingText(ctx.lang);
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

const TOKEN_UNITS = ['1m-input-tokens', '1m-output-tokens', '1m-cached-input-tokens'] as const;

/** The rates of one unit in a cell: the price, what it applies to, its own source where it has one; the lowest orders the column. */
function RateCell({ ctx, rates }: { ctx: PageContext; rates: Rate[] }) {
  if (rates.length === 0) return <td data-value="">–</td>;
  return (
    <td data-value={String(Math.min(...rates.map((rate) => rate.price)))}>
      {rates.map((rate) => (
        <div>
          {rate.price}
          {rate.appliesTo && <span class="small"> ({rate.appliesTo})</span>}
          {rate.source && (
            <>
              {' '}
              <SourceNote ctx={ctx} source={rate.source} brief />
            </>
          )}
        </div>
      ))}
    </td>
  );
}

/** A model's lifecycle in its row: a status badge, the shutdown day, and what to move to. */
function ModelLifecycle({ ctx, slug, model, models }: { ctx: PageContext; slug: string; model: Model; models: Model[] }) {
  const t = listingText(ctx.lang);
  const { status, retiresAt, replacedBy } = model.lifecycle;
  return (
    <td>
      <span class={`badge ${status}`}>{t.lifecycleStatuses[status]}</span>
      {retiresAt && <span class="small"> {retiresAt}</span>}
      {replacedBy && replacedBy.length > 0 && (
        <div class="small">
          {t.moveTo}{' '}
          {replacedBy.map((id, i) => {
            const successor = models.find((other) => other.id === id);
            return (
              <>
                {i > 0 && ', '}
                {successor ? <a href={href(ctx, PAGE_PATHS.model(modelEntryOf(slug, successor).entry))}>{successor.name}</a> : <code>{id}</code>}
              </>
            );
          })}
        </div>
      )}
    </td>
  );
}

/**
 * The models a listing sells: token prices per million in columns of their own (input, output, cached), any
 * other rates beside them, context and output in words, capabilities, and each model's lifecycle with its
 * successor.
 */
export function Models({ ctx, tool }: { ctx: PageContext; tool: ToolDetail }) {
  const t = listingText(ctx.lang);
  const c = t.offerColumns;
  if (!tool.models) return <p class="muted">{t.notRecorded}</p>;
  const models = tool.models;
  const currency = tool.prices?.currency ?? null;
  const units = TOKEN_UNITS.filter((unit) => models.some((model) => model.prices.some((rate) => rate.unit === unit && !rate.percent)));
  const tokenRate = (rate: Rate) => (units as readonly string[]).includes(rate.unit) && !rate.percent;
  const names = { '1m-input-tokens': c.input, '1m-output-tokens': c.output, '1m-cached-input-tokens': c.cached };
  const list = (items: string[]) => items.map((item) => t.modalityNames[item] ?? item).join(ctx.lang === 'zh' ? '、' : ', ');
  return (
    <Wide ctx={ctx} label={t.models}>
      <table class="models" data-sortable>
        <thead>
          <tr>
            <th scope="col">{t.modelId}</th>
            <th scope="col">{t.modalities}</th>
            {units.map((unit) => (
              <th scope="col" data-sort="number">
                {names[unit]}
                <br />
                <span class="small">{t.perMillion(0, currency ?? '').replace(/^0 /, '')}</span>
              </th>
            ))}
            <th scope="col">{units.length > 0 ? c.other : t.prices}</th>
            <th scope="col" data-sort="number">
              {c.context}
            </th>
            <th scope="col" data-sort="number">
              {t.maxOutput}
            </th>
            <th scope="col">{t.modelColumns.capabilities}</th>
            <th scope="col">{t.lifecycle}</th>
            <th scope="col">{t.source}</th>
          </tr>
        </thead>
        <tbody>
          {models.map((model) => (
            <tr class={model.lifecycle.status === 'deprecated' || model.lifecycle.status === 'retired' ? 'going' : undefined}>
              <th scope="row">
                <a href={href(ctx, PAGE_PATHS.model(modelEntryOf(tool.slug, model).entry))} title={t.modelLink}>
                  {model.name}
                </a>{' '}
                <code>{model.id}</code>
                <div class="small muted">{t.modelKinds[model.kind] ?? model.kind}</div>
              </th>
              <td>
                {list(model.input)} → {list(model.output)}
              </td>
              {units.map((unit) => (
                <RateCell ctx={ctx} rates={model.prices.filter((rate) => rate.unit === unit && !rate.percent)} />
              ))}
              <td>
                {model.prices.filter((rate) => !tokenRate(rate)).map((rate) => <RateLine ctx={ctx} rate={rate} currency={currency} />)}
                {model.prices.every(tokenRate) && '–'}
              </td>
              <td data-value={model.contextTokens ?? ''}>{model.contextTokens === null ? '–' : t.tokensInWords(model.contextTokens)}</td>
              <td data-value={model.maxOutputTokens ?? ''}>{model.maxOutputTokens === null ? '–' : t.tokensInWords(model.maxOutputTokens)}</td>
              <td class="small">{capabilities(ctx, model)}</td>
              <ModelLifecycle ctx={ctx} slug={tool.slug} model={model} models={models} />
              <td class="small">
                <ExternalLink url={model.source.url}>{model.source.checked}</ExternalLink>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Wide>
  );
}

/** The capabilities a model has (those stated true), or "–". */
function capabilities(ctx: PageContext, model: Model): string {
  if (!model.capabilities) return '–';
  const { source: _source, ...stated } = model.capabilities;
  const on = Object.entries(stated).filter(([, value]) => value === true).map(([name]) => listingText(ctx.lang).capabilityNames[name] ?? name);
  return on.length > 0 ? on.join(ctx.lang === 'zh' ? '、' : ', ') : '–';
}

export function Prices({ ctx, prices }: { ctx: PageContext; prices: ToolDetail['prices'] }) {
  const t = listingText(ctx.lang);
  if (!prices) return <p class="muted">{t.notRecorded}</p>;
  return (
    <dl class="facts">
      <dt>{t.currency}</dt>
      <dd>{prices.currency}</dd>
      <dt>{t.pricingModelsLabel}</dt>
      <dd>{prices.models.map((model) => t.pricingModels[model] ?? model).join(t.listSeparator)}</dd>
      <dt>{t.freeQuota}</dt>
      <dd>
        {prices.freeQuota.length === 0
          ? t.none
          : prices.freeQuota.map((quota) => (
              <div>
                {t.quota(quota.amount.toLocaleString('en-US'), t.rateUnits[quota.unit] ?? quota.unit, quota.period)}
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

export function RateLimits({ ctx, rateLimits }: { ctx: PageContext; rateLimits: ToolDetail['rateLimits'] }) {
  const t = listingText(ctx.lang);
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
        {t.limitHeaders}{t.colon}{rateLimits.headers.length === 0 ? t.none : rateLimits.headers.map((header, i) => (
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

