import { pageText } from '../messages';

/**
 * The home page's own strings, in English and Chinese (the strings pages share are in ../messages.ts). The
 * Chinese table has the English one's type, so a string added in one language only does not compile.
 */
const en = {
  siteTagline: 'Third-party web APIs for developers and agents: search, compare, read every fact with its source.',
  searchLabel: 'Search the directory',
  searchPlaceholder: 'e.g. text to speech, vector database, 支付',
  searchButton: 'Search',
  searchExamples: 'Try:',
  categoriesTitle: 'Categories',
  popularTitle: 'Most popular',
  latestChangesTitle: 'Latest changes',
  allChanges: 'All recent changes',
  homeTitle: 'API Directory: third-party web APIs, searched and compared',
  homeDescription: (n: number) => `${n} third-party web APIs (language models, speech, images, payments, cloud) with pricing, authentication, rate limits, code examples and their sources, in English and Chinese.`,
  allResults: 'All results on the search page',
};

const zh: typeof en = {
  siteTagline: '面向开发者和智能体的第三方 Web API 目录：搜索、对比，每条事实都注明来源。',
  searchLabel: '搜索目录',
  searchPlaceholder: '例如：语音合成、向量数据库、payments',
  searchButton: '搜索',
  searchExamples: '试试：',
  categoriesTitle: '分类',
  popularTitle: '最受欢迎',
  latestChangesTitle: '最新更新',
  allChanges: '全部最近更新',
  homeTitle: 'API 目录：第三方 Web API 的搜索与对比',
  homeDescription: (n: number) => `收录 ${n} 个第三方 Web API（大模型、语音、图像、支付、云服务），提供价格、认证方式、速率限制、代码示例及其来源，中英双语。`,
  allResults: '在搜索页查看全部结果',
};

/** The home page's strings with those every page shares, by language. */
export const homeText = pageText({ en, zh });
