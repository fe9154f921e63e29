import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  HasHan,
  IsFact,
  IsDomainName,
  IsHttpsUrl,
  IsIsoDate,
  IsNotReservedSlug,
  IsSlug,
  IsTag,
  validatePlain,
  FieldProblem,
  declaredFields,
  canonical,
  Nested,
  apply,
  text,
  list,
  textItems,
} from '../../contract/validation';
import { AUTH_TYPES, AuthType, CODE_LANGUAGES, LISTING_STATUSES, ListingStatus, SDK_LANGUAGES, SdkLanguage, aliasKey } from '../../contract/vocabulary';
import { FactSourcesDto, LifecycleDto, MarketsDto, McpServerDto, ModelDto, PricesDto, ProviderDto, RateLimitsDto } from './listing-facts';



export class CodeExampleDto {
  @IsString({ message: 'must be a string' })
  @Length(1, 120, { message: 'must be 1-120 characters' })
  label: string;

  @IsIn(CODE_LANGUAGES, { message: `must be one of ${CODE_LANGUAGES.join(', ')}` })
  language: string;

  @IsString({ message: 'must be a string' })
  @Length(1, 6000, { message: 'must be 1-6000 characters' })
  code: string;
}


/**
 * One API listing, as an editor writes it in `fixtures/listings/<slug>.yaml` and as events carry it.
 * Every field of the spec's tool listing, with its type and bounds. Shared by ingest and the service.
 */
