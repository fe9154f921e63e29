import { pageText } from '../messages';

/**
 * The compare page's own strings, in English and Chinese (the strings pages share are in ../messages.ts). The
 * Chinese table has the English one's type, so a string added in one language only does not compile.
 */
const en = {
  compareTitle: 'Compare APIs',
  compareDescription: 'Put 2 to 10 APIs side by side: pricing and the lowest rates, authentication, limits, models and context, SDKs and the facts agents decide by, with their sources.',
  comparePick: 'Choose what to compare',
  compareCurrent: 'Compared now',
  comparePopular: 'Popular',
  compareMore: 'Other listings (names or slugs, separated by commas)',
  compareMoreHint: 'e.g. OpenAI, Claude, deepseek',
  compareButton: 'Compare',
  compareNeedTwo: 'Pick at least 2 listings (at most 10).',
  notFoundIds: 'Not in the directory',
  goneIds: 'No longer listed',
  compareTable: 'Side by side',
  compareModels: (n: number) => (n === 0 ? 'No models listed' : `${n} ${n === 1 ? 'model' : 'models'}`),
  compareLargestContext: (tokens: string) => `Largest context ${tokens} tokens`,
  compareLimitsLabel: 'Rate limits, as figures',
  compareLimits: (n: number) => (n === 0 ? 'No limits given as figures' : `${n} ${n === 1 ? 'limit' : 'limits'}`),
  compareFirstLimit: (limit: string) => `The first: ${limit}`,
  compareLimitHeaders: (n: number) => `${n} response ${n === 1 ? 'header reports' : 'headers report'} them`,
  compareRates: 'Lowest rates (USD)',
  compareRetiring: 'Deprecated models (left out)',
  compareDifferencesOnly: 'Show only the rows that differ',
  comparePriceFrom: 'Price from',
  compareRetiringModels: (count: number, first: string | null) => `${count} model${count === 1 ? '' : 's'}${first ? `, first shut down ${first}` : ''}`,
  compareRatesIntro: 'For each unit, the lowest rate in US dollars of each listing, from its own rates and its current models’ (deprecated models, whose shutdown is announced, and retired ones are left out: see the row below); “—” where it publishes none in US dollars (rates in other currencies are on its page).',
  compareRatesNone: 'None of these listings publishes a rate in US dollars.',
  compareUnit: 'Unit',
  compareRate: (price: number) => `${price} USD`,
  comparePricesSource: 'Source of the prices',
  goneStatuses: { withdrawn: 'withdrawn from the directory', retired: 'retired by its provider' },
};

const zh: typeof en = {
  compareTitle: '对比接口',
  compareDescription: '并排对比 2 到 10 个接口：价格与最低费率、认证方式、限额、模型与上下文、SDK 以及智能体决策所需的事实，并注明来源。',
  comparePick: '选择要对比的接口',
  compareCurrent: '当前对比',
  comparePopular: '热门',
  compareMore: '其他条目（名称或标识符，用逗号分隔）',
  compareMoreHint: '例如 通义千问, Claude, deepseek',
  compareButton: '对比',
  compareNeedTwo: '请至少选择 2 个条目（最多 10 个）。',
  notFoundIds: '目录中没有',
  goneIds: '已不再收录',
  compareTable: '并排对比',
  compareModels: (n: number) => (n === 0 ? '未列出模型' : `${n} 个模型`),
  compareLargestContext: (tokens: string) => `最大上下文 ${tokens} token`,
  compareLimitsLabel: '速率限制（数值）',
  compareLimits: (n: number) => (n === 0 ? '未给出限额数值' : `${n} 项限额`),
  compareFirstLimit: (limit: string) => `第一项：${limit}`,
  compareLimitHeaders: (n: number) => `${n} 个响应头报告限额`,
  compareRates: '最低费率（美元）',
  compareRetiring: '弃用模型（不计入）',
  compareDifferencesOnly: '只显示有差异的行',
  comparePriceFrom: '最低价',
  compareRetiringModels: (count: number, first: string | null) => `${count} 个模型${first ? `，最早于 ${first} 停用` : ''}`,
  compareRatesIntro: '每个计价单位下各条目以美元计的最低费率，取自其自身费率及其现行模型的费率（已宣布停用日期的弃用模型与已停用模型不计入，见下方一行）；“—”表示该条目没有公布美元费率（其他币种的费率见其条目页面）。',
  compareRatesNone: '这些条目都没有公布美元费率。',
  compareUnit: '计价单位',
  compareRate: (price: number) => `${price} 美元`,
  comparePricesSource: '价格来源',
  goneStatuses: { withdrawn: '已从目录撤下', retired: '已被提供方停用' },
};

/** The compare page's strings with those every page shares, by language. */
export const compareText = pageText({ en, zh });
