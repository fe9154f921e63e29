/**
 * schema.org data for search engines, as JSON-LD: a listing as a `WebAPI`, the trail as a
 * `BreadcrumbList`, lists of listings as an `ItemList`. A data block is not run (the CSP allows no inline
 * script, and needs not to), but its text must not end the element early: `<`, `>` and `&` are written as
 * JSON escapes, and so are the line separators JavaScript once refused in strings.
 */

export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function JsonLd({ data }: { data: object }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(data) }} />;
}

const CONTEXT = 'https://schema.org';

export function breadcrumbList(items: Array<{ name: string; url: string }>): object {
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({ '@type': 'ListItem', position: i + 1, name: item.name, item: item.url })),
  };
}

export function itemList(name: string, items: Array<{ name: string; url: string }>, first = 1): object {
  return {
    '@context': CONTEXT,
    '@type': 'ItemList',
    name,
    numberOfItems: items.length,
    itemListElement: items.map((item, i) => ({ '@type': 'ListItem', position: first + i, name: item.name, url: item.url })),
  };
}

export interface WebApiFacts {
  name: string;
  alternateName: string;
  description: string;
  url: string;
  inLanguage: string;
  documentation: string;
  website: string;
  category: string;
  keywords: string[];
  dateModified: string;
  sameAs: string | null;
}

export function webApi(facts: WebApiFacts): object {
  return {
    '@context': CONTEXT,
    '@type': 'WebAPI',
    name: facts.name,
    alternateName: facts.alternateName,
    description: facts.description,
    url: facts.url,
    inLanguage: facts.inLanguage,
    documentation: facts.documentation,
    provider: { '@type': 'Organization', url: facts.website },
    category: facts.category,
    keywords: facts.keywords.join(', '),
    dateModified: facts.dateModified,
    ...(facts.sameAs ? { sameAs: facts.sameAs } : {}),
  };
}

export function webSite(name: string, url: string, searchUrlTemplate: string, inLanguage: string): object {
  return {
    '@context': CONTEXT,
    '@type': 'WebSite',
    name,
    url,
    inLanguage,
    potentialAction: { '@type': 'SearchAction', target: searchUrlTemplate, 'query-input': 'required name=search_term_string' },
  };
}
