import { pageText } from '../messages';

/**
 * A category's page's own strings, in English and Chinese (the strings pages share are in ../messages.ts). The
 * Chinese table has the English one's type, so a string added in one language only does not compile.
 */
const en = {
  categoryTitle: (name: string) => `${name}: APIs by popularity`,
  categoryDescription: (name: string, n: number) => `${n} ${name} APIs in the directory, most popular first, with pricing and authentication.`,
  categoryByPopularity: 'By popularity',
};

const zh: typeof en = {
  categoryTitle: (name: string) => `${name}：按热度排列的接口`,
  categoryDescription: (name: string, n: number) => `目录中共有 ${n} 个${name}接口，按热度排列，附价格与认证方式。`,
  categoryByPopularity: '按热度排列',
};

/** A category's page's strings with those every page shares, by language. */
export const categoryText = pageText({ en, zh });
