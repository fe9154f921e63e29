import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parse } from 'yaml';
import { documentDigest } from '../../event-store/content-digest';
import { ErrorEntryDocument, errorEntryId, parseErrorEntry } from '../../error-reference/write/error-entry.document';
import { ListingDocument, parseListing } from '../../listings/write/listing.document';
import { ModelEntryDocument, parseModelEntry } from '../../models/write/model-entry.document';
import type { Categories } from '../../categories/categories';
import { catalogRules, claimedDomainRule, domainHolders, domainRule, errorEntryRules, listingRules, modelEntryRules, pastShutdownRule, recheckRule } from './content-rules';
import { firstInvalidUtf8, lineAt, MAX_FILE_BYTES, MAX_NESTING_DEPTH, nestingProblem, repeatedKey } from './file-checks';
import { textProblems } from './text-rules';

/** A problem with an editor's file, reported as `file: field: reason`. */
export interface ContentProblem {
  file: string;
  field: string;
  reason: string;
}

export interface LoadedListing {
  file: string;
  listing: ListingDocument;
  /** documentDigest of the listing (worked out where the file was read: on a reading thread in bulk). */
  digest: string;
  /** The version the file says it was based on (`basedOnVersion`, written by `ingest export`), if it says. */
  basedOn?: number;
}
export interface LoadedErrorEntry {
  file: string;
  id: string;
  entry: ErrorEntryDocument;
  digest: string;
  basedOn?: number;
}

export interface LoadedModelEntry {
  file: string;
  entry: ModelEntryDocument;
  digest: string;
  basedOn?: number;
}

export interface LoadedContent {
  listings: LoadedListing[];
  errorEntries: LoadedErrorEntry[];
  modelEntries: LoadedModelEntry[];
  problems: ContentProblem[];
}

const CONTENT_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
/** Files in a content folder that are not listings or error entries. */
const NOT_CONTENT = new Set(['categories.yaml', 'categories.yml', 'categories.json', 'tasks.yaml', 'package.json']);

export function formatProblem(problem: ContentProblem): string {
  return `${problem.file}: ${problem.field}: ${problem.reason}`;
}

/** Every content file under the given files and folders, sorted, each once. */
export function collectFiles(paths: string[]): { files: string[]; problems: ContentProblem[] } {
  const files = new Set<string>();
  const problems: ContentProblem[] = [];
  const visitFolder = (folder: string) => {
    // Entry types come with the listing: no stat per file (100,000 of them cost half a second).
    const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visitFolder(path);
      else if (entry.isSymbolicLink()) visit(path, false);
      else if (entry.isFile() && isContentFile(path, false)) files.add(path);
      else if (entry.isFile() && misnamedContent(path)) problems.push({ file: path, field: '(file)', reason: MISNAMED });
    }
  };
  const visit = (path: string, explicit: boolean) => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      problems.push({ file: path, field: '(file)', reason: 'does not exist' });
      return;
    }
    if (stats.isDirectory()) visitFolder(path);
    else if (isContentFile(path, explicit)) files.add(path);
    else if (misnamedContent(path)) problems.push({ file: path, field: '(file)', reason: MISNAMED });
    else if (explicit) problems.push({ file: path, field: '(file)', reason: 'must be a .yaml, .yml or .json file' });
  };
  for (const path of paths) visit(path, true);
  return { files: [...files].sort(), problems };
}

const MISNAMED = 'its extension must be lower case (.yaml, .yml or .json): the file would be left out';

/** A file that looks like content but whose extension is not in lower case (`openai.YAML`): refused, not skipped unseen. */
function misnamedContent(path: string): boolean {
  const extension = extname(path);
  return !CONTENT_EXTENSIONS.has(extension) && CONTENT_EXTENSIONS.has(extension.toLowerCase());
}

/** Content by its extension; the files of NOT_CONTENT count only when named on the command line. */
function isContentFile(path: string, explicit: boolean): boolean {
  return CONTENT_EXTENSIONS.has(extname(path)) && (explicit || !NOT_CONTENT.has(basename(path)));
}

/** One file read and validated on its own (the rules that need other files come after, in assemble). */
export interface FileReading {
  file: string;
  /** The slug a listing file claims, valid or not (so one bad file is reported once, not as a broken reference too). */
  slug?: string;
  listing?: ListingDocument;
  errorEntry?: { id: string; entry: ErrorEntryDocument };
  modelEntry?: ModelEntryDocument;
  /** The id a model entry file claims, valid or not (so one bad file is reported once, not as a broken reference too). */
  modelId?: string;
  /** documentDigest of the valid listing, error entry or model entry. */
  digest?: string;
  /** The version the file was based on (its `basedOnVersion`), if given. */
  basedOn?: number;
  problems: ContentProblem[];
}

