import type { Lang } from '../messages';

/**
 * The listing page's own strings (its decision summary, retirement banner and section index), in English and
 * Chinese; the strings every page shares stay in ../../messages.ts. The Chinese table has the English one's
 * type, so a string added in one language only does not compile.
 */
const en = {
  summaryTitle: 'At a glance',
  priceFrom: 'Price from',
  priceAmount: (amount: string, unit: string) => `${amount} ${unit.replace(/^Per /, 'per ')}`,
  noPrices: 'no prices recorded yet',
  freeTier: 'Free tier',
  freeYes: 'Yes',
  freeNo: 'No',
  quota: (amount: string, unit: string, period: string) => `${amount} × ${unit.replace(/^Per /, '')}${period === 'once' ? ' once' : ` a ${period}`}`,
  authentication: 'Authentication',
  rateLimit: 'Rate limit',
  moreLimits: (n: number) => `and ${n} more`,
  noLimits: 'none recorded yet',
  context: 'Context',
  lifecycle: 'Lifecycle',
  listingRetires: (date: string) => `shuts down on ${date}`,
  modelsRetiring: (n: number, first: string | null) => `${n} ${n === 1 ? 'model' : 'models'} going away${first ? `, first on ${first}` : ''}`,
  answering: 'Answering',
  checkedAt: (when: string) => `checked ${when}`,
  unconfirmed: 'not yet confirmed',
  source: 'source',
  bannerTitle: 'Shutting down',
  bannerListing: (date: string | null) => (date ? `This API shuts down on ${date}.` : 'This API is deprecated.'),
  bannerModel: (date: string | null) => (date ? `shuts down on ${date}` : 'deprecated, no shutdown day announced'),
  moveTo: 'move to',
  noSuccessor: 'no successor named',
  migrationGuide: 'Migration guide',
  sectionIndex: 'On this page',
  pricingModels: { 'pay-as-you-go': 'pay as you go', subscription: 'subscription', credits: 'credits', free: 'free', 'contact-sales': 'contact sales' } as Record<string, string>,
  listSeparator: ', ',
};

export type ListingMessages = typeof en;

const zh: ListingMessages = {
  summaryTitle: '概览',
  priceFrom: '最低价',
  priceAmount: (amount: string, unit: string) => `${unit} ${amount}`,
  noPrices: '尚未记录价格',
  freeTier: '免费额度',
  freeYes: '有',
  freeNo: '无',
  quota: (amount: string, unit: string, period: string) => `${period === 'once' ? '一次性' : `每${ZH_PERIODS[period] ?? period}`} ${amount} × ${unit.replace(/^每/, '')}`,
  authentication: '认证方式',
  rateLimit: '速率限制',
  moreLimits: (n: number) => `另有 ${n} 项`,
  noLimits: '尚未记录',
  context: '上下文',
  lifecycle: '生命周期',
  listingRetires: (date: string) => `将于 ${date} 停用`,
  modelsRetiring: (n: number, first: string | null) => `${n} 个模型即将停用${first ? `，最早于 ${first}` : ''}`,
  answering: '可访问性',
  checkedAt: (when: string) => `检查于 ${when}`,
  unconfirmed: '尚未核实',
  source: '来源',
  bannerTitle: '即将停用',
  bannerListing: (date: string | null) => (date ? `此接口将于 ${date} 停用。` : '此接口已弃用。'),
  bannerModel: (date: string | null) => (date ? `将于 ${date} 停用` : '已弃用，尚未公布停用日期'),
  moveTo: '迁移至',
  noSuccessor: '未指定后继模型',
  migrationGuide: '迁移指南',
  sectionIndex: '本页目录',
  pricingModels: { 'pay-as-you-go': '按量付费', subscription: '订阅', credits: '点数', free: '免费', 'contact-sales': '联系销售' },
  listSeparator: '、',
};

const ZH_PERIODS: Record<string, string> = { day: '天', month: '月', year: '年' };

const LISTING_MESSAGES: Record<Lang, ListingMessages> = { en, zh };

export const listingMessages = (lang: Lang): ListingMessages => LISTING_MESSAGES[lang];
