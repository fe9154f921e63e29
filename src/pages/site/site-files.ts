import { HTML_LANG, LANGS, Lang, MESSAGES } from '../messages';
import { inLang, PAGE_PATHS } from '../page-paths';

/** XML text and attribute values, escaped. */
export function xmlEscape(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * sitemap.xml (sitemaps.org 0.9): every page in both languages, each naming its other-language version
 * (`xhtml:link` alternates, as search engines read them). Search results and comparisons of a choice are
 * left out: they are answers, not pages to index; the empty search and compare pages are in.
 */
export function sitemapXml(base: string, categories: string[], listings: string[], models: string[] = []): string {
  const paths = [
    PAGE_PATHS.home, PAGE_PATHS.search, PAGE_PATHS.compare, PAGE_PATHS.errors, PAGE_PATHS.changes, PAGE_PATHS.models,
    ...categories.map(PAGE_PATHS.category), ...listings.map(PAGE_PATHS.listing), ...models.map(PAGE_PATHS.model),
  ];
  const alternates = (path: string) =>
    [
      ...LANGS.map((lang) => `<xhtml:link rel="alternate" hreflang="${HTML_LANG[lang]}" href="${xmlEscape(base + inLang(lang, path))}"/>`),
      `<xhtml:link rel="alternate" hreflang="x-default" href="${xmlEscape(base + path)}"/>`,
    ].join('');
  const urls = paths.flatMap((path) => LANGS.map((lang) => `<url><loc>${xmlEscape(base + inLang(lang, path))}</loc>${alternates(path)}</url>`));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml; charset=utf-8';

/** opensearch.xml: lets a browser add the directory's search (the pages' in the language, and the JSON API's). */
export function openSearchXml(base: string, lang: Lang): string {
  const t = MESSAGES[lang];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">',
    `<ShortName>${xmlEscape(t.siteName)}</ShortName>`,
    `<Description>${xmlEscape(t.searchDescription)}</Description>`,
    '<InputEncoding>UTF-8</InputEncoding>',
    `<Language>${HTML_LANG[lang]}</Language>`,
    `<Image height="16" width="16" type="image/svg+xml">${xmlEscape(`${base}/assets/icon.svg`)}</Image>`,
    `<Url type="text/html" method="get" template="${xmlEscape(`${base}${inLang(lang, PAGE_PATHS.search)}?q={searchTerms}`)}"/>`,
    `<Url type="application/json" method="get" template="${xmlEscape(`${base}/api/v1/tools/search?q={searchTerms}`)}"/>`,
    `<Url type="application/opensearchdescription+xml" rel="self" template="${xmlEscape(`${base}${inLang(lang, '/opensearch.xml')}`)}"/>`,
    '</OpenSearchDescription>',
    '',
  ].join('\n');
}
