import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  RateUnit,
  LifecycleStatus,
  ComparedRateUnit,
  DecisionFact,
  DECISION_FACTS,
  LIFECYCLE_STATUSES,
  RATE_UNITS,
  QUOTA_PERIODS,
  CURRENCIES,
  PRICING_MODELS,
  LIMIT_SCOPES,
  LIMIT_METRICS,
  LIMIT_PERIODS,
  MODEL_KINDS,
  type ModelKind,
  MODALITIES,
  MODEL_ENTRY_ID,
  isRegionCode,
  isCurrencyCode,
  MCP_TRANSPORTS,
  MCP_AUTH,
  PACKAGE_REGISTRIES,
  PAYMENT_METHODS,
} from '../../contract/vocabulary';
import { apply, HasHan, IsHttpsUrl, IsIsoDate, Nested, registerRule, text } from '../../contract/validation';

/**
 * The facts agents decide by, as data beside the prose: a listing's lifecycle, the models it sells with
 * their prices, its prices and rate limits, and where each fact comes from. Every fact carries its source
 * and the day it was checked (SourceDto); `lastUpdated` is the oldest of those days.
 */



/** What lowestRates reads of a listing: its document or its comparison row. */
interface Priced {
  prices?: { currency: string; rates: ReadonlyArray<{ unit: RateUnit; price: number; percent?: number | null }> } | null;
  models?: ReadonlyArray<{ prices: ReadonlyArray<{ unit: RateUnit; price: number; percent?: number | null }>; lifecycle: { status: LifecycleStatus } }> | null;
}

/**
 * Whether a model (or an offer) is sold for the long run: preview or active, with no shutdown day announced.
 * A deprecated one, or one whose shutdown is announced, is not a price anyone can plan on: the lowest rates,
 * the price orders and the decision summaries leave it out.
 */
export function isCurrent(lifecycle: { status: LifecycleStatus; retiresAt?: string | null }): boolean {
  return (lifecycle.status === 'active' || lifecycle.status === 'preview') && !lifecycle.retiresAt;
}

/** Going away: deprecated, or with a shutdown day announced, and not retired yet (what the retirement banners list). */
export function isRetiring(lifecycle: { status: LifecycleStatus; retiresAt?: string | null }): boolean {
  return lifecycle.status !== 'retired' && (lifecycle.status === 'deprecated' || Boolean(lifecycle.retiresAt));
}

/**
 * A listing's lowest US-dollar rate per unit, its own or one of its current models' (isCurrent): what the
 * maxPrice filter, the price order and the comparison's side by side go by. Left out: deprecated and retired
 * models, rates in another currency (a model's prices are in its listing's currency), the unit `other`, and
 * rates with a percentage, whose cost depends on the amount charged (2.9 % + $0.30 is not $0.30, and a 1.5 %
 * surcharge is not free).
 */
export function lowestRates(listing: Priced): Map<ComparedRateUnit, number> {
  if ((listing.prices?.currency ?? 'USD') !== 'USD') return new Map();
  const served = (listing.models ?? []).filter((model) => isCurrent(model.lifecycle));
  return lowestOf([...(listing.prices?.rates ?? []), ...served.flatMap((model) => model.prices)]);
}

/** The same of each kind of model the listing serves (its own rates aside): what a price order compares when a query names a kind. */
export function lowestRatesByKind(listing: {
  prices?: Priced['prices'];
  models?: ReadonlyArray<{ kind: ModelKind; prices: ReadonlyArray<{ unit: RateUnit; price: number; percent?: number | null }>; lifecycle: { status: LifecycleStatus } }> | null;
}): Map<ModelKind, Map<ComparedRateUnit, number>> | null {
  const served = (listing.models ?? []).filter((model) => isCurrent(model.lifecycle));
  if (served.length === 0 || (listing.prices?.currency ?? 'USD') !== 'USD') return null;
  const kinds = new Map<ModelKind, Map<ComparedRateUnit, number>>();
  for (const kind of new Set(served.map((model) => model.kind))) kinds.set(kind, lowestOf(served.filter((model) => model.kind === kind).flatMap((model) => model.prices)));
  return kinds;
}

