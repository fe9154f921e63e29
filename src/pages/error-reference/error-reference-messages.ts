import { pageText } from '../messages';

/**
 * The error reference page's own strings, in English and Chinese (the strings pages share are in ../messages.ts). The
 * Chinese table has the English one's type, so a string added in one language only does not compile.
 */
const en = {
  errorsIndex: 'Providers on this page',
  rateLimitsAsData: 'Its rate limits, as data',
  errorsTitle: 'Error reference',
  errorsDescription: 'Common errors of listed APIs by provider and HTTP status: what causes each one and how to fix it.',
  provider: 'Provider',
  statusCode: 'HTTP status',
  allProviders: 'All providers',
  allStatuses: 'All statuses',
  show: 'Show',
  errorCount: (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`,
};

const zh: typeof en = {
  errorsIndex: '本页提供方',
  rateLimitsAsData: '该提供方的速率限制明细',
  errorsTitle: '错误参考',
  errorsDescription: '按提供方和 HTTP 状态码整理的常见接口错误：错误原因及解决办法。',
  provider: '提供方',
  statusCode: 'HTTP 状态码',
  allProviders: '全部提供方',
  allStatuses: '全部状态码',
  show: '显示',
  errorCount: (n: number) => `${n} 条`,
};

/** The error reference page's strings with those every page shares, by language. */
export const errorReferenceText = pageText({ en, zh });
