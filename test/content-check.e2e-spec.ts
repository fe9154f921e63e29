import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

const check = (folder: string) => spawnSync(process.execPath, ['dist/ingest/check-content.js', folder], { encoding: 'utf8' });

it('passes on the shipped content: 127 listings and 15 error entries', () => {
  const run = check('fixtures');
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('127 listings, 15 error entries, 13 categories');
});

describe('on planted defects', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  let lines: string[];
  const listing = (slug: string) => join(dir, 'listings', `${slug}.yaml`);
  const edit = (file: string, change: (doc: any) => void) => {
    const doc = parse(readFileSync(file, 'utf8'));
    change(doc);
    writeFileSync(file, stringify(doc));
  };

  beforeAll(() => {
    cpSync('fixtures', dir, { recursive: true });
    edit(listing('openai'), (d) => (d.website = 'https://openai.example.com'));
    edit(listing('anthropic'), (d) => (d.endpoints[0] = 'https://api.anthropic.com.evil.io/v1/messages'));
    edit(listing('mistral'), (d) => (d.codeExamples = d.codeExamples.filter((c: any) => c.language !== 'python')));
    edit(listing('cohere'), (d) => {
      const bash = d.codeExamples.find((c: any) => c.language === 'bash');
      bash.code = 'curl https://api.cohere.com/v2/chat -H "Content-Type: application/json" -d \'{"model": "command-a"}\'\n';
    });
    edit(listing('groq'), (d) => {
      const bash = d.codeExamples.find((c: any) => c.language === 'bash');
      bash.code = bash.code.replace('$GROQ_API_KEY', 'gsk_abcdefghij1234567890ABCDEFGHIJ');
    });
    edit(listing('deepseek'), (d) => (d.codeExamples.find((c: any) => c.language === 'python').code = 'def broken(:\n    pass\n'));
    edit(listing('qwen'), (d) => (d.codeExamples.find((c: any) => c.language === 'bash').code = 'curl https://x.aliyuncs.com -H "Authorization: Bearer $KEY" \'\n'));
    edit(listing('zhipu'), (d) => (d.tags = ['GLM']));
    edit(listing('moonshot'), (d) => (d.category = 'spaceflight'));
    edit(listing('cerebras'), (d) => (d.similarApis = ['groq', 'no-such-api']));
    edit(listing('exa'), (d) => (d.name = 'Tavily Search API'));
    edit(listing('perplexity'), (d) => (d.nameCn = 'Perplexity API'));
    edit(listing('fireworks-ai'), (d) => (d.popularity = 101));
    writeFileSync(join(dir, 'listings', 'openai-2.yaml'), readFileSync(listing('openai')));
    const entry = join(dir, 'errors', 'deepseek-402-insufficient-balance.yaml');
    edit(entry, (d) => (d.provider = 'deep-seek'));
    unlinkSync(join(dir, 'listings', 'qdrant.yaml'));
    lines = check(dir).stderr.split('\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const expectProblem = (file: string, field: string, reason: RegExp) => {
    const prefix = `${join(dir, file)}: ${field}: `;
    const line = lines.find((l) => l.startsWith(prefix) && reason.test(l.slice(prefix.length)));
    if (!line) throw new Error(`no '${prefix}${reason}' among:\n${lines.join('\n')}`);
  };

  it.each([
    ['listings/openai.yaml', 'website', /not on the provider's domains/],
    ['listings/anthropic.yaml', 'endpoints.0', /not on the provider's domains/],
    ['listings/mistral.yaml', 'codeExamples', /needs a python example/],
    ['listings/cohere.yaml', 'codeExamples.0', /no credential from an environment variable/],
    ['listings/groq.yaml', 'codeExamples.0', /literal key/],
    ['listings/deepseek.yaml', 'codeExamples.1', /python syntax error/],
    ['listings/qwen.yaml', 'codeExamples.0', /bash syntax error/],
    ['listings/zhipu.yaml', 'tags', /lowercase/],
    ['listings/moonshot.yaml', 'category', /unknown category 'spaceflight'/],
    ['listings/cerebras.yaml', 'similarApis.1', /no listing 'no-such-api'/],
    ['listings/perplexity.yaml', 'nameCn', /Han/],
    ['listings/fireworks-ai.yaml', 'popularity', /0-100/],
    ['listings/openai-2.yaml', 'slug', /must match the file name|also the slug of/],
    ['errors/deepseek-402-insufficient-balance.yaml', 'provider', /no listing 'deep-seek'/],
  ])('%s: %s', (file, field, reason) => expectProblem(file, field, reason));

  it('finds near-duplicate names', () => {
    expect(lines.some((l) => /listings\/(exa|tavily)\.yaml: name: .*nearly the same/.test(l))).toBe(true);
  });

  it('finds a similar API that names a missing listing', () => {
    expect(lines.some((l) => /similarApis\.\d+: no listing 'qdrant'/.test(l))).toBe(true);
  });
});
