/**
 * An Atom 1.0 document (RFC 4287), written out by hand: the feed uses a handful of elements, and every
 * piece of text goes through `xmlText`, which escapes markup and drops what XML 1.0 cannot carry.
 */
export interface AtomLink {
  rel: 'self' | 'alternate' | 'next' | 'first' | 'related';
  href: string;
  type?: string;
}

export interface AtomEntry {
  id: string;
  title: string;
  updated: string;
  links: AtomLink[];
  categories: string[];
  summary: string;
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle: string;
  updated: string;
  author: string;
  links: AtomLink[];
  entries: AtomEntry[];
}

export const ATOM_MEDIA_TYPE = 'application/atom+xml; charset=utf-8';
export const RSS_MEDIA_TYPE = 'application/rss+xml; charset=utf-8';

/** Characters XML 1.0 does not allow (most control characters, lone surrogates, U+FFFE and U+FFFF). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for an element or an attribute value. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function renderAtom(feed: AtomFeed): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xmlText(feed.id)}</id>`,
    `  <title>${xmlText(feed.title)}</title>`,
    `  <subtitle>${xmlText(feed.subtitle)}</subtitle>`,
    `  <updated>${xmlText(feed.updated)}</updated>`,
    `  <author><name>${xmlText(feed.author)}</name></author>`,
    ...feed.links.map((link) => `  ${renderLink(link)}`),
  ];
  for (const entry of feed.entries) {
    lines.push(
      '  <entry>',
      `    <id>${xmlText(entry.id)}</id>`,
      `    <title>${xmlText(entry.title)}</title>`,
      `    <updated>${xmlText(entry.updated)}</updated>`,
      ...entry.links.map((link) => `    ${renderLink(link)}`),
      ...entry.categories.map((term) => `    <category term="${xmlText(term)}"/>`),
      `    <summary>${xmlText(entry.summary)}</summary>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}

function renderLink({ rel, href, type }: AtomLink): string {
  return `<link rel="${rel}" href="${xmlText(href)}"${type ? ` type="${xmlText(type)}"` : ''}/>`;
}

/**
 * The same feed as RSS 2.0 (for the public directory's readers of /rss.xml): a channel whose items are the
 * entries, with the entry's permanent id as a guid that is not a link, and RFC 822 dates.
 */
export function renderRss(feed: AtomFeed): string {
  const self = feed.links.find((link) => link.rel === 'self')!;
  const site = feed.links.find((link) => link.rel === 'alternate') ?? self;
  const date = (iso: string) => new Date(iso).toUTCString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${xmlText(feed.title)}</title>`,
    `    <link>${xmlText(site.href)}</link>`,
    `    <description>${xmlText(feed.subtitle)}</description>`,
    `    <lastBuildDate>${xmlText(date(feed.updated))}</lastBuildDate>`,
    `    <atom:link rel="self" href="${xmlText(self.href)}" type="application/rss+xml"/>`,
  ];
  for (const entry of feed.entries) {
    const link = entry.links.find((l) => l.rel === 'alternate');
    lines.push(
      '    <item>',
      `      <title>${xmlText(entry.title)}</title>`,
      ...(link ? [`      <link>${xmlText(link.href)}</link>`] : []),
      `      <guid isPermaLink="false">${xmlText(entry.id)}</guid>`,
      `      <pubDate>${xmlText(date(entry.updated))}</pubDate>`,
      ...entry.categories.map((term) => `      <category>${xmlText(term)}</category>`),
      `      <description>${xmlText(entry.summary)}</description>`,
      '    </item>',
    );
  }
  lines.push('  </channel>', '</rss>', '');
  return lines.join('\n');
}
