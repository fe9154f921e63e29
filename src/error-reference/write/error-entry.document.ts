import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { canonical, FieldProblem, HasHan, IsSlug, validatePlain } from '../../contract/validation';

/** One entry of the published error reference: an error a listed provider returns, and what to do. */
export class ErrorEntryDocumentDto {
  @IsSlug({ message: 'must be the slug of a listing' }) provider: string;
  @IsInt({ message: 'must be an integer' }) @Min(100, { message: 'must be an HTTP status (100-599)' }) @Max(599, { message: 'must be an HTTP status (100-599)' })
  status: number;
  @IsString({ message: 'must be a string' }) @Length(2, 120, { message: 'must be 2-120 characters' })
  @Matches(/[a-z0-9]/i, { message: 'must contain Latin letters or digits (it names the entry)' })
  title: string;
  @IsString({ message: 'must be a string' }) @Length(1, 120, { message: 'must be 1-120 characters' }) @HasHan() titleCn: string;
  @IsString({ message: 'must be a string' }) @Length(10, 1000, { message: 'must be 10-1000 characters' }) cause: string;
  @IsString({ message: 'must be a string' }) @Length(5, 1000, { message: 'must be 5-1000 characters' }) @HasHan() causeCn: string;
  @IsString({ message: 'must be a string' }) @Length(10, 1000, { message: 'must be 10-1000 characters' }) fix: string;
  @IsString({ message: 'must be a string' }) @Length(5, 1000, { message: 'must be 5-1000 characters' }) @HasHan() fixCn: string;
  @IsOptional() @IsString({ message: 'must be a string' }) @Length(1, 3000, { message: 'must be 1-3000 characters' }) curlExample?: string | null;
  /** An editor's remark (e.g. a published figure that looks wrong); kept with the entry, not served. */
  @IsOptional() @IsString({ message: 'must be a string' }) @Length(1, 1000, { message: 'must be 1-1000 characters' }) note?: string | null;
}

/** An error entry as stored in events and read models: the DTO's fields, in its order, absent ones null. */
export type ErrorEntryDocument = { [K in keyof ErrorEntryDocumentDto]-?: Exclude<ErrorEntryDocumentDto[K], undefined> };

/** Identity of an entry: provider, status and title, e.g. `openai-429-rate-limit-exceeded`. */
export function errorEntryId(entry: Pick<ErrorEntryDocument, 'provider' | 'status' | 'title'>): string {
  const title = entry.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${entry.provider}-${entry.status}-${title}`;
}

export function parseErrorEntry(plain: unknown): { entry?: ErrorEntryDocument; problems: FieldProblem[] } {
  const { value, problems } = validatePlain(ErrorEntryDocumentDto, plain);
  if (!value) return { problems };
  return { entry: canonical(ErrorEntryDocumentDto, value) as ErrorEntryDocument, problems };
}
