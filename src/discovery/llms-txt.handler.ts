import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Categories } from '../categories/categories';
import { NO_FILTERS } from '../contract/listing-filters';
import type { ToolSummary } from '../contract/listing-views';
import { FILTER_LIST } from '../contract/listing-filters';
import type { ToolDetailResponse } from '../contract/responses';
import { DECISION_FACT_NAMES, NOT_STATED, yesNoText } from '../contract/vocabulary';
import { unconfirmedFacts } from '../listings/write/listing-facts';
import { ReadModels } from '../projections/read-models.service';
import { ResponseCache } from '../projections/response-cache';
import { LiveSearchIndex } from '../search/live-search-index';
import { SearchBudget } from '../operations/search-budget';
import { storedBody, StoredBody } from '../http/stored-body';
import { GetLlmsTextQuery } from './llms-txt.query';
import { MCP_TOOL_NAMES } from '../http/mcp-paths';
import { ENTRY_POINTS } from './service-index';

/** Listings named per category in llms.txt, most popular first (the list endpoint pages through all). */
export const LLMS_PER_CATEGORY = 50;
/** Listings written out in full in llms-full.txt, most popular first. */
export const LLMS_FULL_LISTINGS = 1000;

/**
 * llms.txt and llms-full.txt (the llms.txt format: a title, a summary, sections of links), made from the
 * read models and this process's search index, and kept in the read cache until the catalog changes.
 */
@QueryHandler(GetLlmsTextQuery)
export class GetLlmsTextHandler implements IQueryHandler<GetLlmsTextQuery, StoredBody> {
  constructor(
    private readonly readModels: ReadModels,
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
    private readonly categories: Categories,
    private readonly budget: SearchBudget,
  ) {}

  async execute({ full, baseUrl, client }: GetLlmsTextQuery): Promise<StoredBody> {
    const key = `${full ? 'llms-full' : 'llms'}:${baseUrl}`;
    const cached = this.responses.cachedResponse(key);
    if (cached) return cached;
    // A render is as costly as a search (llms-full.txt is megabytes at thousands of listings).
    await this.budget.spend(client);
    return this.responses.response(key, async () => storedBody(full ? await this.fullText(baseUrl) : await this.text(baseUrl)));
  }

  private async text(base: string): Promise<string> {
    const index = await this.search.current();
    const lines = [...this.head(base, index.size)];
    for (const category of this.categories.all) {
      const page = index.browse({ ...NO_FILTERS, category: category.slug }, { limit: LLMS_PER_CATEGORY });
      if (page.total === 0) continue;
      lines.push('', `## ${category.name} (${category.nameCn})`, '');
      for (const listing of page.listings) {
        const { slug, name, nameCn, description } = JSON.parse(listing.summary) as ToolSummary;
        lines.push(`- [${name} (${nameCn})](${base}/api/v1/tools/${slug}): ${description}`);
      }
      if (page.total > page.listings.length) {
        lines.push(`- [All ${page.total} ${category.name} APIs](${base}${ENTRY_POINTS.tools}?category=${category.slug}): the rest, by popularity, a page at a time`);
      }
    }
    lines.push('', '## Optional', '', `- [Every listing in full](${base}${ENTRY_POINTS.llmsFullTxt}): pricing, authentication, limits, endpoints and a curl example for each`);
    return `${lines.join('\n')}\n`;
  }

