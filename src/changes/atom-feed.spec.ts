import { parseFeed } from '../../test/support/atom';
import { renderAtom, xmlText } from './atom-feed';

const entry = {
  id: 'urn:uuid:6f1c2a52-54a1-4b8e-9d55-1b7c1a0f3e10',
  title: 'Listing a-b revised',
  updated: '2026-11-23T10:00:00.000Z',
  links: [{ rel: 'alternate' as const, href: 'https://example.org/api/v1/tools/a-b?x=1&y=2', type: 'application/json' }],
  categories: ['revised', 'listing'],
  summary: 'Tom & Jerry <b>"quoted"</b> it\'s\u0007 here\uFFFE, 向量数据库 and 😀.',
};

describe('the Atom document', () => {
  it('escapes markup and drops what XML 1.0 cannot carry', () => {
    expect(xmlText(`a&b<c>"d"'e'`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;');
    expect(xmlText('bell\u0007, nul\u0000, lone \uD800 surrogate, tab\tok')).toBe('bell, nul, lone  surrogate, tab\tok');
    expect(xmlText('😀 向量')).toBe('😀 向量');
  });

  it('is read back by a feed parser as written, whatever the text holds', async () => {
    const xml = renderAtom({
      id: 'https://example.org/api/v1/changes.atom',
      title: 'Changes & more',
      subtitle: 'Listings <and> entries',
      updated: entry.updated,
      author: 'API Directory',
      links: [{ rel: 'self', href: 'https://example.org/api/v1/changes.atom?since=abc&limit=2', type: 'application/atom+xml' }],
      entries: [entry],
    });
    const { meta, items } = await parseFeed(xml);
    expect(meta['#type']).toBe('atom');
    expect(meta.title).toBe('Changes & more');
    expect(meta.xmlurl).toBe('https://example.org/api/v1/changes.atom?since=abc&limit=2');
    expect(items).toHaveLength(1);
    expect(items[0].guid).toBe(entry.id);
    expect(items[0].title).toBe(entry.title);
    expect(items[0].link).toBe('https://example.org/api/v1/tools/a-b?x=1&y=2');
    expect(items[0].date?.toISOString()).toBe(entry.updated);
    expect(items[0].categories).toEqual(['revised', 'listing']);
    expect(items[0].summary).toBe('Tom & Jerry <b>"quoted"</b> it\'s here, 向量数据库 and 😀.');
  });
});
