import type { MCP_FILTER_VALUES } from '../../contract/vocabulary';
import { pageText } from '../messages';

/**
 * The search page's own strings, in English and Chinese (the strings pages share are in ../messages.ts). The
 * Chinese table has the English one's type, so a string added in one language only does not compile.
 */
const en = {
  listingSorts: { relevance: 'Best match', popular: 'Most popular', price: 'Cheapest first (needs a price unit)', context: 'Largest context', checked: 'Most recently checked' } as Record<string, string>,
  orderedBy: (order: string, unit: string | null, withoutRate: number) =>
    `Order: ${unit ? `cheapest first, by the lowest rate ${unit.replace(/^Per /, 'per ')}` : order.toLowerCase()}${withoutRate > 0 ? `; ${withoutRate} without such a rate come last` : ''}.`,
  searchTitle: (q: string | null) => (q ? `“${q}”: search` : 'Search'),
  weakerMatches: 'Weaker matches',
  readAsNothing: 'matched nothing',
  filtersLegend: 'Filters',
  filtersSummary: 'Filters and order',
  filtersSet: (n: number) => `(${n} set)`,
  mcpValues: { remote: 'Remote (URL)', local: 'Local (package)', any: 'Either' } satisfies Record<(typeof MCP_FILTER_VALUES)[number], string>,
  countryHint: 'e.g. cn',
  moreFilters: 'Models, prices and lifecycle',
  modelHint: 'model id',
  resultsCount: (total: number, shown: number) => (total === 0 ? 'No results' : `${total} ${total === 1 ? 'result' : 'results'}${shown < total ? `, ${shown} shown` : ''}`),
  readAs: 'Read as',
  viaNames: { exact: 'exact', prefix: 'completed', typo: 'corrected', synonym: 'synonym', bigrams: 'Chinese characters', joined: 'joined', split: 'split', filter: 'filter', sort: 'order' } as Record<string, string>,
  emptyTitle: 'Nothing found',
  emptyTips: ['Check the spelling, or use fewer words.', 'Remove a filter: each one narrows the results.', 'Search for what the API does (“speech to text”) rather than a product name.', 'Browse a category below.'],
  invalidParameter: (name: string) => `The value of “${name}” is not valid.`,
};

const zh: typeof en = {
  listingSorts: { relevance: '最相关', popular: '最热门', price: '最便宜优先（需选价格单位）', context: '上下文最大', checked: '最近核实' } as Record<string, string>,
  orderedBy: (order: string, unit: string | null, withoutRate: number) =>
    `排序：${unit ? `最便宜优先，按${unit}的最低价` : order}${withoutRate > 0 ? `；${withoutRate} 个没有该单位价格的排在最后` : ''}。`,
  searchTitle: (q: string | null) => (q ? `“${q}”的搜索结果` : '搜索'),
  weakerMatches: '相关度较低的结果',
  readAsNothing: '未匹配任何内容',
  filtersLegend: '筛选条件',
  filtersSummary: '筛选与排序',
  filtersSet: (n: number) => `（已设 ${n} 项）`,
  mcpValues: { remote: '远程（URL）', local: '本地（软件包）', any: '均可' },
  countryHint: '如 cn',
  moreFilters: '模型、价格与生命周期',
  modelHint: '模型 ID',
  resultsCount: (total: number, shown: number) => (total === 0 ? '没有结果' : `共 ${total} 个结果${shown < total ? `，显示 ${shown} 个` : ''}`),
  readAs: '理解为',
  viaNames: { exact: '精确', prefix: '补全', typo: '纠错', synonym: '同义词', bigrams: '中文字词', joined: '合并', split: '拆分', filter: '筛选', sort: '排序' },
  emptyTitle: '没有找到结果',
  emptyTips: ['检查拼写，或减少关键词。', '去掉一个筛选条件：每个条件都会缩小结果范围。', '搜索接口的用途（如“语音转文字”），而不是产品名称。', '浏览下方的分类。'],
  invalidParameter: (name: string) => `参数“${name}”的值无效。`,
};

/** The search page's strings with those every page shares, by language. */
export const searchText = pageText({ en, zh });