function lowestOf(rates: ReadonlyArray<{ unit: RateUnit; price: number; percent?: number | null }>): Map<ComparedRateUnit, number> {
  const lowest = new Map<ComparedRateUnit, number>();
  for (const { unit, price, percent } of rates) {
    if (unit === 'other' || (percent ?? 0) > 0) continue;
    lowest.set(unit, Math.min(price, lowest.get(unit) ?? Infinity));
  }
  return lowest;
}

/** What `unconfirmed` reads of a listing: its document or one of its views. */
interface Confirmable {
  sources?: Partial<Record<DecisionFact, unknown>> | null;
  freeTier: boolean | null;
  openaiCompatible: boolean | null;
  authType: string | null;
  contextTokens: number | null;
  models?: ReadonlyArray<{ contextTokens: number | null }> | null;
}

/**
 * Whether no page of the provider's confirms a decision fact the listing states: it has no source for it.
 * A fact not stated (null) has nothing to confirm. A context window is confirmed by the source of the model
 * that gives it, too. Written once for check:content, llms-full.txt and the MCP text.
 */
export function unconfirmed(listing: Confirmable, fact: DecisionFact): boolean {
  if (listing.sources?.[fact]) return false;
  if (fact === 'contextTokens') return listing.contextTokens !== null && !(listing.models ?? []).some((model) => model.contextTokens !== null);
  return stated(listing, fact) !== null;
}

/** The field of a listing that states each decision fact (the `auth` fact is stated by `authType`). */
export const DECISION_FACT_FIELDS = {
  auth: 'authType',
  freeTier: 'freeTier',
  openaiCompatible: 'openaiCompatible',
  contextTokens: 'contextTokens',
} as const satisfies Record<DecisionFact, keyof Confirmable>;

/** The value a listing states for a decision fact, or null where it states none. */
export function stated(listing: Confirmable, fact: DecisionFact): boolean | string | number | null {
  return listing[DECISION_FACT_FIELDS[fact]];
}

/** The decision facts of the listing that no page of the provider's confirms yet, in DECISION_FACTS' order. */
export function unconfirmedFacts(listing: Confirmable): DecisionFact[] {
  return DECISION_FACTS.filter((fact) => unconfirmed(listing, fact));
}


const oneOf = (values: readonly string[], each = false) => IsIn(values as string[], { each, message: `${each ? 'each item ' : ''}must be one of ${values.join(', ')}` });
const nullable = <T extends object>(field: keyof T & string) => ValidateIf((o: T) => o[field] !== null && o[field] !== undefined);
/** true, false, or null (not stated): the field must be given. */
const nullableBoolean = () => (target: object, key: string | symbol) => {
  ValidateIf((o: Record<string | symbol, unknown>) => o[key] !== null)(target, key);
  IsBoolean({ message: 'must be true, false or null (not stated)' })(target, key);
};

/** Where a fact comes from: a page of the provider's, the day an editor checked it there, optionally a short quote. */
export class SourceDto {
  @IsHttpsUrl() url: string;
  @IsIsoDate() checked: string;
  /** A few words of the page that state the fact, so the next check knows what to look for. */
  @IsOptional() @apply(...text(1, 300)) quote?: string | null;
  /** Why a page off the provider's domains is the source (a status page host, an SDK repository). */
  @IsOptional() @apply(...text(1, 200)) offDomainReason?: string | null;
}

