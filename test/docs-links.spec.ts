import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { FIXTURES } from './support/fixtures';

/**
 * The docs hold together: every relative link of the README, docs/, test/README.md, bench/README.md and
 * fixtures/README.md leads to a file that exists, and to a heading of it when it names one (GitHub's
 * anchors); every path of the repository the docs name in backticks exists (the benchmarks' history
 * aside); and the traces of docs/architecture.md name files that exist. No server, no build.
 */
const ROOT = resolve(__dirname, '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
  'test/README.md',
  'bench/README.md',
  'fixtures/README.md',
];

const read = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');

/** The text outside fenced code blocks (``` or ~~~), line by line: what Markdown renders as prose. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker[0].repeat(marker.length);
    else if (fence !== null && marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    else if (fence === null) lines.push(line);
  }
  return lines;
}

/** Inline code spans of a line (`x`, ``x``), with their content. */
const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/**
 * A heading's anchor as GitHub makes it: the rendered text (code spans and links as their text), lowercase,
 * punctuation removed (letters, digits, marks, spaces, hyphens and underscores kept), spaces as hyphens.
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(CODE_SPAN, (_, _ticks: string, code: string) => code)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a Markdown file: its headings' slugs, repeated ones numbered as GitHub does (-1, -2...). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

interface Link {
  doc: string;
  line: number;
  target: string;
}

/** The links of a document: inline links and images, and reference definitions, outside code. */
function linksOf(doc: string): Link[] {
  const links: Link[] = [];
  const markdown = read(doc);
  let number = 0;
  let fence: string | null = null;
  for (const raw of markdown.split('\n')) {
    number++;
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
    if (fence === null && marker) {
      fence = marker[0].repeat(marker.length);
      continue;
    }
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    // Code spans show text as written: what looks like a link inside one is not a link. (A code span as a
    // link's text stays, without brackets or parentheses.)
    const line = raw.replace(CODE_SPAN, (_, _ticks: string, code: string) => code.replace(/[[\]()]/g, ''));
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ doc, line: number, target: match[1] });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition) links.push({ doc, line: number, target: definition[1] });
  }
  return links;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** What is wrong with a relative link, or null. */
function brokenLink({ doc, target }: Link): string | null {
  if (target === '') return 'an empty link';
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = pathPart === '' ? join(ROOT, doc) : resolve(dirname(join(ROOT, doc)), decodeURIComponent(pathPart));
  if (!file.startsWith(ROOT)) return `${target} leads out of the repository`;
  if (!existsSync(file)) return `${target}: no file ${relative(ROOT, file)}`;
  if (anchor === undefined || !file.endsWith('.md') || statSync(file).isDirectory()) return null;
  if (!anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))) return `${target}: ${relative(ROOT, file)} has no heading #${anchor}`;
  return null;
}

/** Paths of the repository named in code spans (`src/http/send-json.ts`, `test/compose/`), outside fenced code. */
function namedPaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const line of proseLines(markdown)) {
    for (const match of line.matchAll(CODE_SPAN)) {
      const text = match[2].trim();
      // test/output/ is what the tests write (screenshots), not committed: on a clean clone it is not there yet.
      if (/^(?:src|ingest|test|bench|fixtures|docs)\/[A-Za-z0-9_./-]*$/.test(text) && !text.startsWith('test/output/')) paths.push(text);
    }
  }
  return paths;
}

/** The text of one section (a `##` heading to the next heading of its level or above). */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start === -1) return '';
  const end = lines.findIndex((line, i) => i > start && /^#{1,2}\s/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

describe('the docs', () => {
  it('are all there', () => {
    for (const doc of ['README.md', 'docs/api.md', 'docs/editors.md', 'docs/operations.md', 'docs/architecture.md', 'test/README.md']) {
      expect(existsSync(join(ROOT, doc))).toBe(true);
    }
  });

  it.each(DOCS)('%s: every relative link leads to a file and heading that exist', (doc) => {
    const broken = linksOf(doc)
      .filter((link) => !isExternal(link.target))
      .map((link) => {
        const problem = brokenLink(link);
        return problem && `${link.doc}:${link.line}: ${problem}`;
      })
      .filter((problem): problem is string => problem !== null);
    expect(broken).toEqual([]);
  });

  // (bench/README.md is left out: it records code that was measured and removed since, by its old paths.)
  it.each(DOCS.filter((doc) => doc !== 'bench/README.md'))('%s: every path it names in backticks exists', (doc) => {
    const missing = namedPaths(read(doc)).filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it.each([
    // test/architecture/traces.e2e-spec.ts holds these lists to the files that run; here, that they exist.
    ['One search, followed', 30],
    ['One ingest, followed', 35],
  ])('docs/architecture.md: "%s" names source files that exist (at least %i of them)', (heading, atLeast) => {
    const trace = section(read('docs/architecture.md'), heading);
    const files = [...new Set(namedPaths(trace).filter((path) => /^(?:src|ingest)\/.+\.(?:ts|json)$/.test(path)))];
    expect(files.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(atLeast);
  });
});

describe('GitHub anchors', () => {
  it.each([
    ['The compose stack test\'s machine', 'the-compose-stack-tests-machine'],
    ['What is refused, and why', 'what-is-refused-and-why'],
    ['npm run check:content', 'npm-run-checkcontent'],
    ['Hardening (operations round two)', 'hardening-operations-round-two'],
    ['`src/contract/` and the views', 'srccontract-and-the-views'],
    ['Ingest exit codes', 'ingest-exit-codes'],
  ])('%s -> #%s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings', () => {
    expect([...anchorsOf('# A\n## Notes\n### Notes\n```\n# not a heading\n```\n## Notes\n')]).toEqual(['a', 'notes', 'notes-1', 'notes-2']);
  });

  it('finds a link to a missing file or heading, and none inside code', () => {
    const link = (target: string) => brokenLink({ doc: 'docs/api.md', line: 1, target });
    expect(link('operations.md#settings')).toBeNull();
    expect(link('#the-change-feed')).toBeNull();
    expect(link('../src/search/synonyms.json')).toBeNull();
    expect(link('operations.md#no-such-heading')).toMatch(/has no heading/);
    expect(link('no-such-file.md')).toMatch(/no file/);
  });
});

describe('README: what the directory holds', () => {
  const readme = read('README.md');
  const listingsDir = join(ROOT, 'fixtures', 'listings');
  const perCategory = new Map<string, number>();
  for (const name of readdirSync(listingsDir).filter((file) => file.endsWith('.yaml'))) {
    const category = /^category:\s*(\S+)/m.exec(readFileSync(join(listingsDir, name), 'utf8'))?.[1] ?? '(none)';
    perCategory.set(category, (perCategory.get(category) ?? 0) + 1);
  }

  it('gives the counts of the content folder', () => {
    const count = (what: RegExp) => Number(what.exec(readme)?.[1]);
    expect(count(/(\d+) listings, \d+ model entries/)).toBe(FIXTURES.listings);
    expect(count(/listings, (\d+) model entries/)).toBe(FIXTURES.models);
    expect(count(/(\d+) tasks/)).toBe(FIXTURES.tasks);
    expect(count(/(\d+) error-reference\s+entries/)).toBe(FIXTURES.errors);
  });

  it('counts the listings of every category, and no other', () => {
    const rows = new Map([...readme.matchAll(/^\| `([a-z0-9-]+)` [^|]+\|[^|]+\| (\d+) \|$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(perCategory));
    expect(rows.size).toBe(FIXTURES.categories);
  });
});
