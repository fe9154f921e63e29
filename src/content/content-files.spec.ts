import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { readContentFile } from './content-files';

let folder: string;
beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'content-files-'))));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('readContentFile', () => {
  it('reports a YAML document that contains itself, instead of validating it for ever', () => {
    const file = join(folder, 'loop.yaml');
    writeFileSync(file, `${readFileSync('fixtures/listings/openai.yaml', 'utf8')}\nextra: &loop\n  again: *loop\n`);
    expect(readContentFile(file).problems).toEqual([
      { file, field: '(document)', reason: 'contains itself (a YAML alias inside its own anchor)' },
    ]);
  });

  it('accepts aliases that only repeat a value', () => {
    const file = join(folder, 'alias.yaml');
    const document = parse(readFileSync('fixtures/listings/openai.yaml', 'utf8')) as Record<string, unknown>;
    document.features = document.sdks; // written once under an anchor, then as an alias
    writeFileSync(file, stringify(document));
    expect(readFileSync(file, 'utf8')).toMatch(/features: \*\w+/);
    const reading = readContentFile(file);
    expect(reading.problems).toEqual([]);
    expect(reading.listing?.features).toEqual(document.sdks);
  });
});
