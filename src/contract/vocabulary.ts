/**
 * The directory's vocabularies, defined once: the closed lists a field of a listing or a model may take
 * (statuses, authentication schemes, SDK languages, units, kinds, modalities, MCP transports, payment
 * methods...), the codes it checks (countries, currencies, model entry ids) and the key names are compared
 * by. The content files' DTOs (class-validator), the published zod contract, the filters, the search index
 * and the pages all read them here.
 */

export const LISTING_STATUSES = ['online', 'beta', 'deprecated'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
export const CODE_LANGUAGES = ['bash', 'python', 'javascript', 'typescript', 'go', 'java', 'ruby', 'php', 'csharp', 'json'] as const;

/**
 * The primary way a client authenticates to the listed API (the full story stays in `auth`):
 * - `bearer`: a key or token sent as `Authorization: Bearer <token>`;
 * - `header-key`: a key in a named header (`x-api-key`, `api-key`...) or in `Authorization` under another
 *   scheme (`Token`, `Key`, `Api-Key`, the bare key);
 * - `query-key`: a key carried in the request itself: a query parameter, the URL path or a body field;
 * - `oauth`: an access token obtained through an OAuth 2.0 flow (client credentials, app installation,
 *   service accounts), then sent as a bearer token;
 * - `basic`: HTTP Basic authentication;
 * - `signature`: each request is signed (AWS Signature Version 4, RSA-signed payment requests).
 */
export const AUTH_TYPES = ['bearer', 'header-key', 'query-key', 'oauth', 'basic', 'signature'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/**
 * Normalised identifiers of `sdkLanguages`: the languages of the official SDKs (`sdks`), plus `curl` for the
 * plain HTTP API and `cli` for an official command-line client. Platform SDKs count as their language
 * (iOS: swift, Android: kotlin, Flutter: dart, React Native and Node.js: javascript, .NET: csharp).
 */
export const SDK_LANGUAGES = [
  'python', 'javascript', 'typescript', 'java', 'kotlin', 'go', 'csharp', 'ruby', 'php', 'rust', 'swift',
  'objective-c', 'dart', 'cpp', 'elixir', 'cli', 'curl',
] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

export const LIFECYCLE_STATUSES = ['preview', 'active', 'deprecated', 'retired'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export const MODEL_KINDS = ['language', 'reasoning', 'embedding', 'rerank', 'image', 'video', 'speech', 'transcription', 'ocr', 'moderation', 'music'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];
export const MODALITIES = ['text', 'image', 'audio', 'video', 'file', 'vector'] as const;
export const PRICING_MODELS = ['pay-as-you-go', 'subscription', 'credits', 'free', 'contact-sales'] as const;
export const CURRENCIES = ['USD', 'CNY', 'EUR', 'GBP'] as const;

/**
 * What a price is per. Rates of one unit compare across listings; `other` is for a unit no other listing
 * uses, described in the rate's `note`.
 */
export const RATE_UNITS = [
  '1m-input-tokens', '1m-output-tokens', '1m-cached-input-tokens', '1m-tokens',
  '1k-characters', '1m-characters', 'image', 'megapixel', 'audio-minute', 'audio-hour', 'video-second',
  'page', '1k-pages', 'request', '1k-requests', '1m-requests', 'search', '1k-searches',
  'email', '1k-emails', 'message', 'transaction', 'gpu-hour', 'gpu-second', 'vcpu-hour', 'gb-month', 'gb',
  'seat-month', 'month', 'credit', 'other',
] as const;
export type RateUnit = (typeof RATE_UNITS)[number];
/** The units rates compare in (the maxPrice filter, the comparison's side by side): all but `other`. */
export const COMPARED_RATE_UNITS = RATE_UNITS.filter((unit): unit is Exclude<RateUnit, 'other'> => unit !== 'other');
export type ComparedRateUnit = (typeof COMPARED_RATE_UNITS)[number];

/** The facts every listing has that agents decide by, each to be confirmed on a page of the provider's. */
export const DECISION_FACTS = ['auth', 'freeTier', 'openaiCompatible', 'contextTokens'] as const;
export type DecisionFact = (typeof DECISION_FACTS)[number];
/** Each decision fact as prose names it (llms-full.txt, the MCP text). */
export const DECISION_FACT_NAMES: Record<DecisionFact, string> = { auth: 'authentication', freeTier: 'free tier', openaiCompatible: 'OpenAI compatibility', contextTokens: 'context' };
/** A decision fact no page of the provider's states (null), as prose says it. */
export const NOT_STATED = 'not stated';
/** A yes-or-no decision fact as prose says it (llms-full.txt, the MCP text). */
export const yesNoText = (value: boolean | null): string => (value === null ? NOT_STATED : value ? 'yes' : 'no');

export const QUOTA_PERIODS = ['once', 'day', 'month', 'year'] as const;
export const LIMIT_METRICS = ['requests', 'tokens', 'input-tokens', 'output-tokens', 'characters', 'images', 'pages', 'emails', 'searches', 'audio-seconds', 'concurrent-requests'] as const;
export const LIMIT_PERIODS = ['second', 'minute', 'hour', 'day', 'month'] as const;
export const LIMIT_SCOPES = ['key', 'organization', 'project', 'account', 'user', 'ip', 'workspace'] as const;

/** The id of a model entry: the upstream model, whoever serves it (`gpt-oss-120b`, `claude-sonnet-5.5`). */
export const MODEL_ENTRY_ID = /^(?=.{2,80}$)[a-z0-9]+(?:[.-][a-z0-9]+)*$/;

/**
 * Country and region codes: ISO 3166-1 alpha-2 in lower case (`us`, `cn`, `de`), and `eu` for the European
 * Union. A code is valid when ICU knows a name for it (so pages can name it in both languages); `uk` is
 * ICU's alias of `gb`, refused so each country has one code.
 */
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });
export function isRegionCode(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[a-z]{2}$/.test(value) || value === 'uk') return false;
  const name = REGION_NAMES.of(value.toUpperCase());
  return name !== undefined && name !== value.toUpperCase() && name !== 'Unknown Region';
}