  private async fullText(base: string): Promise<string> {
    const index = await this.search.current();
    const slugs = index.browse(NO_FILTERS, { limit: LLMS_FULL_LISTINGS }).listings.map((listing) => listing.slug);
    const details = await this.readModels.details(slugs);
    const lines = [...this.head(base, index.size)];
    if (index.size > slugs.length) lines.push('', `The ${slugs.length} most popular of ${index.size} APIs follow; ${base}${ENTRY_POINTS.tools} lists them all.`);
    for (const stored of details) {
      if (!stored) continue;
      const tool = (JSON.parse(stored.body.toString()) as ToolDetailResponse).tool;
      lines.push(
        '',
        `## ${tool.name} (${tool.nameCn})`,
        '',
        tool.description,
        tool.descriptionCn,
        '',
        `- Listing, with the source of each fact and the day it was checked: ${base}/api/v1/tools/${tool.slug}`,
        `- Category: ${tool.category}${tool.categoryCn ? ` (${tool.categoryCn})` : ''}; status: ${tool.status}; facts checked ${tool.lastUpdated}`,
        ...(tool.aliases.length > 0 ? [`- Also known as: ${tool.aliases.join(', ')}`] : []),
        `- Website: ${tool.website}; documentation: ${tool.docsUrl}`,
        `- Pricing: ${tool.pricing} (free tier: ${yesNoText(tool.freeTier)})`,
        `- Authentication (${tool.authType ?? `scheme ${NOT_STATED}`}): ${tool.auth.join('; ')}`,
        ...(tool.rateLimit ? [`- Rate limit: ${tool.rateLimit}`] : []),
        ...(tool.maxTokens ? [`- Context: ${tool.maxTokens}`] : []),
        `- OpenAI-compatible chat completions: ${yesNoText(tool.openaiCompatible)}`,
        ...unconfirmedLine(tool),
        `- SDKs: ${tool.sdks.join(', ')}`,
        `- Endpoints: ${tool.endpoints.join(', ')}`,
        ...(tool.curlExample ? ['', '```bash', tool.curlExample.trimEnd(), '```'] : []),
      );
    }
    return `${lines.join('\n')}\n`;
  }

  /** The title, the summary and how to reach the directory. */
  private head(base: string, listings: number): string[] {
    return [
      '# API Directory',
      '',
      `> A read-only directory of ${listings} third-party web APIs (chiefly AI, language-model and cloud APIs) for agents and developers: search, compare, read a full listing with code examples, and look up the errors providers return. Bilingual (English and Chinese); no key needed.`,
      '',
      'Every listing states pricing, authentication, rate limits, endpoints and a curl example; search understands product names, typos and Chinese, and filters on free tier, OpenAI compatibility, authentication, context size and SDK language.',
      '',
      '## Agent access',
      '',
      `- [MCP server](${base}${ENTRY_POINTS.mcp}): Streamable HTTP; tools ${MCP_TOOL_NAMES.join(', ')}`,
      `- [OpenAPI document](${base}${ENTRY_POINTS.openapi}): every operation, parameter and response schema`,
      `- [List every API](${base}${ENTRY_POINTS.tools}): summaries by popularity, with filters and a cursor for the next page`,
      `- [Search](${base}/api/v1/tools/search?q=text%20to%20speech): ranked, with filters (${FILTER_LIST})`,
      `- [Models](${base}${ENTRY_POINTS.models}?input=image&minContext=200k&sort=price&priceUnit=1m-input-tokens): every model across providers, each with every provider that serves it; filters on modality, context, capabilities, lifecycle, price, open weights, and sorts by price in a unit, context or release (one model: ${base}${ENTRY_POINTS.models}/gpt-oss-120b)`,
      `- [Tasks](${base}${ENTRY_POINTS.tasks}): what listings do (OCR, text to speech...), the values of the task= filter`,
      `- [Categories](${base}${ENTRY_POINTS.categories}): every category with its count`,
      `- [Error reference](${base}${ENTRY_POINTS.errors}): common errors of listed providers, their cause and fix`,
      `- [Change feed](${base}${ENTRY_POINTS.changes}): what was published, revised or withdrawn, oldest first, from a cursor (also Atom: ${base}${ENTRY_POINTS.changesAtom})`,
      `- [Liveness](${base}${ENTRY_POINTS.liveness}): whether what each listing points at still answers, from the directory's own probes, by state (ok, degraded, down, unchecked; also the live= filter)`,
    ];
  }
}

/** The line naming the facts above that no page of the provider's confirms yet (none when all are sourced). */
function unconfirmedLine(tool: ToolDetailResponse['tool']): string[] {
  const facts = unconfirmedFacts(tool);
  return facts.length > 0 ? [`- Not yet confirmed on the provider's pages: ${facts.map((fact) => DECISION_FACT_NAMES[fact]).join(', ')}`] : [];
}
