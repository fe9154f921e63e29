import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { FIXTURES } from './support/fixtures';

/** The day the staleness warnings are counted from: fixed, so the outcome does not depend on when the tests run. */
const TODAY = '2026-11-23';
const check = (folder: string, today: string = TODAY) =>
  spawnSync(process.execPath, ['dist/ingest/check-content.js', folder], {
    encoding: 'utf8',
    env: { ...process.env, CONTENT_CHECK_TODAY: today },
  });
const STALE = /: lastUpdated: older than 180 days \(\d{4}-\d{2}-\d{2}\); re-check its facts$/;
/** A listing file as if all its facts had last been checked on `day` (lastUpdated is the oldest check). */
const checkedOn = (file: string, day: string) => writeFileSync(file, readFileSync(file, 'utf8').replace(/\b(lastUpdated|checked): \d{4}-\d{2}-\d{2}/g, `$1: ${day}`));

it('passes on the shipped content, none due for a re-check', () => {
  const run = check('fixtures');
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toContain(`${FIXTURES.listings} listings, ${FIXTURES.models} model entries, ${FIXTURES.errors} error entries, ${FIXTURES.categories} categories, ${FIXTURES.tasks} tasks`);
});

it('names each listing with the facts it gives no source for yet (auth, freeTier, openaiCompatible, a context no model gives), and only those', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-unsourced-'));
  try {
    cpSync('fixtures', dir, { recursive: true });
    const file = join(dir, 'listings', 'openai.yaml');
    const before = check(dir);
    const named = (stdout: string) => /give no source yet for some of auth, freeTier, openaiCompatible and contextTokens: (.*)$/m.exec(stdout)?.[1].split(/, (?![a-zA-Z]+[,)])/) ?? [];
    // Exactly the listings whose file states one of the facts without a source, each with those facts (a
    // fact not stated, null, has nothing to source).
    const unsourced = readdirSync(join(dir, 'listings'))
      .map((name) => parse(readFileSync(join(dir, 'listings', name), 'utf8')))
      .map(({ slug, sources, contextTokens, models, authType, freeTier, openaiCompatible }) => {
        const stated: Record<string, unknown> = { auth: authType, freeTier, openaiCompatible };
        const facts = ['auth', 'freeTier', 'openaiCompatible', 'contextTokens'].filter((fact) =>
          fact === 'contextTokens'
            ? contextTokens !== null && !(models ?? []).some((m: { contextTokens: number | null }) => m.contextTokens !== null) && !sources?.contextTokens
            : stated[fact] !== null && !sources?.[fact],
        );
        return { slug, facts };
      })
      .filter(({ facts }) => facts.length > 0)
      .map(({ slug, facts }) => `${slug} (${facts.join(', ')})`);
    expect(named(before.stdout)).toEqual(unsourced.sort());
    expect(named(before.stdout).map((entry) => entry.split(' ')[0])).not.toContain('openai');
    // Take openai's free-tier source away, then all its sources: it is named with what is missing, and the
    // check still passes (a backlog, not a problem).
    const listing = parse(readFileSync(file, 'utf8'));
    listing.sources.freeTier = null;
    writeFileSync(file, stringify(listing));
    const partly = check(dir);
    expect(partly.status).toBe(0);
    expect(named(partly.stdout)).toEqual([...named(before.stdout), 'openai (freeTier)'].sort());
    delete listing.sources;
    writeFileSync(file, stringify(listing));
    const after = check(dir);
    expect(after.status).toBe(0);
    expect(named(after.stdout)).toEqual([...named(before.stdout), 'openai (auth, freeTier, openaiCompatible)'].sort());
    // A context window no model gives needs its own source: openai's, once its models are gone.
    delete listing.models;
    writeFileSync(file, stringify(listing));
    expect(named(check(dir).stdout)).toEqual([...named(before.stdout), 'openai (auth, freeTier, openaiCompatible, contextTokens)'].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('still passes when every listing has grown old: staleness only warns', () => {
  const run = check('fixtures', '2031-01-01');
  expect(run.status).toBe(0);
  const lines = run.stderr.trim().split('\n');
  // One line per listing, and one per sourced fact naming the page to open again.
  const listingLines = lines.filter((line) => STALE.test(line));
  expect(listingLines).toHaveLength(FIXTURES.listings);
  // Shutdowns announced for days before 2031 have passed too: warned of apart (see below).
  const factLines = lines.filter((line) => !STALE.test(line) && !line.includes('has passed'));
  expect(factLines.length).toBeGreaterThan(100);
  for (const line of factLines) expect(line).toMatch(/: (sources\.\w+|prices\.source|rateLimits\.source|lifecycle\.source|models\.\d+\.(lifecycle\.)?source): checked \d{4}-\d{2}-\d{2}, more than 180 days ago; re-check it at https:\/\//);
  expect(run.stdout).toMatch(new RegExp(`content check passed: .*${FIXTURES.listings} listing\\(s\\) last checked more than 180 days ago`));
});

it('refuses a CONTENT_CHECK_TODAY that is not a date', () => {
  const run = check('fixtures', '23/11/2026');
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/CONTENT_CHECK_TODAY: must be a date as YYYY-MM-DD/);
});

it('names the shutdowns coming within 30 days, soonest first, so they are marked retired in time', () => {
  // On 2026-11-23 OpenAI's deprecated GPT-5 models and o3 shut down on 2026-12-11, within 30 days; GPT-4o mini TTS (2027-01-06) is not.
  const run = check('fixtures');
  expect(run.status).toBe(0);
  const lines = run.stdout.split('\n');
  const head = lines.findIndex((line) => /^\d+ shutdown\(s\) within 30 days: mark each retired/.test(line));
  expect(head).toBeGreaterThanOrEqual(0);
  const named = lines.slice(head + 1).filter((line) => line.startsWith('  ')).map((line) => line.trim());
  const gpt5 = (parse(readFileSync('fixtures/listings/openai.yaml', 'utf8')).models as Array<{ id: string }>).findIndex((m) => m.id === 'gpt-5');
  expect(named).toContain(`2026-12-11 fixtures/listings/openai.yaml: models.${gpt5}.lifecycle (gpt-5)`);
  expect(named.some((line) => line.includes('(gpt-4o-mini-tts)'))).toBe(false);
  expect(named).toEqual([...named].sort());
  expect(lines[head]).toMatch(new RegExp(`^${named.length} shutdown`));
  // Long before, none.
  expect(check('fixtures', '2026-06-01').stdout).not.toContain('within 30 days');
});

it('warns of a model whose announced shutdown has passed but is not marked retired, and still passes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-shutdown-'));
  try {
    cpSync('fixtures', dir, { recursive: true });
    const file = join(dir, 'listings', 'kling.yaml');
    const doc = parse(readFileSync(file, 'utf8'));
    doc.models[0].lifecycle = { status: 'deprecated', retiresAt: '2026-11-20', source: doc.models[0].source };
    writeFileSync(file, stringify(doc));
    const run = check(dir);
    expect(run.status).toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([`${file}: models.0.lifecycle.status: its shutdown (2026-11-20) has passed: the status is retired, not deprecated (give since, and the successor in replacedBy)`]);
    expect(run.stdout).toContain('1 listing or model lifecycle(s) past their shutdown and not yet retired');
    // The day before the shutdown, nothing to say.
    expect(check(dir, '2026-11-19').stderr).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('a listing whose facts were last checked long ago', () => {
  const dir = mkdtempSync(join(tmpdir(), 'content-stale-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is listed as a warning while the check still passes', () => {
    cpSync('fixtures', dir, { recursive: true });
    const file = join(dir, 'listings', 'google-cloud.yaml');
    checkedOn(file, '2026-05-26');
    const run = check(dir);
    expect(run.status).toBe(0);
    const [first, ...facts] = run.stderr.trim().split('\n');
    expect(first).toBe(`${file}: lastUpdated: older than 180 days (2026-05-26); re-check its facts`);
    // And each of its sourced facts, with the page to open again.
    expect(facts.length).toBeGreaterThan(0);
    for (const line of facts) expect(line).toMatch(new RegExp(`^${file}: [\\w.]+: checked 2026-05-26, more than 180 days ago; re-check it at https://`));
    expect(run.stdout).toContain('content check passed');
    // 180 days before the day of the check is not yet too old.
    checkedOn(file, '2026-05-27');
    expect(check(dir).stderr).toBe('');
  });
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
    // The facts agents filter on.
    edit(listing('together-ai'), (d) => delete d.aliases);
    edit(listing('xai-grok'), (d) => delete d.freeTier);
    edit(listing('replicate'), (d) => (d.authType = 'api-key'));
    edit(listing('elevenlabs'), (d) => (d.freeTier = null));
    edit(listing('runway'), (d) => (d.sdkLanguages = ['python', 'cobol', 'curl']));
    edit(listing('google-gemini'), (d) => (d.contextTokens = 1048576.5));
    edit(listing('deepinfra'), (d) => (d.contextTokens = '128K'));
    edit(listing('twilio'), (d) => (d.contextTokens = 1000));
    edit(listing('sentry'), (d) => (d.sdkLanguages = d.sdkLanguages.filter((l: string) => l !== 'rust')));
    edit(listing('stripe'), (d) => d.aliases.push('Claude'));
    edit(listing('supabase'), (d) => d.aliases.push('dall-e'));
    edit(listing('paypal'), (d) => d.aliases.push('Stripe API'));
    edit(listing('neon'), (d) => d.aliases.push('neon serverless postgres API'));
    checkedOn(listing('google-cloud'), '2020-01-01');
    writeFileSync(join(dir, 'listings', 'openai-2.yaml'), readFileSync(listing('openai')));
    const entry = join(dir, 'errors', 'deepseek-402-insufficient-balance.yaml');
    edit(entry, (d) => (d.provider = 'deep-seek'));
    unlinkSync(join(dir, 'listings', 'qdrant.yaml'));
    lines = check(dir).stderr.split('\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** `field` is the exact dotted field, or a pattern for a list item whose index depends on the file. */
  const expectProblem = (file: string, field: string | RegExp, reason: RegExp) => {
    const prefix = `${join(dir, file)}: `;
    const line = lines.find((l) => {
      if (!l.startsWith(prefix)) return false;
      const rest = l.slice(prefix.length);
      const at = rest.indexOf(': ');
      const found = rest.slice(0, at);
      const fieldMatches = typeof field === 'string' ? found === field : new RegExp(`^(?:${field.source})$`).test(found);
      return fieldMatches && reason.test(rest.slice(at + 2));
    });
    if (!line) throw new Error(`no '${prefix}${field}: ${reason}' among:\n${lines.join('\n')}`);
  };

  it.each<[string, string | RegExp, RegExp]>([
    ['listings/openai.yaml', 'website', /not on the provider's domains/],
    ['listings/anthropic.yaml', 'endpoints.0', /not on the provider's domains/],
    ['listings/mistral.yaml', 'codeExamples', /needs a python example/],
    ['listings/cohere.yaml', 'codeExamples.0', /no credential from an environment variable/],
    ['listings/groq.yaml', 'codeExamples.0.code', /literal key/],
    ['listings/deepseek.yaml', 'codeExamples.1', /python syntax error/],
    ['listings/qwen.yaml', 'codeExamples.0', /bash syntax error/],
    ['listings/zhipu.yaml', 'tags', /lowercase/],
    ['listings/moonshot.yaml', 'category', /unknown category 'spaceflight'/],
    ['listings/cerebras.yaml', 'similarApis.1', /no listing 'no-such-api'/],
    ['listings/perplexity.yaml', 'nameCn', /Han/],
    ['listings/fireworks-ai.yaml', 'popularity', /0-100/],
    ['listings/openai-2.yaml', 'slug', /must match the file name|also the slug of/],
    ['errors/deepseek-402-insufficient-balance.yaml', 'provider', /no listing 'deep-seek'/],
    ['listings/together-ai.yaml', 'aliases', /must be a list/],
    ['listings/xai-grok.yaml', 'freeTier', /true or false/],
    ['listings/replicate.yaml', 'authType', /must be one of bearer, header-key, query-key, oauth, basic, signature/],
    ['listings/elevenlabs.yaml', 'sources.freeTier', /gives a source for a fact the listing does not state \(freeTier is null\)/],
    ['listings/runway.yaml', 'sdkLanguages', /each item must be one of python, /],
    ['listings/google-gemini.yaml', 'contextTokens', /integer/],
    ['listings/deepinfra.yaml', 'contextTokens', /integer/],
    ['listings/twilio.yaml', 'contextTokens', /must be null when maxTokens is null/],
    ['listings/sentry.yaml', 'sdkLanguages', /lacks 'rust'/],
    ['listings/stripe.yaml', /aliases\.\d+/, /'Claude' is also an alias of another listing \('Claude' in .*anthropic\.yaml\)/],
    ['listings/supabase.yaml', /aliases\.\d+/, /'dall-e' is also an alias of another listing \('DALL·E' in .*openai(-2)?\.yaml\)/],
    ['listings/paypal.yaml', /aliases\.\d+/, /'Stripe API' is the name or slug of another listing \(.*stripe\.yaml\)/],
    ['listings/neon.yaml', /aliases\.\d+/, /repeats the listing's own name or slug/],
    ['listings/google-cloud.yaml', 'lastUpdated', /older than 180 days \(2020-01-01\); re-check its facts/],
  ])('%s: %s', (file, field, reason) => expectProblem(file, field, reason));

  it('finds near-duplicate names', () => {
    expect(lines.some((l) => /listings\/(exa|tavily)\.yaml: name: .*nearly the same/.test(l))).toBe(true);
  });

  it('finds a similar API that names a missing listing', () => {
    expect(lines.some((l) => /similarApis\.\d+: no listing 'qdrant'/.test(l))).toBe(true);
  });
});
