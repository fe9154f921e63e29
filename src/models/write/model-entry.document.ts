import { ArrayUnique, IsOptional, Matches } from 'class-validator';
import { type Plain } from '../../listings/write/listing.document';
import { aliasKey } from '../../contract/vocabulary';
import { SourceDto } from '../../listings/write/listing-facts';
import { MODEL_ENTRY_ID } from '../../contract/vocabulary';
import { apply, canonical, FieldProblem, IsDomainName, IsIsoDate, IsHttpsUrl, IsSlug, list, Nested, text, textItems, validatePlain } from '../../contract/validation';

/** The weights of an open model: the licence they come under and where they are published. */
export class OpenWeightsDto {
  /** The licence's SPDX id where it has one (Apache-2.0, MIT), else its name (Llama 4 Community License). */
  @apply(...text(2, 80)) licence: string;
  /** Where the weights and the licence are published. */
  @IsHttpsUrl() url: string;
}

/**
 * A model entry, as an editor writes it in `fixtures/models/<id>.yaml`: one upstream model, whoever serves
 * it. Listings offer it in their `models` (each offer names the entry in `canonical`, under the id its own
 * API takes); what the model is (who made it, its family, its weights, when it came out) is written here once.
 */
export class ModelEntryDocumentDto {
  /** The model's id in the directory: lowercase, as its maker writes it (`gpt-oss-120b`, `deepseek-v3.2`). */
  @Matches(MODEL_ENTRY_ID, { message: 'must be 2-80 lowercase letters, digits, and single dots or hyphens between them' }) id: string;
  @apply(...text(1, 100)) name: string;
  /** The family it belongs to (`gpt-oss`, `llama-4`, `qwen3`). */
  @Matches(MODEL_ENTRY_ID, { message: 'must be lowercase letters, digits, dots and hyphens' }) family: string;
  /** Who made it. */
  @apply(...text(1, 120)) creator: string;
  /** The maker's listing in the directory, where it has one. */
  @IsOptional() @IsSlug({ message: 'must be the slug of a listing' }) creatorListing?: string | null;
  /** The maker's own domains; the sources of this entry must live on them (or be a pinned repository file). */
  @apply(...list(1, 10)) @IsDomainName({ each: true })
  domains: string[];
  /** Other names people use for it. */
  @IsOptional() @apply(...list(0, 20), ...textItems(60)) @ArrayUnique((alias: unknown) => (typeof alias === 'string' ? aliasKey(alias) : alias), { message: 'lists an alias twice (ignoring case, spaces and punctuation)' })
  aliases?: string[] | null;
  /** Open weights and their licence; null for a model whose weights are not published. */
  @IsOptional() @Nested(() => OpenWeightsDto) openWeights?: OpenWeightsDto | null;
  /** The day the maker released it, where it says. */
  @IsOptional() @IsIsoDate() releaseDate?: string | null;
  /** The knowledge cutoff the maker states (YYYY-MM or YYYY-MM-DD). */
  @IsOptional() @Matches(/^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/, { message: 'must be YYYY-MM or YYYY-MM-DD' }) knowledgeCutoff?: string | null;
  /** The maker's page that states what the entry says (identity, release, licence). */
  @Nested(() => SourceDto) source: SourceDto;
  /** An editor's remark; kept with the entry, not served. */
  @IsOptional() @apply(...text(1, 1000)) note?: string | null;
}

/** A model entry as stored in events and read models: the DTO's fields, in its order, absent ones null. */
export type ModelEntryDocument = { [K in keyof ModelEntryDocumentDto]-?: Plain<Exclude<ModelEntryDocumentDto[K], undefined>> };

export function parseModelEntry(plain: unknown): { entry?: ModelEntryDocument; problems: FieldProblem[] } {
  const { value, problems } = validatePlain(ModelEntryDocumentDto, plain);
  if (!value) return { problems };
  return { entry: canonical(ModelEntryDocumentDto, value) as unknown as ModelEntryDocument, problems };
}