/** The field of a file that names the version it was based on: file metadata, not part of the document. */
export const BASED_ON_FIELD = 'basedOnVersion';

/**
 * Reads and validates one file. Before its schema: at most MAX_FILE_BYTES (from the file's size, before
 * reading it), valid UTF-8 (the offset of the first bad byte named), nested at most MAX_NESTING_DEPTH
 * levels; then a listing's slug must be its file's name (a file may not stand in for another listing),
 * and no text field may hold HTML.
 */
export function readContentFile(file: string): FileReading {
  const refuse = (field: string, reason: string): FileReading => ({ file, problems: [{ file, field, reason }] });
  const parsed = parsedFile(file);
  if ('reason' in parsed) return refuse(parsed.field, parsed.reason);
  let { plain } = parsed;
  let record = (plain && typeof plain === 'object' ? plain : {}) as Record<string, unknown>;
  let basedOn: number | undefined;
  if (BASED_ON_FIELD in record && !Array.isArray(record)) {
    const { [BASED_ON_FIELD]: given, ...document } = record;
    if (!Number.isInteger(given) || (given as number) < 1) return refuse(BASED_ON_FIELD, 'must be the whole number of the version the file was based on (ingest export writes it)');
    basedOn = given as number;
    plain = record = document;
  }
  if ('slug' in record) {
    const { listing, problems } = parseListing(plain);
    const slug = typeof record.slug === 'string' ? record.slug : undefined;
    const name = basename(file, extname(file));
    const named = slug !== undefined && slug !== name ? [{ field: 'slug', reason: `'${slug}' must match the file name ('${name}')` }] : [];
    const text = textProblems(plain, (field) => /^codeExamples\.\d+\.code$/.test(field));
    const rules = listing ? listingRules(listing) : [];
    return {
      file,
      slug,
      listing,
      digest: listing && documentDigest(listing),
      basedOn,
      problems: [...problems, ...named, ...text, ...rules].map((p) => ({ file, ...p })),
    };
  }
  if ('family' in record) {
    const { entry, problems } = parseModelEntry(plain);
    const id = typeof record.id === 'string' ? record.id : undefined;
    const name = basename(file, extname(file));
    const named = id !== undefined && id !== name ? [{ field: 'id', reason: `'${id}' must match the file name ('${name}')` }] : [];
    const text = textProblems(plain, () => false);
    const rules = entry ? modelEntryRules(entry) : [];
    return {
      file,
      modelId: id,
      modelEntry: entry,
      digest: entry && documentDigest(entry),
      basedOn,
      problems: [...problems, ...named, ...text, ...rules].map((p) => ({ file, ...p })),
    };
  }
  if ('provider' in record || 'status' in record) {
    const { entry, problems } = parseErrorEntry(plain);
    const text = textProblems(plain, (field) => field === 'curlExample');
    const rules = entry ? errorEntryRules(entry) : [];
    return {
      file,
      errorEntry: entry && { id: errorEntryId(entry), entry },
      digest: entry && documentDigest(entry),
      basedOn,
      problems: [...problems, ...text, ...rules].map((p) => ({ file, ...p })),
    };
  }
  return refuse('(document)', 'is neither a listing (no `slug`), a model entry (no `family`) nor an error entry (no `provider` and `status`)');
}

