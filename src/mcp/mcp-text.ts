import type { ToolSummary } from '../contract/listing-views';
import type { CategoriesResponse, CompareResponse, ErrorsResponse, ListResponse, SearchResponse, ToolDetailResponse } from '../contract/responses';

/**
 * The text each tool sends beside its structured result: short, in the order an agent reads it (what was
 * found, one line per listing, how to go on), for clients that show or feed the model text only.
 */

/** One line of a listing: slug first (what the other tools take), then what it is and what it costs. */
function summaryLine(position: number, tool: ToolSummary): string {
  const free = tool.freeTier ? ', free tier' : '';
  return `${position}. ${tool.slug} — ${tool.name} [${tool.category}${free}]: ${tool.description} Pricing: ${tool.pricing}`;
}

function nextPage(tool: string, cursor: string | null): string[] {
  return cursor ? [`More results: call ${tool} again with the same arguments and cursor "${cursor}".`] : [];
}

function appliedFilters(filters: Record<string, unknown>): string {
  const set = Object.entries(filters).filter(([, value]) => value !== null);
  return set.length === 0 ? '' : ` (${set.map(([name, value]) => `${name}: ${value}`).join(', ')})`;
}

export function searchText(found: SearchResponse, offset: number): string {
  const about = `${found.query === null ? 'listed' : `for "${found.query}"`}${appliedFilters(found.filters)}`;
  if (found.results.length === 0) {
    return found.total > 0
      ? `No more results ${about}: all ${found.total} were on earlier pages.`
      : `No tools found ${about}. Try other or fewer words (English or Chinese), or browse with list_categories and list_tools.`;
  }
  return [
    `${found.total} ${found.total === 1 ? 'tool' : 'tools'} found ${about}; results ${offset + 1}-${offset + found.returned}, best first:`,
    ...found.results.map((tool, i) => summaryLine(offset + i + 1, tool)),
    ...nextPage('search_tools', found.nextCursor),
    'Full facts of one: get_tool with its slug. Side by side: compare_tools with 2-10 slugs.',
  ].join('\n');
}

/** A page of the list (its cursor names a listing, not a position: the lines are numbered within the page). */
export function listText(page: ListResponse): string {
  if (page.tools.length === 0) return `No tools${appliedFilters(page.filters)}.`;
  return [
    `${page.total} ${page.total === 1 ? 'tool' : 'tools'}${appliedFilters(page.filters)}, most popular first; ${page.returned} on this page:`,
    ...page.tools.map((tool, i) => summaryLine(i + 1, tool)),
    ...nextPage('list_tools', page.nextCursor),
  ].join('\n');
}

function listOf(label: string, items: string[]): string[] {
  return items.length === 0 ? [] : [`${label}:`, ...items.map((item) => `- ${item}`)];
}

export function detailText({ tool }: ToolDetailResponse): string {
  const facts = [
    `Free tier: ${tool.freeTier ? 'yes' : 'no'}`,
    `OpenAI-compatible: ${tool.openaiCompatible ? 'yes' : 'no'}`,
    `auth type: ${tool.authType}`,
    ...(tool.contextTokens ? [`context: ${tool.contextTokens.toLocaleString('en-US')} tokens`] : []),
  ];
  return [
    `${tool.name} (${tool.slug}; ${tool.nameCn}) — category ${tool.category}${tool.categoryCn ? ` (${tool.categoryCn})` : ''}, ${tool.status}, popularity ${tool.popularity}/100`,
    tool.description,
    `Pricing: ${tool.pricing}`,
    `Authentication: ${tool.auth.join('; ')}`,
    facts.join(' · '),
    ...(tool.rateLimit ? [`Rate limit: ${tool.rateLimit}`] : []),
    ...(tool.latency ? [`Latency: ${tool.latency}`] : []),
    ...(tool.maxTokens ? [`Max tokens: ${tool.maxTokens}`] : []),
    `Website: ${tool.website} · Docs: ${tool.docsUrl}`,
    ...listOf('Endpoints', tool.endpoints),
    `SDKs: ${tool.sdks.join(', ')}`,
    ...listOf('Features', tool.features),
    ...listOf('Usage tips', tool.usageTips),
    ...(tool.similarApis.length > 0 ? [`Similar: ${tool.similarApis.map((s) => s.slug).join(', ')}`] : []),
    ...(tool.errors.length > 0 ? [`Known errors (get_errors with provider "${tool.slug}"): ${tool.errors.map((e) => `${e.status} ${e.title}`).join('; ')}`] : []),
    ...(tool.curlExample ? ['Example:', tool.curlExample.trimEnd()] : []),
    `Last checked: ${tool.lastUpdated}`,
  ].join('\n');
}

export function compareText(comparison: CompareResponse): string {
  const rows = comparison.compared.map((tool) =>
    [
      `${tool.slug} — ${tool.name} [${tool.category}], ${tool.status}, popularity ${tool.popularity}`,
      `  Pricing: ${tool.pricing ?? 'unknown'}`,
      `  Free tier: ${tool.freeTier ? 'yes' : 'no'} · OpenAI-compatible: ${tool.openaiCompatible ? 'yes' : 'no'} · auth: ${tool.authType}` +
        (tool.contextTokens ? ` · context: ${tool.contextTokens.toLocaleString('en-US')} tokens` : ''),
      `  Rate limit: ${tool.rateLimit ?? 'unknown'}`,
      `  Latency: ${tool.latency ?? 'unknown'} · Max tokens: ${tool.maxTokens ?? 'none'}`,
      `  SDKs: ${tool.sdks.join(', ')}`,
    ].join('\n'),
  );
  return [
    `${comparison.total} ${comparison.total === 1 ? 'tool' : 'tools'} side by side:`,
    ...rows,
    ...(comparison.notFound.length > 0 ? [`Not in the directory: ${comparison.notFound.join(', ')} (search_tools finds slugs).`] : []),
  ].join('\n');
}

export function categoriesText(list: CategoriesResponse): string {
  return [
    `${list.total} categories, ${list.totalListings} listings:`,
    ...list.categories.map((c) => `- ${c.slug}: ${c.name} (${c.nameCn}) — ${c.count} ${c.count === 1 ? 'listing' : 'listings'}`),
    'Pass a slug as `category` to search_tools or list_tools.',
  ].join('\n');
}

export function errorsText(reference: ErrorsResponse): string {
  const about = [reference.provider ? `provider ${reference.provider}` : '', reference.status !== null ? `status ${reference.status}` : ''].filter(Boolean).join(', ');
  if (reference.errors.length === 0) return `No entries in the error reference${about ? ` for ${about}` : ''}.`;
  return [
    `${reference.total} ${reference.total === 1 ? 'entry' : 'entries'} of the error reference${about ? ` for ${about}` : ''}:`,
    ...reference.errors.map((e, i) => `${i + 1}. ${e.providerName ?? e.provider} ${e.status} — ${e.title}\n   Cause: ${e.cause}\n   Fix: ${e.fix}`),
  ].join('\n');
}
