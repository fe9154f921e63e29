import type { ChangeKind, ChangeType } from '../../contract/responses';
import { pageText } from '../messages';

/**
 * The recent changes page's own strings, in English and Chinese (the strings pages share are in ../messages.ts). The
 * Chinese table has the English one's type, so a string added in one language only does not compile.
 */
const en = {
  changesTitle: 'Recent changes',
  changesDescription: 'Listings and error-reference entries published, revised and withdrawn, newest first.',
  changesFeeds: 'Follow them in a feed reader (Atom) or as JSON with a cursor.',
  atomFeed: 'Atom feed',
  jsonFeed: 'JSON change feed',
  changeTypes: { published: 'published', revised: 'revised', withdrawn: 'withdrawn' } satisfies Record<ChangeType, string>,
  changeKinds: { listing: 'Listing', 'error-entry': 'Error entry', liveness: 'Liveness of', model: 'Model' } satisfies Record<ChangeKind, string>,
  changedFields: 'Changed',
  version: 'version',
};

const zh: typeof en = {
  changesTitle: '最近更新',
  changesDescription: '目录条目与错误参考的发布、修订和撤下记录，最新的在前。',
  changesFeeds: '可用阅读器订阅（Atom），或用游标读取 JSON。',
  atomFeed: 'Atom 订阅',
  jsonFeed: 'JSON 更新流',
  changeTypes: { published: '发布', revised: '修订', withdrawn: '撤下' },
  changeKinds: { listing: '条目', 'error-entry': '错误参考', liveness: '可用性', model: '模型' },
  changedFields: '变更字段',
  version: '版本',
};

/** The recent changes page's strings with those every page shares, by language. */
export const changesText = pageText({ en, zh });
