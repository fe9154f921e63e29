import { spawnSync } from 'node:child_process';
import type { ErrorEntryDocument } from '../error-reference/error-entry.document';
import { aliasKey, type ListingDocument, type SdkLanguage } from '../listings/listing.document';
import type { ContentProblem, LoadedErrorEntry, LoadedListing } from './content-files';
import { hasHan } from '../validation/validation';

/**
 * Editorial rules over the whole content set, beyond the schema: what makes a listing trustworthy to
 * publish. Each rule reports `file: field: reason`. Run by `npm run check:content` (and in CI).
 */
export function checkContent(listings: LoadedListing[], errorEntries: LoadedErrorEntry[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const { file, listing } of listings) {
    const report = (field: string, reason: string) => problems.push({ file, field, reason });
    checkUrls(listing, report);
    checkChinese(listing, report);
    checkTags(listing, report);
    checkCodeExamples(listing, report);
    checkFacts(listing, report);
  }
  problems.push(...checkNearDuplicateNames(listings));
  problems.push(...checkAliases(listings));
  problems.push(...checkSyntax(listings));
  for (const { file, entry } of errorEntries) checkErrorEntry(entry, (field, reason) => problems.push({ file, field, reason }));
  return problems;
}

type Report = (field: string, reason: string) => void;

/** Is the URL's host one of the provider's domains, or a subdomain of one? */
export function hostAllowed(url: string, domains: string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

function checkUrls(listing: ListingDocument, report: Report): void {
  const check = (field: string, url: string) => {
    if (!url.startsWith('https://')) report(field, `'${url}' is not https`);
    else if (!hostAllowed(url, listing.domains)) report(field, `'${url}' is not on the provider's domains (${listing.domains.join(', ')})`);
  };
  check('website', listing.website);
  check('docsUrl', listing.docsUrl);
  listing.endpoints.forEach((url, i) => check(`endpoints.${i}`, url));
}

function checkChinese(listing: ListingDocument, report: Report): void {
  for (const [en, cn] of [
    ['name', 'nameCn'],
    ['description', 'descriptionCn'],
  ] as const) {
    if (!hasHan(listing[cn])) report(cn, 'has no Chinese (Han) characters');
    else if (listing[cn].trim() === listing[en].trim()) report(cn, `is identical to ${en}`);
  }
}

function checkTags(listing: ListingDocument, report: Report): void {
  listing.tags.forEach((tag, i) => {
    if (tag !== tag.toLowerCase()) report(`tags.${i}`, `'${tag}' is not lowercase`);
  });
}

/** Patterns of real-looking credentials that must never appear in an example. */
const LITERAL_KEYS: Array<[RegExp, string]> = [
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/, 'an OpenAI/Anthropic-style secret key'],
  [/\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/, 'a Stripe secret key'],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/, 'a GitHub token'],
  [/\bAKIA[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/\bxox[abpr]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bAIza[0-9A-Za-z_-]{30,}/, 'a Google API key'],
];