/** Where a listing or a model is in its life, and what replaces it. */
export class LifecycleDto {
  @oneOf(LIFECYCLE_STATUSES) status: LifecycleStatus;
  /** The day the current status began, when known. */
  @IsOptional() @IsIsoDate() since?: string | null;
  /** The announced shutdown date. */
  @IsOptional() @IsIsoDate() retiresAt?: string | null;
  /** What to move to: listing slugs (a listing's lifecycle) or model ids of the same listing (a model's). */
  @IsOptional() @IsArray({ message: 'must be a list' }) @ArrayMaxSize(5, { message: 'must have at most 5 items' })
  @IsString({ each: true, message: 'each item must be a string' }) @ArrayUnique({ message: 'lists an item twice' })
  replacedBy?: string[];
  @IsOptional() @IsHttpsUrl() migrationUrl?: string | null;
  @IsOptional() @apply(...text(1, 300)) reason?: string | null;
  /** The announcement the status and dates come from (required for anything but a plain active status). */
  @IsOptional() @Nested(() => SourceDto) source?: SourceDto | null;
}

/** One price: an amount per unit, for a tier or a part of the service when it applies to one. */
export class RateDto {
  @oneOf(RATE_UNITS) unit: RateUnit;
  @IsNumber({ maxDecimalPlaces: 6 }, { message: 'must be a number' }) @Min(0, { message: 'must be 0 or more' }) price: number;
  /** A percentage charged besides the price (card payments: 2.9 % + 0.30 a transaction). */
  @IsOptional() @IsNumber({}, { message: 'must be a number' }) @Min(0) @Max(100) percent?: number | null;
  /** The tier, plan or part of the service it applies to (`batch`, `standard`, `over 200k tokens`). */
  @IsOptional() @apply(...text(1, 80)) appliesTo?: string | null;
  @IsOptional() @apply(...text(1, 200)) note?: string | null;
  /** Where this rate comes from when another page than its block's (the prices', or its model's) states it. */
  @IsOptional() @Nested(() => SourceDto) source?: SourceDto | null;
}

/** An allowance that costs nothing. */
export class FreeQuotaDto {
  @oneOf(RATE_UNITS) unit: RateUnit;
  @IsNumber({}, { message: 'must be a number' }) @Min(0, { message: 'must be 0 or more' }) amount: number;
  @oneOf(QUOTA_PERIODS) period: (typeof QUOTA_PERIODS)[number];
  @IsOptional() @apply(...text(1, 200)) conditions?: string | null;
}

/** A listing's prices as data: the pricing model, free allowances and rates. */
export class PricesDto {
  @oneOf(CURRENCIES) currency: (typeof CURRENCIES)[number];
  @IsArray({ message: 'must be a list' }) @oneOf(PRICING_MODELS, true) @ArrayUnique({ message: 'lists an item twice' }) models: Array<(typeof PRICING_MODELS)[number]>;
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(20) @Nested(() => FreeQuotaDto, true) freeQuota: FreeQuotaDto[];
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(60) @Nested(() => RateDto, true) rates: RateDto[];
  /** The share taken off for batch (asynchronous) requests, 0-1, where the provider offers one. */
  @IsOptional() @IsNumber({}, { message: 'must be a number' }) @Min(0) @Max(1) batchDiscount?: number | null;
  @Nested(() => SourceDto) source: SourceDto;
}

/** One published rate limit. */
export class RateLimitDto {
  /** The tier or plan it holds for: `free`, `paid`, `tier-1`... `tier-5`, `enterprise`, `default` where they fit, else the provider's plan name. */
  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: 'must be a lowercase tier name (free, paid, tier-1, enterprise, default)' }) tier: string;
  @oneOf(LIMIT_SCOPES) scope: (typeof LIMIT_SCOPES)[number];
  @oneOf(LIMIT_METRICS) metric: (typeof LIMIT_METRICS)[number];
  /** The window the limit counts over; null for concurrent requests. */
  @nullable<RateLimitDto>('per') @oneOf(LIMIT_PERIODS) per: (typeof LIMIT_PERIODS)[number] | null;
  @IsNumber({}, { message: 'must be a number' }) @Min(0) limit: number;
  /** The model or endpoint it applies to, when not the whole API. */
  @IsOptional() @apply(...text(1, 120)) appliesTo?: string | null;
}

