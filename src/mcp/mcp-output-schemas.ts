import { z } from 'zod';
import { AUTH_TYPES, LISTING_STATUSES } from '../listings/listing.document';

/**
 * The tools' output schemas: the JSON bodies of the read API (see src/openapi/openapi.document.ts), which
 * the tools return as they are in `structuredContent`. They declare the fields an agent relies on, with
 * their types; objects stay open (`looseObject`) so a field added to the API later does not break the
 * tools, and the SDK checks every result against them before sending it.
 */
const strings = z.array(z.string());
const nullableString = z.string().nullable();
const links = z.record(z.string(), z.union([z.string(), strings])).describe('Related resources of the HTTP API (paths).');
const nextCursor = nullableString.describe('Pass as `cursor`, with the same other arguments, for the next page; null on the last page.');

const filters = z
  .looseObject({
    category: nullableString,
    freeTier: z.boolean().nullable(),
    openaiCompatible: z.boolean().nullable(),
    auth: z.enum(AUTH_TYPES).nullable(),
    minContext: z.number().int().nullable(),
    sdk: nullableString,
  })
  .describe('The filters applied (null: not set).');

/** The facts agents decide by, in every view of a listing. */
const facts = {
  aliases: strings,
  freeTier: z.boolean().describe('Usable without paying, on an ongoing basis.'),
  openaiCompatible: z.boolean().describe("Accepts OpenAI's chat-completions wire format."),
  authType: z.enum(AUTH_TYPES).describe('The primary authentication scheme.'),
  contextTokens: z.number().int().nullable().describe('Largest context in tokens; null where the API has none.'),
  sdkLanguages: strings,
  referralUrl: nullableString,
  curlExample: nullableString,
};

const summaryFields = {
  slug: z.string(),
  name: z.string(),
  nameCn: z.string(),
  category: z.string(),
  categoryCn: nullableString,
  description: z.string(),
  descriptionCn: z.string(),
  pricing: z.string(),
  popularity: z.number().int(),
  status: z.enum(LISTING_STATUSES),
  website: z.string(),
  docsUrl: z.string(),
  auth: strings,
  tags: strings,
  sponsored: z.boolean(),
  ...facts,
};

export const toolSummarySchema = z.looseObject(summaryFields);

const searchResult = z.looseObject({
  ...summaryFields,
  score: z.number().describe('Relevance (0 when browsing).'),
  matched: strings.describe('Fields where the query matched.'),
});

export const searchOutputSchema = z.looseObject({
  success: z.literal(true),
  total: z.number().int().describe('Matching listings in all (before limit).'),
  returned: z.number().int(),
  query: nullableString,
  category: nullableString,
  limit: z.number().int().describe('The limit applied.'),
  filters,
  terms: strings.describe('The terms searched for, after synonyms, typo corrections and prefix completion.'),
  interpretation: z.array(z.looseObject({ input: z.string(), matchedAs: strings, via: strings })),
  nextCursor,
  results: z.array(searchResult),
  _links: links,
});

export const listOutputSchema = z.looseObject({
  success: z.literal(true),
  total: z.number().int().describe('Listings that pass the filters.'),
  returned: z.number().int(),
  limit: z.number().int(),
  filters,
  nextCursor,
  categories: strings.describe('Every category slug.'),
  tools: z.array(toolSummarySchema),
  _links: links,
});

const errorFields = {
  status: z.number().int(),
  title: z.string(),
  titleCn: z.string(),
  cause: z.string(),
  causeCn: z.string(),
  fix: z.string(),
  fixCn: z.string(),
  curlExample: nullableString,
};

/** What a detail and a comparison row both tell beyond the summary. */
const specFields = {
  rateLimit: nullableString,
  latency: nullableString,
  maxTokens: nullableString,
  endpoints: strings,
  sdks: strings,
  features: strings,
};

export const detailOutputSchema = z.looseObject({
  success: z.literal(true),
  tool: z.looseObject({
    ...summaryFields,
    ...specFields,
    usageTips: strings,
    codeExamples: z.array(z.looseObject({ label: z.string(), title: z.string(), language: z.string(), code: z.string() })),
    lastUpdated: z.string(),
    similarApis: z.array(z.looseObject({ slug: z.string(), name: z.string(), popularity: z.number().int(), description: z.string() })),
    pricingComparison: z.array(z.looseObject({ slug: z.string(), name: z.string(), pricing: z.string(), auth: strings, popularity: z.number().int() })),
    errors: z.array(z.looseObject(errorFields)),
  }),
  _links: links,
});

export const compareOutputSchema = z.looseObject({
  success: z.literal(true),
  total: z.number().int(),
  compared: z.array(
    z.looseObject({
      ...summaryFields,
      pricing: nullableString,
      ...specFields,
      lastUpdated: z.string(),
    }),
  ),
  notFound: strings.describe('Requested slugs that are not in the directory.'),
  _links: links,
});

export const categoriesOutputSchema = z.looseObject({
  success: z.literal(true),
  total: z.number().int().describe('Number of categories.'),
  totalListings: z.number().int(),
  categories: z.array(z.looseObject({ slug: z.string(), name: z.string(), nameCn: z.string(), count: z.number().int() })),
  _links: links,
});

export const errorsOutputSchema = z.looseObject({
  success: z.literal(true),
  total: z.number().int(),
  provider: nullableString,
  status: z.number().int().nullable(),
  errors: z.array(z.looseObject({ id: z.string(), provider: z.string(), providerName: nullableString, ...errorFields })),
  _links: links,
});

export type SearchOutput = z.infer<typeof searchOutputSchema>;
export type ListOutput = z.infer<typeof listOutputSchema>;
export type DetailOutput = z.infer<typeof detailOutputSchema>;
export type CompareOutput = z.infer<typeof compareOutputSchema>;
export type CategoriesOutput = z.infer<typeof categoriesOutputSchema>;
export type ErrorsOutput = z.infer<typeof errorsOutputSchema>;
export type ToolSummary = z.infer<typeof toolSummarySchema>;
