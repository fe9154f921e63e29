import type { ModelSummary } from '../../contract/model-views';
import type { ModelListResponse } from '../../contract/responses';
import { COMPARED_RATE_UNITS, MODALITIES, MODEL_KINDS } from '../../contract/vocabulary';
import { MODEL_SORTS } from '../../contract/model-filters';
import { PAGE_PATHS } from '../page-paths';
import { itemList } from '../shared/json-ld';
import { absolute, href, Layout, PageContext } from '../shared/layout';
import { Pager, Wide } from '../shared/parts';
import { modelsText } from './models-messages';

/** The catalog form's values as given (text), by parameter name. */
export type ModelFormValues = Record<string, string>;

export interface ModelsPageProps {
  ctx: PageContext;
  values: ModelFormValues;
  /** The answer; null when the request was refused (`error` says why). */
  result: ModelListResponse | null;
  error: string | null;
  firstPage: string | null;
  nextPage: string | null;
}

/** The capabilities a model has, in the page's words. */
export function capabilityList(ctx: PageContext, model: Pick<ModelSummary, 'capabilities'>): string {
  const on = Object.entries(model.capabilities).filter(([, value]) => value === true).map(([name]) => modelsText(ctx.lang).capabilityNames[name] ?? name);
  return on.length > 0 ? on.join(ctx.lang === 'zh' ? '、' : ', ') : '–';
}

/** The lowest current rate of a model in the unit the page orders by (input tokens otherwise), with who charges it. */
function From({ ctx, model, unit }: { ctx: PageContext; model: ModelSummary; unit: string }) {
  const rate = model.lowestRates.find((r) => r.unit === unit) ?? model.lowestRates[0];
  if (!rate) return <span class="muted">{modelsText(ctx.lang).noCurrentRate}</span>;
  return <>{modelsText(ctx.lang).modelFrom(`$${rate.price}`, modelsText(ctx.lang).rateUnits[rate.unit], rate.listing)}</>;
}

function Select({ ctx, name, value, options }: { ctx: PageContext; name: string; value: string; options: Array<[string, string]> }) {
  return (
    <p class="field">
      <label for={`m-${name}`}>{modelsText(ctx.lang).modelFilterLabels[name] ?? modelsText(ctx.lang).modelsSort}</label>
      <select id={`m-${name}`} name={name}>
        <option value="">{modelsText(ctx.lang).any}</option>
        {options.map(([option, label]) => (
          <option value={option} selected={option === value}>
            {label}
          </option>
        ))}
      </select>
    </p>
  );
}

function Text({ ctx, name, value, hint }: { ctx: PageContext; name: string; value: string; hint?: string }) {
  return (
    <p class="field">
      <label for={`m-${name}`}>{modelsText(ctx.lang).modelFilterLabels[name]}</label>
      <input type="text" id={`m-${name}`} name={name} value={value} placeholder={hint} size={8} />
    </p>
  );
}

/** The form's filters and order: folded away on first sight (a phone shows the words and the results), open once one is set. */
const FILTERS = ['kind', 'input', 'output', 'minContext', 'tools', 'openWeights', 'reasoning', 'retiringWithin', 'maxPrice', 'priceUnit', 'sort'];
const setCount = (values: ModelFormValues) => FILTERS.filter((name) => (values[name] ?? '') !== '').length;