/** A listing's rate limits as data, and the response headers that report them. */
export class RateLimitsDto {
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(60) @Nested(() => RateLimitDto, true) limits: RateLimitDto[];
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(20) @IsString({ each: true }) @ArrayUnique({ message: 'lists a header twice' })
  @Matches(/^[a-z0-9-]+$/, { each: true, message: 'each item must be a lowercase header name' })
  headers: string[];
  @Nested(() => SourceDto) source: SourceDto;
}


/** One model a listing's API serves (an offer of a model entry, when it names one in `canonical`). */
export class ModelDto {
  /** The id the API takes (`gpt-6-luna`, `claude-sonnet-5-5`). */
  @Matches(/^@?[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}$/, { message: 'must be the id the API takes: letters, digits and . _ : / @ + - (a leading @ too, as in @cf/...)' }) id: string;
  @apply(...text(1, 100)) name: string;
  @oneOf(MODEL_KINDS) kind: (typeof MODEL_KINDS)[number];
  @IsArray({ message: 'must be a list' }) @oneOf(MODALITIES, true) input: Array<(typeof MODALITIES)[number]>;
  @IsArray({ message: 'must be a list' }) @oneOf(MODALITIES, true) output: Array<(typeof MODALITIES)[number]>;
  @nullable<ModelDto>('contextTokens') @IsInt({ message: 'must be a whole number of tokens, or null' }) @Min(1) contextTokens: number | null;
  @nullable<ModelDto>('maxOutputTokens') @IsInt({ message: 'must be a whole number of tokens, or null' }) @Min(1) maxOutputTokens: number | null;
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(20) @Nested(() => RateDto, true) prices: RateDto[];
  @Nested(() => LifecycleDto) lifecycle: LifecycleDto;
  @Nested(() => SourceDto) source: SourceDto;
  /**
   * The model entry (fixtures/models/<id>.yaml) this offer serves: the same upstream model under whatever id
   * this listing's API takes. Null where the model has no entry yet: it is then an entry of its own.
   */
  @IsOptional() @Matches(MODEL_ENTRY_ID, { message: 'must be the id of a model entry: lowercase letters, digits, dots and hyphens' }) canonical?: string | null;
  /** What the model does as this API serves it, with the page that says so. */
  @IsOptional() @Nested(() => CapabilitiesDto) capabilities?: CapabilitiesDto | null;
}

/**
 * Sources of the listing's own decision facts (models, prices, limits and lifecycle carry theirs). A fact
 * not yet confirmed on the provider's pages has none (null or left out): check:content names it.
 */
export class FactSourcesDto {
  @IsOptional() @Nested(() => SourceDto) auth?: SourceDto | null;
  @IsOptional() @Nested(() => SourceDto) freeTier?: SourceDto | null;
  @IsOptional() @Nested(() => SourceDto) openaiCompatible?: SourceDto | null;
  /** Needed when the context is not the largest of the listing's models. */
  @IsOptional() @Nested(() => SourceDto) contextTokens?: SourceDto | null;
}

const IsRegionCode = (each = false) =>
  registerRule('isRegionCode', isRegionCode, `${each ? 'each item ' : ''}must be a lowercase ISO 3166-1 country code (us, cn, de, gb) or eu`, each);

const IsCurrencyCode = (each = false) => registerRule('isCurrencyCode', isCurrencyCode, `${each ? 'each item ' : ''}must be an ISO 4217 currency code (USD, CNY, EUR)`, each);

/** Who runs the API: the company, where it is based, and where it says it processes or stores data. */
export class ProviderDto {
  /** The company's name as it signs its terms (trading name where that is what it uses). */
  @apply(...text(1, 120)) name: string;
  /** The company's Chinese name, where it has one of its own (字节跳动, 百度). */
  @IsOptional() @apply(...text(1, 60)) nameCn?: string | null;
  /** Where the company is headquartered; null where no page of the provider's says. */
  @ValidateIf((o: ProviderDto) => o.country !== null) @IsRegionCode() country: string | null;
  /** Regions where it processes or stores customers' data, where it says so ([] when it does not say). */
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(30) @IsRegionCode(true) @ArrayUnique({ message: 'lists a region twice' })
  dataRegions: string[];
  /** The page stating the company and its country (terms, imprint, about page). */
  @Nested(() => SourceDto) source: SourceDto;
  /** The page stating the data regions; required when any are given. */
  @IsOptional() @Nested(() => SourceDto) dataRegionsSource?: SourceDto | null;
}