/** ISO 4217 currency codes ICU knows (USD, CNY, EUR...). */
const CURRENCY_CODES = new Set<string>(Intl.supportedValuesOf('currency'));
export const isCurrencyCode = (value: unknown) => typeof value === 'string' && CURRENCY_CODES.has(value);

export const MCP_TRANSPORTS = ['streamable-http', 'sse', 'stdio'] as const;
/** The `mcp` filter: a remote server (streamable-http or sse), a local one (stdio), or either. */
export const MCP_FILTER_VALUES = ['remote', 'local', 'any'] as const;
export const MCP_AUTH = ['oauth', 'api-key', 'none'] as const;
export const PACKAGE_REGISTRIES = ['npm', 'pypi', 'docker', 'go', 'cargo', 'nuget', 'github'] as const;

/**
 * How a payment API's buyers can pay: cards and wallets by their usual names. Defined once: the `paymentMethod`
 * filter, the pages and the content rules read this list.
 */
export const PAYMENT_METHODS = [
  'card', 'alipay', 'wechat-pay', 'unionpay', 'apple-pay', 'google-pay', 'paypal', 'venmo', 'bank-transfer',
  'ach-debit', 'sepa-debit', 'ideal', 'bancontact', 'klarna', 'afterpay', 'pix', 'boleto', 'oxxo', 'upi',
  'konbini', 'paynow', 'grabpay', 'kakaopay', 'crypto', 'cash',
] as const;

/**
 * Letters, digits and Han characters of an alias or name, lowercased: "DALL·E" and "dall-e" are the same.
 * How aliases are told apart, and how search compares names, slugs, aliases and whole queries.
 */
export function aliasKey(value: string): string {
  return value.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Each payment method's name in English and Chinese, for search and the pages. */
export const PAYMENT_METHOD_NAMES: Record<(typeof PAYMENT_METHODS)[number], [string, string]> = {
  card: ['cards', '银行卡 信用卡'],
  alipay: ['Alipay', '支付宝'],
  'wechat-pay': ['WeChat Pay', '微信支付'],
  unionpay: ['UnionPay', '银联'],
  'apple-pay': ['Apple Pay', 'Apple Pay'],
  'google-pay': ['Google Pay', 'Google Pay'],
  paypal: ['PayPal', 'PayPal'],
  venmo: ['Venmo', 'Venmo'],
  'bank-transfer': ['bank transfer', '银行转账'],
  'ach-debit': ['ACH debit', 'ACH 扣款'],
  'sepa-debit': ['SEPA direct debit', 'SEPA 直接借记'],
  ideal: ['iDEAL', 'iDEAL'],
  bancontact: ['Bancontact', 'Bancontact'],
  klarna: ['Klarna', 'Klarna'],
  afterpay: ['Afterpay', 'Afterpay'],
  pix: ['Pix', 'Pix'],
  boleto: ['Boleto', 'Boleto'],
  oxxo: ['OXXO', 'OXXO'],
  upi: ['UPI', 'UPI'],
  konbini: ['Konbini', '便利店支付'],
  paynow: ['PayNow', 'PayNow'],
  grabpay: ['GrabPay', 'GrabPay'],
  kakaopay: ['KakaoPay', 'KakaoPay'],
  crypto: ['crypto', '加密货币'],
  cash: ['cash', '现金'],
};

const REGION_NAMES_ZH = new Intl.DisplayNames(['zh'], { type: 'region' });
/** A country or region code's names in English and Chinese (cn: China 中国). */
export function regionNames(code: string): [string, string] {
  const upper = code.toUpperCase();
  return [REGION_NAMES.of(upper) ?? upper, REGION_NAMES_ZH.of(upper) ?? upper];
}

/**
 * A provider's domain as a listing or a model entry declares it: a registrable name in lowercase
 * (`openai.com`, `api.aws`), never an IP address in any form (`127.0.0.1`, `2130706433`, `[::1]`) and never
 * a name without a dot (`localhost`). Each label is 1-63 letters, digits or hyphens, not starting or ending
 * with a hyphen; the last is letters (or an IDNA `xn--` label), so no numeric form can pass. Names under
 * special-use suffixes that resolve to this machine or its network are refused too.
 */
export const DOMAIN_NAME = /^(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
export const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'arpa', 'home', 'lan', 'intranet', 'corp'] as const;
/** Whether `name` is a domain a listing may declare (DOMAIN_NAME, not under a local suffix). */
export function isDomainName(name: string): boolean {
  return DOMAIN_NAME.test(name) && !(LOCAL_SUFFIXES as readonly string[]).includes(name.slice(name.lastIndexOf('.') + 1));
}
export const DOMAIN_NAME_MESSAGE = 'each item must be a registrable domain name in lowercase, e.g. openai.com (no IP address, no local name)';