/** A credential-looking value written out: 24+ letters and digits, both kinds present. */
function looksLikeLiteralSecret(value: string): boolean {
  return /^[A-Za-z0-9_]{24,}$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** Values given to auth schemes or to credential-named fields, as written in the code. */
function credentialValues(code: string): string[] {
  const values: string[] = [];
  for (const m of code.matchAll(/\b(?:Bearer|Token|Basic|Bot)\s+([^\s"'\\]+)/g)) values.push(m[1]);
  for (const m of code.matchAll(/(?:api[-_]?key|x-api-key|token|secret|password)["']?\s*[:=]\s*["']?([^\s"',}\\]+)/gi)) values.push(m[1]);
  return values;
}

/** Secrets written out in an example (a reason each); examples must read them from the environment. */
export function literalSecrets(code: string): string[] {
  const found = LITERAL_KEYS.filter(([pattern]) => pattern.test(code)).map(([, what]) => `contains ${what}`);
  for (const value of credentialValues(code)) {
    if (looksLikeLiteralSecret(value)) found.push(`contains a literal key ('${value.slice(0, 6)}...')`);
  }
  return found;
}

/** An environment variable reference: $NAME or ${NAME}. */
const ENV_VAR = /\$\{?[A-Z][A-Z0-9_]*\}?/;

/**
 * Does a curl command carry a credential taken from an environment variable: in a header, in -u/--user,
 * in the URL, or in a credential-named field of the body or query (api_key, token, sign...)?
 */
export function curlHasCredential(code: string): boolean {
  const joined = code.replace(/\\\n/g, ' ');
  for (const match of joined.matchAll(/(?:-H|--header)\s+(["'])(.*?)\1(?=\s|$)/g)) {
    const [name] = match[2].split(':');
    if (ENV_VAR.test(match[2]) && !/^content-type$/i.test(name.trim())) return true;
  }
  if (/(?:-u|--user)\s+["']?[^\s"']*\$\{?[A-Z]/.test(joined)) return true;
  if (/https:\/\/[^\s"']*\$\{?[A-Z]/.test(joined)) return true;
  return /["']?[\w-]*(?:key|token|secret|sign|signature|auth)[\w-]*["']?\s*[:=]\s*(?:["']*)\$\{?[A-Z]/i.test(joined);
}

function checkCodeExamples(listing: ListingDocument, report: Report): void {
  const languages = listing.codeExamples.map((c) => c.language);
  if (!languages.includes('bash')) report('codeExamples', 'needs a bash (curl) example');
  if (!languages.includes('python')) report('codeExamples', 'needs a python example');
  listing.codeExamples.forEach((example, i) => {
    const field = `codeExamples.${i}`;
    for (const reason of literalSecrets(example.code)) report(field, `${reason}; use an environment variable such as $API_KEY`);
    if (example.language === 'bash') {
      if (!/\bcurl\b/.test(example.code)) report(field, 'a bash example must be a curl call');
      else if (!curlHasCredential(example.code)) {
        report(field, 'the curl call carries no credential from an environment variable (header, -u, or URL)');
      }
      if (/\s(?:-d|--data(?:-raw)?)\s+'\s*[[{]/.test(example.code) && !/content-type:\s*application\/(?:[\w.+-]*json)/i.test(example.code)) {
        report(field, 'sends a JSON body without a JSON Content-Type header');
      }
    }
  });
}

function checkErrorEntry(entry: ErrorEntryDocument, report: Report): void {
  for (const [en, cn] of [
    ['title', 'titleCn'],
    ['cause', 'causeCn'],
    ['fix', 'fixCn'],
  ] as const) {
    if (!hasHan(entry[cn])) report(cn, 'has no Chinese (Han) characters');
    else if (entry[cn].trim() === entry[en].trim()) report(cn, `is identical to ${en}`);
  }
  if (entry.curlExample) {
    for (const reason of literalSecrets(entry.curlExample)) report('curlExample', reason);
  }
}

/** Words that do not tell two APIs apart ("Jina" and "Jina AI" are the same listing). */
const GENERIC_WORDS = new Set(['api', 'apis', 'ai', 'the', 'rest', 'platform', 'service', 'services', 'sdk', 'io', 'dev', 'ml', 'tts', 'inc', 'hq']);

export function normalisedName(name: string): string {
  return name
    .toLowerCase()
    .split(/[^a-z0-9\u4e00-\u9fff]+/)
    .filter((w) => w && !GENERIC_WORDS.has(w))
    .join('');
}

function nearlyEqual(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 4 && long.startsWith(short) && long.length - short.length <= 2) return true;
  if (short.length < 6 || long.length - short.length > 1) return false;
  let edits = 0;
  for (let i = 0, j = 0; i < short.length || j < long.length; ) {
    if (short[i] === long[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (short.length === long.length) {
      i++;
      j++;
    } else j++;
  }
  return true;
}

function checkNearDuplicateNames(listings: LoadedListing[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const names = listings.map(({ file, listing }) => ({ file, listing, key: normalisedName(listing.name) }));
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      if (names[i].key && nearlyEqual(names[i].key, names[j].key)) {
        problems.push({
          file: names[j].file,
          field: 'name',
          reason: `'${names[j].listing.name}' is nearly the same as '${names[i].listing.name}' (${names[i].file}); merge them into one listing`,
        });
      }
    }
  }
  return problems;
}

/** Code examples must parse: bash with `bash -n`, python with the python3 compiler (one process for all). */
function checkSyntax(listings: LoadedListing[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const python: Array<{ file: string; field: string; code: string }> = [];
  for (const { file, listing } of listings) {
    listing.codeExamples.forEach((example, i) => {
      const field = `codeExamples.${i}`;
      if (example.language === 'bash') {
        const run = spawnSync('bash', ['-n'], { input: example.code, encoding: 'utf8' });
        if (run.status !== 0) problems.push({ file, field, reason: `bash syntax error: ${run.stderr.trim().split('\n')[0]}` });
      } else if (example.language === 'python') {
        python.push({ file, field, code: example.code });
      }
    });
  }
  if (python.length === 0) return problems;
  const script =
    'import ast, json, sys\n' +
    'for i, code in enumerate(json.load(sys.stdin)):\n' +
    '    try:\n        ast.parse(code)\n' +
    '    except SyntaxError as e:\n        print(json.dumps([i, f"line {e.lineno}: {e.msg}"]))\n';
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(python.map((p) => p.code)), encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    problems.push({ file: '(content check)', field: 'codeExamples', reason: `python3 is needed to check python examples: ${run.error?.message ?? run.stderr}` });
    return problems;
  }
  for (const line of run.stdout.trim().split('\n').filter(Boolean)) {
    const [i, message] = JSON.parse(line) as [number, string];
    problems.push({ file: python[i].file, field: python[i].field, reason: `python syntax error: ${message}` });
  }
  return problems;
}

/** Languages of the SDK names editors write in `sdks` ("Node.js", ".NET", "Python (boto3)", "iOS"...). */
const SDK_NAME_LANGUAGES: Array<[RegExp, SdkLanguage]> = [
  [/^python\b/i, 'python'],
  [/^(?:node(?:\.js)?|javascript|react native)\b/i, 'javascript'],
  [/^typescript\b/i, 'typescript'],
  [/^java$/i, 'java'],
  [/^(?:kotlin|android)\b/i, 'kotlin'],
  [/^go(?:lang)?\b/i, 'go'],
  [/^(?:\.net|c#)(?:\s|$)/i, 'csharp'],
  [/^ruby\b/i, 'ruby'],
  [/^php\b/i, 'php'],
  [/^rust\b/i, 'rust'],
  [/^(?:swift|ios)\b/i, 'swift'],
  [/^objective-c\b/i, 'objective-c'],
  [/^(?:dart|flutter)\b/i, 'dart'],
  [/^c\+\+(?:\s|$)/i, 'cpp'],
  [/^elixir\b/i, 'elixir'],
  [/^cli\b/i, 'cli'],
  [/^curl$/i, 'curl'],
];

/** The normalised language of an SDK name as written in `sdks`, or undefined when it names none we know. */
export function sdkLanguageOf(sdk: string): SdkLanguage | undefined {
  return SDK_NAME_LANGUAGES.find(([pattern]) => pattern.test(sdk.trim()))?.[1];
}

/** The facts agents filter on must agree with the prose fields they summarise. */
function checkFacts(listing: ListingDocument, report: Report): void {
  if (listing.maxTokens === null && listing.contextTokens !== null) report('contextTokens', 'must be null when maxTokens is null (the API has no context window)');
  if (listing.maxTokens !== null && listing.contextTokens === null) report('contextTokens', `must give the largest context in tokens (maxTokens says '${listing.maxTokens}')`);
  const derived = new Set<SdkLanguage>();
  listing.sdks.forEach((sdk, i) => {
    const language = sdkLanguageOf(sdk);
    if (!language) report(`sdks.${i}`, `'${sdk}' names no known SDK language; write it as one of the names documented in fixtures/README.md`);
    else derived.add(language);
  });
  for (const language of derived) {
    if (!listing.sdkLanguages.includes(language)) report('sdkLanguages', `lacks '${language}', a language of sdks`);
  }
  listing.sdkLanguages.forEach((language, i) => {
    if (!derived.has(language)) report(`sdkLanguages.${i}`, `'${language}' is not the language of any item of sdks`);
  });
}

/**
 * Aliases are how agents find a listing by the names people use, so each must lead to one listing: no alias
 * may be another listing's name (English or Chinese), slug or alias, compared ignoring case, spaces and
 * punctuation ("DALL·E" is "dall-e"), nor repeat its own listing's name or slug.
 */
function checkAliases(listings: LoadedListing[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  /** Keys of every listing's names and slug, to the files that own them. */
  const names = new Map<string, Set<string>>();
  for (const { file, listing } of listings) {
    for (const key of [aliasKey(listing.name), aliasKey(listing.nameCn), aliasKey(listing.slug)]) {
      if (key) names.set(key, (names.get(key) ?? new Set()).add(file));
    }
  }
  const aliases = new Map<string, { file: string; alias: string }>();
  for (const { file, listing } of listings) {
    listing.aliases.forEach((alias, i) => {
      const field = `aliases.${i}`;
      const key = aliasKey(alias);
      if ([listing.name, listing.nameCn, listing.slug].some((name) => aliasKey(name) === key)) {
        problems.push({ file, field, reason: `'${alias}' repeats the listing's own name or slug` });
        return;
      }
      const owner = [...(names.get(key) ?? [])].find((other) => other !== file);
      if (owner) {
        problems.push({ file, field, reason: `'${alias}' is the name or slug of another listing (${owner})` });
        return;
      }
      const other = aliases.get(key);
      if (!other) aliases.set(key, { file, alias });
      else if (other.file !== file) problems.push({ file, field, reason: `'${alias}' is also an alias of another listing ('${other.alias}' in ${other.file})` });
    });
  }
  return problems;
}

/** Listings whose facts were last checked longer ago than this are flagged for a re-check (a warning, never a failure). */
export const STALE_AFTER_DAYS = 180;

/**
 * Warnings, not problems: listings whose `lastUpdated` is more than STALE_AFTER_DAYS before `today`. Time
 * passing must never make the check fail, so these only tell editors what to re-check first.
 */
export function staleListings(listings: LoadedListing[], today: Date, days = STALE_AFTER_DAYS): ContentProblem[] {
  const limit = today.getTime() - days * 86_400_000;
  return listings
    .filter(({ listing }) => new Date(`${listing.lastUpdated}T00:00:00Z`).getTime() < limit)
    .map(({ file, listing }) => ({ file, field: 'lastUpdated', reason: `older than ${days} days (${listing.lastUpdated}); re-check its facts` }));
}