/** Where to get a local MCP server: the registry and the package's name there. */
export class McpPackageDto {
  @oneOf(PACKAGE_REGISTRIES) registry: (typeof PACKAGE_REGISTRIES)[number];
  @apply(...text(1, 200)) @Matches(/^[A-Za-z0-9@][A-Za-z0-9@._\/:-]*$/, { message: 'must be a package name as its registry writes it' }) name: string;
}

/** One official MCP server of the provider: remote (a URL) or local (a package), what it covers and how it authenticates. */
export class McpServerDto {
  @apply(...text(1, 120)) name: string;
  @oneOf(MCP_TRANSPORTS) transport: (typeof MCP_TRANSPORTS)[number];
  /** The endpoint of a remote server (streamable-http, sse). */
  @IsOptional() @IsHttpsUrl() url?: string | null;
  /** The package of a local server (stdio). */
  @IsOptional() @Nested(() => McpPackageDto) package?: McpPackageDto | null;
  @IsArray({ message: 'must be a list' }) @ArrayMinSize(1, { message: 'must have at least 1 item(s)' }) @oneOf(MCP_AUTH, true) @ArrayUnique({ message: 'lists an item twice' })
  auth: Array<(typeof MCP_AUTH)[number]>;
  /** What it lets an agent do, in a sentence. */
  @apply(...text(3, 300)) covers: string;
  @apply(...text(2, 300)) @HasHan() coversCn: string;
  @Nested(() => LifecycleDto) lifecycle: LifecycleDto;
  @Nested(() => SourceDto) source: SourceDto;
}


/** Where a payment API takes money, from whom, in what, and how. */
export class MarketsDto {
  /** Buyers paying from anywhere (cards accepted worldwide); buyerCountries then names the countries it stresses, if any. */
  @IsBoolean({ message: 'must be true or false' }) worldwide: boolean;
  /** Countries whose buyers can pay. */
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(250) @IsRegionCode(true) @ArrayUnique({ message: 'lists a country twice' })
  buyerCountries: string[];
  /** Countries where a business can sign up and be paid out. */
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(250) @IsRegionCode(true) @ArrayUnique({ message: 'lists a country twice' })
  merchantCountries: string[];
  /** Currencies it settles (pays out) in, ISO 4217. */
  @IsArray({ message: 'must be a list' }) @ArrayMaxSize(200) @IsCurrencyCode(true) @ArrayUnique({ message: 'lists a currency twice' })
  settlementCurrencies: string[];
  @IsArray({ message: 'must be a list' }) @oneOf(PAYMENT_METHODS, true) @ArrayUnique({ message: 'lists a method twice' })
  paymentMethods: Array<(typeof PAYMENT_METHODS)[number]>;
  @Nested(() => SourceDto) source: SourceDto;
}

/**
 * What a model does as this listing's API serves it, each true, false, or null where the provider does not
 * say. Image and audio input or output are the model's `input` and `output`.
 */
export class CapabilitiesDto {
  /** Tool (function) calling. */
  @nullableBoolean() tools: boolean | null;
  /** Output held to a JSON schema given with the request. */
  @nullableBoolean() structuredOutput: boolean | null;
  /** Thinks before answering (a reasoning or thinking mode). */
  @nullableBoolean() reasoning: boolean | null;
  /** A batch (asynchronous, discounted) API for it. */
  @nullableBoolean() batch: boolean | null;
  /** Fine-tuning it through this API. */
  @nullableBoolean() fineTuning: boolean | null;
  /** Prompt caching (cached input billed apart). */
  @nullableBoolean() promptCaching: boolean | null;
  @Nested(() => SourceDto) source: SourceDto;
}