export class ListingDocumentDto {
  @IsSlug() @IsNotReservedSlug() slug: string;
  @apply(...text(1, 120)) name: string;
  @apply(...text(1, 120)) @HasHan() nameCn: string;
  @IsSlug({ message: 'must be a category slug' }) category: string;
  @apply(...text(20, 300)) description: string;
  @apply(...text(10, 300)) @HasHan() descriptionCn: string;
  @IsHttpsUrl() website: string;
  @IsHttpsUrl() docsUrl: string;
  /** The provider's own domains; URLs of the listing must live on them (a content rule, src/catalog/content/content-rules.ts). */
  @apply(...list(1, 10))
  @IsDomainName({ each: true })
  domains: string[];
  @apply(...text(3, 400)) @IsFact() pricing: string;
  @apply(...list(1, 10), ...textItems(300)) @ArrayUnique({ message: 'lists an item twice' }) auth: string[];
  @apply(...text(3, 400)) @IsFact() @Matches(/\d/, { message: 'must state a number of requests' }) rateLimit: string;
  @apply(...text(2, 200)) @IsFact() latency: string;
  @ValidateIf((o: ListingDocumentDto) => o.maxTokens !== null)
  @apply(...text(1, 120))
  @IsFact()
  maxTokens: string | null;
  @IsInt({ message: 'must be an integer' }) @Min(0, { message: 'must be 0-100' }) @Max(100, { message: 'must be 0-100' })
  popularity: number;
  @apply(...list(1, 30)) @IsHttpsUrl({ each: true, message: 'each item must be an absolute https:// URL without a user name or password' }) @ArrayUnique({ message: 'lists an item twice' })
  endpoints: string[];
  @apply(...list(1, 20), ...textItems(40)) @ArrayUnique({ message: 'lists an item twice' }) sdks: string[];
  @apply(...list(0, 20), ...textItems(300)) features: string[];
  @apply(...list(0, 20), ...textItems(400)) usageTips: string[];
  @IsBoolean({ message: 'must be true or false' }) sponsored: boolean;
  @IsIn(LISTING_STATUSES, { message: `must be one of ${LISTING_STATUSES.join(', ')}` }) status: ListingStatus;
  @apply(...list(1, 30)) @IsTag({ each: true }) @ArrayUnique({ message: 'lists a tag twice' }) tags: string[];
  /** Other names people and agents use for the API or its products (English or Chinese), former names too. */
  @apply(...list(0, 20), ...textItems(60))
  @Matches(/[\p{L}\p{N}]/u, { each: true, message: 'each item must contain a letter or a digit' })
  @ArrayUnique((alias: unknown) => (typeof alias === 'string' ? aliasKey(alias) : alias), { message: 'lists an alias twice (ignoring case, spaces and punctuation)' })
  aliases: string[];
  /**
   * The decision facts below are null when no page of the provider's states them: the directory leaves a
   * fact out rather than guess it, and the listing's note says why.
   *
   * Can a developer call the API without paying (a free tier, free credits that renew, or a free plan)?
   */
  @ValidateIf((o: ListingDocumentDto) => o.freeTier !== null)
  @IsBoolean({ message: 'must be true or false, or null (not stated)' })
  freeTier: boolean | null;
  /** Does the API accept OpenAI's chat-completions wire format (an OpenAI client with another base URL)? */
  @ValidateIf((o: ListingDocumentDto) => o.openaiCompatible !== null)
  @IsBoolean({ message: 'must be true or false, or null (not stated)' })
  openaiCompatible: boolean | null;
  @ValidateIf((o: ListingDocumentDto) => o.authType !== null)
  @IsIn(AUTH_TYPES, { message: `must be one of ${AUTH_TYPES.join(', ')}, or null (not stated)` })
  authType: AuthType | null;
  /** Largest context, in tokens, of the models the listing names; null where the API has no context window. */
  @ValidateIf((o: ListingDocumentDto) => o.contextTokens !== null)
  @IsInt({ message: 'must be an integer number of tokens, or null' })
  @Min(1, { message: 'must be a positive number of tokens, or null' })
  contextTokens: number | null;
  /** `sdks` as normalised identifiers (see SDK_LANGUAGES). */
  @apply(...list(1, 20))
  @IsIn(SDK_LANGUAGES, { each: true, message: `each item must be one of ${SDK_LANGUAGES.join(', ')}` })
  @ArrayUnique({ message: 'lists a language twice' })
  sdkLanguages: SdkLanguage[];
  @apply(...list(0, 10)) @IsSlug({ each: true, message: 'each item must be a listing slug' }) @ArrayUnique({ message: 'lists a listing twice' })
  similarApis: string[];
  @IsIsoDate() lastUpdated: string;
  @apply(...list(1, 10))
  // The list's items checked as mappings: ValidateNested alone lets a list pass as an item.
  @Nested(() => CodeExampleDto, true)
  codeExamples: CodeExampleDto[];
  /** Where the listing is in its life: preview, active, deprecated or retired, with dates and successors. */
  @IsOptional() @Nested(() => LifecycleDto) lifecycle?: LifecycleDto | null;
  /** The provider's machine-readable description of the API (OpenAPI, where one is published). */
  @IsOptional() @IsHttpsUrl() openapiUrl?: string | null;
  /** The provider's status page. */
  @IsOptional() @IsHttpsUrl() statusPageUrl?: string | null;
  /** The models the API serves (listings that sell models), the current ones and those announced to shut down. */
  @IsOptional() @apply(...list(0, 80)) @Nested(() => ModelDto, true) models?: ModelDto[] | null;
  /** Prices as data beside `pricing`. */
  @IsOptional() @Nested(() => PricesDto) prices?: PricesDto | null;
  /** Rate limits as data beside `rateLimit`. */
  @IsOptional() @Nested(() => RateLimitsDto) rateLimits?: RateLimitsDto | null;
  /** Where the listing's own decision facts (auth, free tier, OpenAI compatibility, context) come from. */
  @IsOptional() @Nested(() => FactSourcesDto) sources?: FactSourcesDto | null;
  /** Who runs the API: the company, its country, and where it says it processes or stores data. */
  @IsOptional() @Nested(() => ProviderDto) provider?: ProviderDto | null;
  /** What the listing does, as slugs of the task list (fixtures/tasks.yaml): object-detection, ocr, speech-to-text... */
  @IsOptional() @apply(...list(0, 12)) @IsSlug({ each: true, message: 'each item must be a task slug (fixtures/tasks.yaml)' }) @ArrayUnique({ message: 'lists a task twice' })
  tasks?: string[] | null;
  /** The provider's official MCP servers. */
  @IsOptional() @apply(...list(0, 10)) @Nested(() => McpServerDto, true) mcpServers?: McpServerDto[] | null;
  /** A payment API's markets: buyers' and merchants' countries, settlement currencies, payment methods. */
  @IsOptional() @Nested(() => MarketsDto) markets?: MarketsDto | null;
  /** An editor's remark (sources that disagree, a fact that could not be confirmed); kept with the listing, not served. */
  @IsOptional() @IsString({ message: 'must be a string' }) @Length(1, 1000, { message: 'must be 1-1000 characters' }) note?: string | null;
}

/** The listing as stored in events and read models: a plain object with fields in this fixed order. */
export type ListingDocument = {
  [K in keyof ListingDocumentDto]-?: ListingDocumentDto[K] extends CodeExampleDto[] ? CodeExample[] : Plain<Exclude<ListingDocumentDto[K], undefined>>;
};
/** A DTO's data as plain objects (what events carry): optional fields present, as null when not given. */
export type Plain<T> = T extends Array<infer I> ? Array<Plain<I>> : T extends object ? { [K in keyof T]-?: Plain<Exclude<T[K], undefined>> | (undefined extends T[K] ? null : never) } : T;
export interface CodeExample {
  label: string;
  language: string;
  code: string;
}

/** The fields of a listing in their canonical order: the DTO's. */
export const LISTING_FIELDS = declaredFields(ListingDocumentDto) as Array<keyof ListingDocument>;

/** Validates one listing and returns it in canonical form (field order fixed, plain data only). */
export function parseListing(plain: unknown): { listing?: ListingDocument; problems: FieldProblem[] } {
  const { value, problems } = validatePlain(ListingDocumentDto, plain);
  if (!value) return { problems };
  return { listing: canonical(ListingDocumentDto, value) as unknown as ListingDocument, problems };
}