/** The catalog's form: the words, the filters agents ask most, the order. */
function ModelForm({ ctx, values }: { ctx: PageContext; values: ModelFormValues }) {
  const t = modelsText(ctx.lang);
  const yesNo: Array<[string, string]> = [
    ['true', t.yes],
    ['false', t.no],
  ];
  return (
    <form method="get" action={href(ctx, PAGE_PATHS.models)} class="search" role="search">
      <p class="field">
        <label for="m-q">{t.modelsQuery}</label>
        <input type="search" id="m-q" name="q" value={values.q ?? ''} size={24} spellcheck={false} autocapitalize="off" />
      </p>
      <fieldset class="filters">
        <legend>{t.modelsLegend}</legend>
        <details class="more" open={setCount(values) > 0}>
          <summary>
            {t.modelFiltersSummary}
            {setCount(values) > 0 && ` (${setCount(values)})`}
          </summary>
          <div class="fields">
            <Select ctx={ctx} name="kind" value={values.kind ?? ''} options={MODEL_KINDS.map((k) => [k, t.modelKinds[k]])} />
            <Select ctx={ctx} name="input" value={values.input ?? ''} options={MODALITIES.map((m) => [m, t.modalityNames[m]])} />
            <Select ctx={ctx} name="output" value={values.output ?? ''} options={MODALITIES.map((m) => [m, t.modalityNames[m]])} />
            <Text ctx={ctx} name="minContext" value={values.minContext ?? ''} hint={t.minContextHint} />
            <Select ctx={ctx} name="tools" value={values.tools ?? ''} options={yesNo} />
            <Select ctx={ctx} name="openWeights" value={values.openWeights ?? ''} options={yesNo} />
            <Select ctx={ctx} name="reasoning" value={values.reasoning ?? ''} options={yesNo} />
            <Text ctx={ctx} name="retiringWithin" value={values.retiringWithin ?? ''} hint={t.daysHint} />
            <Text ctx={ctx} name="maxPrice" value={values.maxPrice ?? ''} />
            <Select ctx={ctx} name="priceUnit" value={values.priceUnit ?? ''} options={COMPARED_RATE_UNITS.map((unit) => [unit, t.rateUnits[unit]])} />
            <Select ctx={ctx} name="sort" value={values.sort ?? ''} options={MODEL_SORTS.map((sort) => [sort, t.modelSorts[sort]])} />
          </div>
        </details>
      </fieldset>
      <p>
        <button type="submit">{t.applyFilters}</button>
      </p>
    </form>
  );
}

/** The catalog's models as a table: one row a model, its cheapest current rate and who charges it. */
function ModelTable({ ctx, models, unit }: { ctx: PageContext; models: ModelSummary[]; unit: string }) {
  const t = modelsText(ctx.lang);
  const c = t.modelColumns;
  return (
    <Wide ctx={ctx} label={t.navModels}>
      <table>
        <thead>
          <tr>
            <th scope="col">{c.model}</th>
            <th scope="col">{c.maker}</th>
            <th scope="col">{c.kind}</th>
            <th scope="col">{c.context}</th>
            <th scope="col">{c.from}</th>
            <th scope="col">{c.providers}</th>
            <th scope="col">{c.capabilities}</th>
            <th scope="col">{c.lifecycle}</th>
          </tr>
        </thead>
        <tbody>
          {models.map((model) => (
            <tr>
              <th scope="row">
                <a href={href(ctx, PAGE_PATHS.model(model.id))}>{model.name}</a>
                <br />
                <code class="small">{model.id}</code>
              </th>
              <td>{model.creator ?? '–'}</td>
              <td>{t.modelKinds[model.kind] ?? model.kind}</td>
              <td>{t.tokensInWords(model.contextTokens)}</td>
              <td>
                <From ctx={ctx} model={model} unit={unit} />
              </td>
              <td>{model.offers.length}</td>
              <td>{capabilityList(ctx, model)}</td>
              <td>
                {t.lifecycleStatuses[model.lifecycle.status]}
                {model.lifecycle.retiresAt && <span class="small"> · {model.lifecycle.retiresAt}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Wide>
  );
}

/** /models: the model catalog with its form, a page at a time. */
export function ModelsPage({ ctx, values, result, error, firstPage, nextPage }: ModelsPageProps) {
  const t = modelsText(ctx.lang);
  const unit = result?.sort.priceUnit ?? '1m-input-tokens';
  const jsonLd = result ? [itemList(t.navModels, result.models.map((model) => ({ name: model.name, url: absolute(ctx, PAGE_PATHS.model(model.id)) })))] : [];
  return (
    <Layout ctx={ctx} title={`${t.navModels} · ${t.siteName}`} description={t.modelsDescription} crumbs={[{ name: t.navModels }]} jsonLd={jsonLd}>
      <h1>{t.modelsTitle}</h1>
      <ModelForm ctx={ctx} values={values} />
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      {result && (
        <>
          <p class="lead">{t.modelsLead(result.total)}</p>
          {result.models.length > 0 && <ModelTable ctx={ctx} models={result.models} unit={unit} />}
          <Pager ctx={ctx} first={firstPage} next={nextPage} />
        </>
      )}
    </Layout>
  );
}
