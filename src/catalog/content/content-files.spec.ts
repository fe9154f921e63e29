import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { collectFiles, readContentFile } from './content-files';
import { MAX_FILE_BYTES } from './file-checks';

let folder: string;
beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'content-files-'))));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const openai = () => readFileSync('fixtures/listings/openai.yaml', 'utf8');
/** A file of this name in a folder of its own. */
function fileNamed(name: string, content: string | Buffer): string {
  const dir = mkdtempSync(join(folder, 'case-'));
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('readContentFile', () => {
  it('reports a YAML document that contains itself, instead of validating it for ever', () => {
    const file = fileNamed('openai.yaml', `${openai()}\nextra: &loop\n  again: *loop\n`);
    expect(readContentFile(file).problems).toEqual([
      { file, field: '(document)', reason: 'contains itself (a YAML alias inside its own anchor)' },
    ]);
  });

  it('accepts aliases that only repeat a value', () => {
    const document = parse(openai()) as Record<string, unknown>;
    document.features = document.sdks; // written once under an anchor, then as an alias
    const file = fileNamed('openai.yaml', stringify(document));
    expect(readFileSync(file, 'utf8')).toMatch(/features: \*\w+/);
    const reading = readContentFile(file);
    expect(reading.problems).toEqual([]);
    expect(reading.listing?.features).toEqual(document.sdks);
  });

  it('refuses a listing whose slug is not its file name', () => {
    const file = fileNamed('other-name.yaml', openai());
    expect(readContentFile(file).problems).toEqual([{ file, field: 'slug', reason: "'openai' must match the file name ('other-name')" }]);
  });

  it('refuses bytes that are not UTF-8, naming the offset of the first bad one', () => {
    const text = Buffer.from(openai());
    const at = text.indexOf('description: ') + 'description: '.length;
    const file = fileNamed('openai.yaml', Buffer.concat([text.subarray(0, at), Buffer.from([0xc3, 0x28]), text.subarray(at)]));
    const line = text.subarray(0, at).toString().split('\n').length;
    expect(readContentFile(file).problems).toEqual([
      { file, field: '(file)', reason: `not valid UTF-8: invalid byte sequence at byte offset ${at} (line ${line})` },
    ]);
  });

  it('refuses a file over the size limit without parsing it', () => {
    // Not YAML at all: a parse would report that instead.
    const file = fileNamed('openai.yaml', Buffer.alloc(MAX_FILE_BYTES + 1, '['));
    expect(readContentFile(file).problems).toEqual([
      { file, field: '(file)', reason: `is ${MAX_FILE_BYTES + 1} bytes, more than the limit of ${MAX_FILE_BYTES} bytes (1 MiB) for one file` },
    ]);
    expect(readContentFile(fileNamed('openai.yaml', Buffer.alloc(MAX_FILE_BYTES, ' '))).problems[0].reason).not.toMatch(/limit/);
  });

  it('refuses deep nesting in JSON and YAML, naming the file (it overflowed the stack before)', () => {
    const levels = 5000;
    const json = fileNamed('deep.json', `{"slug": "deep", "note": ${'['.repeat(levels)}${']'.repeat(levels)}}`);
    expect(readContentFile(json).problems).toEqual([
      { file: json, field: `note${'.0'.repeat(31)}`, reason: 'nested more than 32 levels deep (lists and mappings inside each other)' },
    ]);
    const yaml = fileNamed('deep.yaml', `slug: deep\nnote: ${'['.repeat(levels)}${']'.repeat(levels)}\n`);
    expect(readContentFile(yaml).problems).toEqual([
      { file: yaml, field: '(document)', reason: 'nested more than 32 levels deep (lists and mappings inside each other)' },
    ]);
  });

  it('refuses HTML in text fields of listings and error entries, not in code', () => {
    const document = parse(openai()) as Record<string, any>;
    document.description = `${document.description} <script>alert(1)</script>`;
    document.codeExamples[0].code = `${document.codeExamples[0].code}\n# <b>bold</b> in code is code`;
    const listing = fileNamed('openai.yaml', stringify(document));
    expect(readContentFile(listing).problems).toEqual([
      { file: listing, field: 'description', reason: "contains HTML ('<script>'): text fields are plain text (put code in backticks or in codeExamples)" },
    ]);
    const entry = parse(readFileSync('fixtures/errors/openai-429-rate-limit-exceeded.yaml', 'utf8')) as Record<string, unknown>;
    entry.fixCn = `${entry.fixCn}<img src=x onerror=alert(1)>`;
    entry.curlExample = `curl -d '<p>x</p>' https://api.openai.com/v1/chat/completions`;
    const entryFile = fileNamed('openai-429-rate-limit-exceeded.yaml', stringify(entry));
    expect(readContentFile(entryFile).problems.map((p) => p.field)).toEqual(['fixCn']);
  });
});

describe('collectFiles', () => {
  it('refuses a content file in a folder whose extension is not lower case, instead of leaving it out unseen', () => {
    const file = fileNamed('openai.YAML', openai());
    const dir = join(file, '..');
    writeFileSync(join(dir, 'notes.txt'), 'not content');
    writeFileSync(join(dir, 'stripe.yaml'), 'slug: stripe');
    const reason = 'its extension must be lower case (.yaml, .yml or .json): the file would be left out';
    expect(collectFiles([dir])).toEqual({ files: [join(dir, 'stripe.yaml')], problems: [{ file, field: '(file)', reason }] });
    expect(collectFiles([file]).problems).toEqual([{ file, field: '(file)', reason }]);
  });
});
