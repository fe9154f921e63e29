import type { ModelOffer } from '../../contract/model-views';
import type { ModelDetailResponse } from '../../contract/responses';
import { PAGE_PATHS } from '../page-paths';
import { href, Layout, PageContext } from '../shared/layout';
import { capabilityList } from './models';
import { ExternalLink, Wide } from '../shared/parts';
import { modelsText } from './models-messages';

export interface ModelPageProps {
  ctx: PageContext;
  detail: ModelDetailResponse;
}

type Model = ModelDetailResponse['model'];

/** An offer's rate per unit, in its currency ("–" where it gives none). */
function rateOf(ctx: PageContext, offer: ModelOffer, unit: string): string {
  const rate = offer.prices.find((r) => r.unit === unit && !r.percent);
  return rate ? modelsText(ctx.lang).perMillion(rate.price, offer.currency) : '–';
}

/** The offer's other rates (images, minutes, requests...), in words. */
function otherRates(ctx: PageContext, offer: ModelOffer): string {
  const other = offer.prices.filter((r) => !['1m-input-tokens', '1m-output-tokens', '1m-cached-input-tokens'].includes(r.unit));
  return other.map((r) => `${r.price} ${offer.currency} · ${modelsText(ctx.lang).rateUnits[r.unit]}${r.appliesTo ? ` (${r.appliesTo})` : ''}`).join('; ') || '–';
}

/** Every provider of the model side by side: the id its API takes, its rates per million tokens, its limits and state. */
function Offers({ ctx, model }: { ctx: PageContext; model: Model }) {
  const t = modelsText(ctx.lang);
  const c = t.offerColumns;
  return (
    <Wide ctx={ctx} label={t.modelOffers}>
      <table>
        <thead>
          <tr>
            <th scope="col">{c.listing}</th>
            <th scope="col">{c.id}</th>
            <th scope="col">{c.input}</th>
            <th scope="col">{c.output}</th>
            <th scope="col">{c.cached}</th>
            <th scope="col">{c.other}</th>
            <th scope="col">{c.context}</th>
            <th scope="col">{c.lifecycle}</th>
            <th scope="col">{c.liveness}</th>
            <th scope="col">{c.source}</th>
          </tr>
        </thead>
        <tbody>
          {model.offers.map((offer) => (
            <tr>
              <th scope="row">
                <a href={href(ctx, PAGE_PATHS.listing(offer.listing))}>{offer.listingName}</a>
              </th>
              <td>
                <code>{offer.modelId}</code>
              </td>
              <td>{rateOf(ctx, offer, '1m-input-tokens')}</td>
              <td>{rateOf(ctx, offer, '1m-output-tokens')}</td>
              <td>{rateOf(ctx, offer, '1m-cached-input-tokens')}</td>
              <td class="small">{otherRates(ctx, offer)}</td>
              <td>{t.tokensInWords(offer.contextTokens)}</td>
              <td>
                <span class={`badge ${offer.lifecycle.status}`}>{t.lifecycleStatuses[offer.lifecycle.status]}</span>
                {offer.lifecycle.retiresAt && <span class="small"> · {offer.lifecycle.retiresAt}</span>}
              </td>
              <td>{t.liveStates[offer.liveness]}</td>
              <td class="small">
                <ExternalLink url={offer.source.url}>{offer.source.checked}</ExternalLink>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Wide>
  );
}

/** What the model is: maker, family, modalities, limits, weights, dates, capabilities, source. */
function Facts({ ctx, model }: { ctx: PageContext; model: Model }) {
  const t = modelsText(ctx.lang);
  const list = (items: string[]) => items.map((item) => t.modalityNames[item] ?? item).join(ctx.lang === 'zh' ? '、' : ', ');
  return (
    <dl class="facts">
      <dt>{t.modelMaker}</dt>
      <dd>{model.creatorListing ? <a href={href(ctx, PAGE_PATHS.listing(model.creatorListing))}>{model.creator}</a> : (model.creator ?? '–')}</dd>
      {model.family && (
        <>
          <dt>{t.modelFamily}</dt>
          <dd>{model.family}</dd>
        </>
      )}
      <dt>{t.modelKind}</dt>
      <dd>{t.modelKinds[model.kind] ?? model.kind}</dd>
      <dt>{t.modelModalities}</dt>
      <dd>
        {list(model.input)} → {list(model.output)}
      </dd>
      <dt>{t.modelContext}</dt>
      <dd>{t.tokensInWords(model.contextTokens)}</dd>
      <dt>{t.modelOutput}</dt>
      <dd>{t.tokensInWords(model.maxOutputTokens)}</dd>
      <dt>{t.modelWeights}</dt>
      <dd>{model.openWeights ? <ExternalLink url={model.openWeights.url}>{t.modelWeightsOpen(model.openWeights.licence)}</ExternalLink> : t.modelWeightsClosed}</dd>
      {model.releaseDate && (
        <>
          <dt>{t.modelReleased}</dt>
          <dd>{model.releaseDate}</dd>
        </>
      )}
      {model.knowledgeCutoff && (
        <>
          <dt>{t.modelCutoff}</dt>
          <dd>{model.knowledgeCutoff}</dd>
        </>
      )}
      <dt>{t.modelCapabilities}</dt>
      <dd>{capabilityList(ctx, model)}</dd>
      {model.source && (
        <>
          <dt>{t.modelSource}</dt>
          <dd>
            <ExternalLink url={model.source.url}>{model.source.url}</ExternalLink> <span class="small muted">({model.source.checked})</span>
          </dd>
        </>
      )}
    </dl>
  );
}

/** /models/{id}: one model, every provider side by side, its lifecycle and its changes. */
export function ModelPage({ ctx, detail }: ModelPageProps) {
  const t = modelsText(ctx.lang);
  const { model } = detail;
  return (
    <Layout
      ctx={ctx}
      title={`${t.modelTitle(model.name)} · ${t.siteName}`}
      description={t.modelDescription(model.name, model.offers.length)}
      crumbs={[{ name: t.navModels, path: PAGE_PATHS.models }, { name: model.name }]}
    >
      <h1>{model.name}</h1>
      <p class="lead">
        <code>{model.id}</code>
      </p>
      {model.lifecycle.retiresAt && (
        <div class="alert" role="note">
          <p>{t.modelRetiring(model.lifecycle.retiresAt)}</p>
          {model.lifecycle.replacedBy.length > 0 && (
            <p>
              {t.modelReplacedBy}{t.colon}
              {model.lifecycle.replacedBy.map((id, i) => (
                <>
                  {i > 0 && ', '}
                  <a href={href(ctx, PAGE_PATHS.model(id))}>{id}</a>
                </>
              ))}
            </p>
          )}
        </div>
      )}
      <h2>{t.modelOffers}</h2>
      <Offers ctx={ctx} model={model} />
      <h2>{t.modelFacts}</h2>
      <Facts ctx={ctx} model={model} />
      <h2>{t.modelHistory}</h2>
      {model.history.length === 0 ? (
        <p class="muted">{t.modelHistoryNone}</p>
      ) : (
        <ol class="changes">
          {model.history.map((change) => (
            <li>
              <time datetime={change.occurredAt}>{t.dateTime(change.occurredAt)}</time> {t.historyAt(change.listing, t.historyFields[change.field] ?? change.field)}
            </li>
          ))}
        </ol>
      )}
    </Layout>
  );
}
