import type { CategoriesResponse } from '../contract/responses';
import { ENTRY_POINTS } from './service-index';

/**
 * /structured-data.json: schema.org data about the directory, as JSON-LD: the site with its search action,
 * and its categories as a list, each with the number of listings it holds now (from the same read model
 * as GET /api/v1/tools/categories, so the counts match the data).
 */
export function structuredData(base: string, { categories, totalListings }: CategoriesResponse): string {
  return JSON.stringify({
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'WebSite',
        '@id': `${base}/#website`,
        name: 'API Directory',
        url: `${base}/`,
        inLanguage: ['en', 'zh'],
        description: `A directory of ${totalListings} third-party web APIs (chiefly AI, language-model and cloud APIs) for agents and developers, in English and Chinese.`,
        potentialAction: { '@type': 'SearchAction', target: `${base}/api/v1/tools/search?q={query}`, 'query-input': 'required name=query' },
      },
      {
        '@type': 'ItemList',
        '@id': `${base}/#categories`,
        name: 'Categories',
        numberOfItems: categories.length,
        itemListElement: categories.map((category, i) => ({
          '@type': 'ListItem',
          position: i + 1,
          name: category.name,
          alternateName: category.nameCn,
          url: `${base}${ENTRY_POINTS.tools}?category=${category.slug}`,
          description: `${category.count} APIs`,
        })),
      },
      { '@type': 'Dataset', name: 'API Directory catalog', url: `${base}/api/v1/export`, encodingFormat: 'application/json', isAccessibleForFree: true },
    ],
  });
}