/** What a file holds, parsed (JSON or YAML by its extension), or why it cannot be read as a document. */
function parsedFile(file: string): { plain: unknown } | { field: string; reason: string } {
  const problem = (field: string, reason: string) => ({ field, reason });
  const format = extname(file) === '.json' ? 'JSON' : 'YAML';
  let bytes: Buffer;
  try {
    const read = readAtMost(file, MAX_FILE_BYTES);
    if (typeof read === 'number') {
      return problem('(file)', `is ${read} bytes, more than the limit of ${MAX_FILE_BYTES} bytes (1 MiB) for one file`);
    }
    bytes = read;
  } catch (error) {
    return problem('(file)', `cannot be read: ${(error as Error).message}`);
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    return problem('(file)', `not valid UTF-8: invalid byte sequence at byte offset ${offset} (line ${lineAt(bytes, offset)})`);
  }
  let plain: unknown;
  try {
    plain = format === 'JSON' ? JSON.parse(text) : parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // The YAML parser recurses into nested collections: thousands of levels exhaust its stack.
    if (error instanceof RangeError || message.includes('Maximum call stack size exceeded')) {
      return problem('(document)', `nested more than ${MAX_NESTING_DEPTH} levels deep (lists and mappings inside each other)`);
    }
    return problem('(file)', `not valid ${format}: ${message.split('\n')[0]}`);
  }
  if (format === 'JSON') {
    // YAML refuses a key given twice; JSON.parse keeps the last value without a word.
    const twice = repeatedKey(text);
    if (twice) return problem('(file)', `not valid JSON: the key ${JSON.stringify(twice.key)} is given twice in one object (line ${twice.line}); only one value can count`);
  }
  return nestingProblem(plain) ?? { plain };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The file's bytes, or its size when that is over `limit`: the size is read from the open file, so a huge
 * file is refused before anything of it is read, at no extra system call (reading a whole file stats it anyway).
 */
function readAtMost(file: string, limit: number): Buffer | number {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > limit) return size;
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, bytes, filled, size - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return bytes.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/**
 * What the directory holds now, as far as the rules need it. Content read for a check with no store
 * (`npm run check:content`) is the whole directory: NO_DIRECTORY.
 */
export interface DirectoryHoldings {
  /** Which of these listings the directory holds now (references to listings outside the files). */
  holds(slugs: string[]): Promise<Set<string>>;
  /** Which of these model entries the directory holds now (offers naming entries outside the files). */
  holdsModels(ids: string[]): Promise<Set<string>>;
  /** Every listing the directory holds now, by slug: asked only when some file changes a listing. */
  listings(): Promise<Map<string, ListingDocument>>;
  /** Whether a file's document differs from what the directory holds (those that do not were checked when published). */
  differs(kind: DocumentKind, id: string, digest: string): boolean;
  /** The editor confirmed that revisions may add domains (`ingest --allow-new-domains`). */
  allowNewDomains?: boolean;
}

/** The kinds of document an editor writes. */
export type DocumentKind = 'listing' | 'error-entry' | 'model';

export const NO_DIRECTORY: DirectoryHoldings = { holds: async () => new Set(), holdsModels: async () => new Set(), listings: async () => new Map(), differs: () => true };

/**
 * Reads and validates every file, applying every content rule: each file is a listing (has `slug`) or an
 * error entry (has `provider` and `status`). Cross-file rules: no slug or entry twice, known categories,
 * references (similar APIs, error providers) to listings that exist in these files or in the directory,
 * and the rules across listings (content-rules.ts).
 */
export async function loadContent(paths: string[], categories: Categories, directory: DirectoryHoldings = NO_DIRECTORY): Promise<LoadedContent> {
  const { files, problems } = collectFiles(paths);
  return assembleContent(files.map(readContentFile), problems, categories, directory);
}

/**
 * The cross-file rules over files read one by one (see loadContent): references to listings that are in
 * none of the files are looked up in the directory, all in one call; names and aliases are compared with
 * the directory's other listings, and revisions with the listings they revise, when a file changes one.
 */
export async function assembleContent(
  readings: FileReading[],
  problems: ContentProblem[],
  categories: Categories,
  directory: DirectoryHoldings,
): Promise<LoadedContent> {
  const inFiles = new Set(readings.map((r) => r.slug).filter((slug): slug is string => slug !== undefined));
  const modelsInFiles = new Set(readings.map((r) => r.modelId).filter((id): id is string => id !== undefined));
  const referenced = new Set<string>();
  const referencedModels = new Set<string>();
  for (const { listing, errorEntry, modelEntry } of readings) {
    for (const slug of [...(listing?.similarApis ?? []), ...(listing?.lifecycle?.replacedBy ?? [])]) if (!inFiles.has(slug)) referenced.add(slug);
    if (errorEntry && !inFiles.has(errorEntry.entry.provider)) referenced.add(errorEntry.entry.provider);
    if (modelEntry?.creatorListing && !inFiles.has(modelEntry.creatorListing)) referenced.add(modelEntry.creatorListing);
    for (const model of listing?.models ?? []) if (model.canonical && !modelsInFiles.has(model.canonical)) referencedModels.add(model.canonical);
  }
  const published = referenced.size > 0 ? await directory.holds([...referenced]) : new Set<string>();
  const publishedModels = referencedModels.size > 0 ? await directory.holdsModels([...referencedModels]) : new Set<string>();
  const content = assemble(readings, problems, categories, published, publishedModels);
  // Only listings that change are checked against the directory: the others were, when they were published.
  const changed = content.listings.filter(({ listing, digest }) => directory.differs('listing', listing.slug, digest));
  if (changed.length === 0) return content;
  const held = await directory.listings();
  const unchanged = content.listings.filter((loaded) => !changed.includes(loaded)).map(({ listing }) => listing);
  const others = [...held.values()].filter((listing) => !inFiles.has(listing.slug));
  content.problems.push(...catalogRules(changed, [...others, ...unchanged]));
  for (const { file, listing } of changed) {
    for (const problem of recheckRule(listing, held.get(listing.slug) ?? null)) content.problems.push({ file, ...problem });
    // An ingest refuses a shutdown day already past; check:content (no directory) lists it as a warning.
    if (directory !== NO_DIRECTORY) for (const problem of pastShutdownRule(listing)) content.problems.push({ file, ...problem });
  }
  if (!directory.allowNewDomains) {
    const holders = domainHolders(others);
    for (const { file, listing } of changed) {
      const previous = held.get(listing.slug) ?? null;
      const problem = previous ? domainRule(listing, previous) : claimedDomainRule(listing, holders);
      if (problem) content.problems.push({ file, ...problem });
    }
  }
  return content;
}
/** The cross-file rules over files read and validated one by one (in the order of the files). */
function assemble(readings: FileReading[], problems: ContentProblem[], categories: Categories, published: Set<string>, publishedModels: Set<string>): LoadedContent {
  const listings: LoadedListing[] = [];
  const errorEntries: LoadedErrorEntry[] = [];
  const modelEntries: LoadedModelEntry[] = [];
  const slugsInFiles = new Set<string>();
  const modelsInFiles = new Set<string>();
  for (const reading of readings) {
    problems.push(...reading.problems);
    if (reading.slug !== undefined) slugsInFiles.add(reading.slug);
    if (reading.modelId !== undefined) modelsInFiles.add(reading.modelId);
    if (reading.listing) listings.push({ file: reading.file, listing: reading.listing, digest: reading.digest!, basedOn: reading.basedOn });
    if (reading.errorEntry) errorEntries.push({ file: reading.file, ...reading.errorEntry, digest: reading.digest!, basedOn: reading.basedOn });
    if (reading.modelEntry) modelEntries.push({ file: reading.file, entry: reading.modelEntry, digest: reading.digest!, basedOn: reading.basedOn });
  }

  const slugFiles = new Map<string, string>();
  for (const { file, listing } of listings) {
    const other = slugFiles.get(listing.slug);
    if (other) problems.push({ file, field: 'slug', reason: `'${listing.slug}' is also the slug of ${other}` });
    else slugFiles.set(listing.slug, file);
    if (!categories.has(listing.category)) {
      problems.push({ file, field: 'category', reason: `unknown category '${listing.category}' (known: ${categories.all.map((c) => c.slug).join(', ')})` });
    }
    (listing.tasks ?? []).forEach((task, i) => {
      if (!categories.task(task)) problems.push({ file, field: `tasks.${i}`, reason: `unknown task '${task}' (the tasks are those of fixtures/tasks.yaml)` });
    });
  }
  const modelExists = (id: string) => modelsInFiles.has(id) || publishedModels.has(id);
  for (const { file, listing } of listings) {
    (listing.models ?? []).forEach((model, i) => {
      if (model.canonical && !modelExists(model.canonical)) problems.push({ file, field: `models.${i}.canonical`, reason: `no model entry '${model.canonical}' (fixtures/models/${model.canonical}.yaml)` });
    });
  }
  const modelFiles = new Map<string, string>();
  for (const { file, entry } of modelEntries) {
    const other = modelFiles.get(entry.id);
    if (other) problems.push({ file, field: 'id', reason: `'${entry.id}' is also the id of ${other}` });
    else modelFiles.set(entry.id, file);
  }
  const exists = (slug: string) => slugsInFiles.has(slug) || published.has(slug);
  for (const { file, listing } of listings) {
    listing.similarApis.forEach((slug, i) => {
      if (slug === listing.slug) problems.push({ file, field: `similarApis.${i}`, reason: 'a listing is not similar to itself' });
      else if (!exists(slug)) problems.push({ file, field: `similarApis.${i}`, reason: `no listing '${slug}'` });
    });
    (listing.lifecycle?.replacedBy ?? []).forEach((slug, i) => {
      if (slug !== listing.slug && !exists(slug)) problems.push({ file, field: `lifecycle.replacedBy.${i}`, reason: `no listing '${slug}'` });
    });
  }
  const entryFiles = new Map<string, string>();
  for (const { file, id, entry } of errorEntries) {
    const other = entryFiles.get(id);
    if (other) problems.push({ file, field: 'title', reason: `entry '${id}' is also in ${other}` });
    else entryFiles.set(id, file);
    if (!exists(entry.provider)) problems.push({ file, field: 'provider', reason: `no listing '${entry.provider}'` });
  }
  for (const { file, entry } of modelEntries) {
    if (entry.creatorListing && !exists(entry.creatorListing)) problems.push({ file, field: 'creatorListing', reason: `no listing '${entry.creatorListing}'` });
  }
  return { listings, errorEntries, modelEntries, problems };
}
