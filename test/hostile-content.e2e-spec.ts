import { Redis } from 'ioredis';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runCli } from './support/cli';
import { dropNamespace, REDIS_URL, uniqueNamespace } from './support/harness';

/**
 * One rule set, wherever content comes in: files a hostile editor would write are refused by `ingest`
 * (exit 1, `file: field: reason`, nothing written) and by `npm run check:content` alike, in every text
 * field and in both languages. Each case revises one listing or error entry of fixtures/.
 */
const namespace = uniqueNamespace('hostile');
const redis = new Redis(REDIS_URL);
const stream = `{${namespace}:es}:events`;
let work: string;

type Doc = Record<string, any>;
interface Case {
  what: string;
  /** The fixture revised (a listing slug, or `errors/<file>` for an error entry). */
  base: string;
  change: (doc: Doc) => void;
  field: string;
  reason: RegExp;
}

const OPENAI_KEY = 'sk-proj-Ab3dEfGh1jKlMn0pQrStUvWxYz012345';
const STRIPE_KEY = 'sk_live_51Habcdefghij0123KLMNOPqrst';
const GITHUB_TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJklmnop';
const AWS_PAIR = 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const bash = (doc: Doc) => doc.codeExamples.find((c: Doc) => c.language === 'bash');

const CASES: Case[] = [
  // Secrets, in code and in any other text, English and Chinese.
  { what: 'an OpenAI key in a curl example', base: 'openai', change: (d) => (bash(d).code = bash(d).code.replace('$OPENAI_API_KEY', OPENAI_KEY)), field: 'codeExamples.0.code', reason: /OpenAI\/Anthropic-style secret key/ },
  { what: 'a Stripe live key in a usage tip', base: 'stripe', change: (d) => d.usageTips.push(`Test quickly with ${STRIPE_KEY}.`), field: 'usageTips.\\d+', reason: /Stripe secret key/ },
  { what: 'a GitHub token in the Chinese description', base: 'github', change: (d) => (d.descriptionCn += ` 令牌 ${GITHUB_TOKEN}`), field: 'descriptionCn', reason: /GitHub token/ },
  { what: 'an AWS key pair in a python example', base: 'aws-bedrock', change: (d) => (d.codeExamples.find((c: Doc) => c.language === 'python').code += `\n# ${AWS_PAIR}\n`), field: 'codeExamples.\\d+.code', reason: /AWS access key id/ },
  { what: 'a key in pricing text', base: 'anthropic', change: (d) => (d.pricing += ` (demo key sk-ant-api03-Zy0123456789abcdefghijklmnop)`), field: 'pricing', reason: /secret key/ },
  { what: 'a secret in an error entry fix', base: 'errors/openai-401-invalid-authentication.yaml', change: (d) => (d.fix += ` e.g. ${OPENAI_KEY}`), field: 'fix', reason: /secret key/ },
  // URLs off the provider's domains, not https, or with credentials.
  // Domains that are no registrable name: IP literals in any form, local names.
  { what: 'an IPv4 literal as a domain', base: 'adyen', change: (d) => d.domains.push('169.254.169.254'), field: 'domains', reason: /registrable domain name/ },
  { what: 'a loopback address as a domain', base: 'airwallex', change: (d) => d.domains.push('127.0.0.1'), field: 'domains', reason: /registrable domain name/ },
  { what: 'a bracketed IPv6 literal as a domain', base: 'alpha-vantage', change: (d) => d.domains.push('[::1]'), field: 'domains', reason: /registrable domain name/ },
  { what: 'a name under a local suffix as a domain', base: 'apify', change: (d) => d.domains.push('metadata.internal'), field: 'domains', reason: /registrable domain name/ },
  { what: 'a website off the domains', base: 'mistral', change: (d) => (d.website = 'https://mistral.ai.example.net'), field: 'website', reason: /not on the provider's domains/ },
  { what: 'a docs URL off the domains', base: 'cohere', change: (d) => (d.docsUrl = 'https://docs-cohere.example.com/'), field: 'docsUrl', reason: /not on the provider's domains/ },
  { what: 'an endpoint off the domains', base: 'groq', change: (d) => (d.endpoints[0] = 'https://api.groq.com.evil.io/openai/v1/chat/completions'), field: 'endpoints.0', reason: /not on the provider's domains/ },
  { what: 'an endpoint with a password', base: 'deepseek', change: (d) => (d.endpoints[0] = 'https://admin:hunter2@api.deepseek.com/chat/completions'), field: 'endpoints', reason: /without a user name or password/ },
  { what: 'an endpoint with a key in its query', base: 'qwen', change: (d) => (d.endpoints[0] = `${d.endpoints[0]}?api_key=abc123def456`), field: 'endpoints.0', reason: /credential in its query/ },
  // Links in text.
  { what: 'a javascript: link in the description', base: 'perplexity', change: (d) => (d.description += ' See [the docs](javascript:alert(document.cookie)).'), field: 'description', reason: /links in text must be https/ },
  { what: 'an http link in the Chinese description', base: 'moonshot', change: (d) => (d.descriptionCn += '，详见 http://moonshot.example.cn/docs'), field: 'descriptionCn', reason: /links in text must be https/ },
  { what: 'a data: URL in a feature', base: 'zhipu', change: (d) => d.features.push('Inline demo data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='), field: 'features.\\d+', reason: /links in text must be https/ },
  { what: 'a markdown link to http in an error cause', base: 'errors/stripe-429-too-many-requests.yaml', change: (d) => (d.cause += ' See [limits](http://stripe.example.com).'), field: 'cause', reason: /links in text must be https/ },
  // HTML, raw or as character references.
  { what: 'HTML entities in a usage tip', base: 'replicate', change: (d) => d.usageTips.push('Paste &lt;script&gt;alert(1)&lt;/script&gt; into your prompt.'), field: 'usageTips.\\d+', reason: /HTML character reference/ },
  { what: 'HTML entities in the Chinese name', base: 'together-ai', change: (d) => (d.nameCn = `${d.nameCn}&#60;b&#62;`), field: 'nameCn', reason: /HTML character reference/ },
  { what: 'a script tag in the description', base: 'fireworks-ai', change: (d) => (d.description += ' <script>alert(1)</script>'), field: 'description', reason: /contains HTML/ },
  // Characters that hide or reorder text.
  { what: 'NUL in the name', base: 'cerebras', change: (d) => (d.name = `${d.name}\u0000`), field: 'name', reason: /control character \(U\+0000\)/ },
  { what: 'a terminal escape in a curl example', base: 'deepinfra', change: (d) => (bash(d).code = `\u001b[2J${bash(d).code}`), field: 'codeExamples.\\d+.code', reason: /control character \(U\+001B\)/ },
  { what: 'a right-to-left override in the Chinese description', base: 'elevenlabs', change: (d) => (d.descriptionCn += '\u202e价格'), field: 'descriptionCn', reason: /bidirectional control character \(U\+202E\)/ },
  { what: 'a zero-width space in an alias', base: 'xai-grok', change: (d) => d.aliases.push('Gr\u200bok'), field: 'aliases.\\d+', reason: /invisible character \(U\+200B\)/ },
  { what: 'a zero-width joiner in an error title', base: 'errors/github-401-bad-credentials.yaml', change: (d) => (d.titleCn += '\u200d'), field: 'titleCn', reason: /invisible character \(U\+200D\)/ },
  // Names that pass for others.
  { what: 'a name mixing Cyrillic and Latin letters', base: 'deepgram', change: (d) => (d.name = 'Deep\u0433ram API'), field: 'name', reason: /mixes Latin and Cyrillic letters/ },
  { what: 'an all-Cyrillic lookalike of another listing', base: 'runway', change: (d) => (d.name = '\u041e\u0440\u0435\u043f\u0410\u0406'), field: 'name', reason: /nearly the same as 'OpenAI API'/ },
  { what: 'a name nearly the same as another listing', base: 'cartesia', change: (d) => (d.name = 'Anthropic Claud'), field: 'name', reason: /nearly the same as 'Anthropic Claude API'/ },
  { what: "an alias that is another listing's name", base: 'mixedbread', change: (d) => d.aliases.push('Pinecone'), field: 'aliases.\\d+', reason: /name or slug of another listing/ },
  // Facts as data: sources, lifecycles, models and the day they were checked.
  { what: "a price source off the provider's domains", base: 'tavily', change: (d) => (d.prices.source.url = 'https://pricing-mirror.example.com/tavily'), field: 'prices.source.url', reason: /not on the provider's domains .*offDomainReason/ },
  { what: 'a deprecation without the announcement', base: 'exa', change: (d) => (d.lifecycle = { status: 'deprecated' }), field: 'lifecycle.source', reason: /a deprecated status needs the announcement/ },
  { what: 'a retirement without its day', base: 'neon', change: (d) => (d.lifecycle = { status: 'retired', source: { url: d.website, checked: '2026-11-26' } }), field: 'lifecycle.retiresAt', reason: /needs the day it was shut down/ },
  { what: 'an announced shutdown on an active listing', base: 'resend', change: (d) => (d.lifecycle = { status: 'active', retiresAt: '2027-03-01', source: { url: d.website, checked: '2026-11-26' } }), field: 'lifecycle.status', reason: /the status is deprecated, not active/ },
  { what: 'a model named twice', base: 'jina', change: (d) => d.models.push({ ...d.models[0] }), field: 'models.\\d+.id', reason: /is listed twice/ },
  { what: "a context that is not the largest of the models'", base: 'google-gemini', change: (d) => (d.contextTokens = 1000), field: 'contextTokens', reason: /must be the largest context of the listing's models/ },
  { what: 'lastUpdated set by hand', base: 'supabase', change: (d) => (d.lastUpdated = '2026-01-01'), field: 'lastUpdated', reason: /must be the oldest check of the listing's sourced facts/ },
  { what: 'a successor that is no listing', base: 'e2b', change: (d) => (d.lifecycle = { status: 'deprecated', replacedBy: ['no-such-listing'], source: { url: d.website, checked: '2026-11-26' } }), field: 'lifecycle.replacedBy.0', reason: /no listing 'no-such-listing'/ },
  { what: 'a status that disagrees with the lifecycle', base: 'firecrawl', change: (d) => (d.status = 'beta'), field: 'status', reason: /must be 'online' for a listing whose lifecycle is active/ },
  { what: "a rate's own source off the provider's domains", base: 'twilio', change: (d) => (d.prices.rates[0].source = { url: 'https://sms-prices.example.com/twilio', checked: '2026-11-26' }), field: 'prices.rates.0.source.url', reason: /not on the provider's domains .*offDomainReason/ },
  { what: 'a check dated in the future', base: 'lemonsqueezy', change: (d) => (d.sources.auth.checked = '2099-01-01'), field: 'sources.auth.checked', reason: /2099-01-01 is in the future/ },
  { what: 'a source URL with a password', base: 'square', change: (d) => (d.prices.source.url = 'https://editor:hunter2@developer.squareup.com/docs/payments-pricing'), field: 'prices.source.url', reason: /without a user name or password/ },
  { what: 'a model replaced by no model of the listing', base: 'azure-openai', change: (d) => (d.models[0].lifecycle = { status: 'deprecated', replacedBy: ['gpt-99'], source: d.models[0].source }), field: 'models.0.lifecycle.replacedBy.0', reason: /'gpt-99' is not a model of this listing/ },
  { what: 'a maximum output larger than the context', base: 'cloudflare-ai', change: (d) => (d.models[1].maxOutputTokens = d.models[1].contextTokens + 1), field: 'models.1.maxOutputTokens', reason: /is more than the context/ },
  { what: 'a shutdown before the day its status began', base: 'sentry', change: (d) => Object.assign(d, { status: 'deprecated', lifecycle: { status: 'deprecated', since: '2026-11-01', retiresAt: '2026-10-01', source: { url: d.website, checked: '2026-11-26' } } }), field: 'lifecycle.retiresAt', reason: /is before since \(2026-11-01\)/ },
  { what: 'a listing that replaces itself', base: 'voyage-ai', change: (d) => Object.assign(d, { status: 'deprecated', lifecycle: { status: 'deprecated', replacedBy: ['voyage-ai'], source: { url: d.website, checked: '2026-11-26' } } }), field: 'lifecycle.replacedBy', reason: /a listing does not replace itself/ },
  { what: 'a repository source on a branch, not the commit read', base: 'mem0', change: (d) => (d.rateLimits.source.url = d.rateLimits.source.url.replace(/\/blob\/[0-9a-f]{40}\//, '/blob/main/')), field: 'rateLimits.source.url', reason: /is not pinned to a commit: a repository file is a source only at the commit read: link https:\/\/github\.com\/mem0ai\/mem0\/blob\/<commit>\/docs\/platform\/agent-signup\.mdx/ },
  { what: 'a bare repository as a source', base: 'clerk', change: (d) => (d.sources.auth.url = 'https://github.com/clerk/clerk-docs'), field: 'sources.auth.url', reason: /is not pinned to a commit: a repository file is a source only at the commit read/ },
  { what: 'a repository source on a short commit', base: 'speechmatics', change: (d) => (d.prices.source.url = d.prices.source.url.replace(/\/blob\/([0-9a-f]{7})[0-9a-f]{33}\//, '/blob/$1/')), field: 'prices.source.url', reason: /is not pinned to a commit: .*the commit in full \(40 hex digits\)/ },
  { what: 'a raw repository file on a branch', base: 'unstructured', change: (d) => (d.sources.freeTier.url = 'https://raw.githubusercontent.com/Unstructured-IO/unstructured-python-client/main/README.md'), field: 'sources.freeTier.url', reason: /is not pinned to a commit: a repository file is a source only at the commit read: link https:\/\/github\.com\/Unstructured-IO\/unstructured-python-client\/blob\/<commit>\/README\.md/ },
  { what: "a migration link off the provider's domains", base: 'discord', change: (d) => (d.lifecycle = { status: 'deprecated', migrationUrl: 'https://migrate.example.com/discord', source: { url: d.website, checked: '2026-11-26' } }), field: 'lifecycle.migrationUrl', reason: /not on the provider's domains/ },
  // Who, where, what, and the models: the new facts are held to the same rules.
  { what: 'an offer naming a model entry that does not exist', base: 'luma-ai', change: (d) => (d.models[0].canonical = 'no-such-model'), field: 'models.0.canonical', reason: /no model entry 'no-such-model'/ },
  { what: 'capabilities without a source', base: 'openrouter', change: (d) => (d.models[0].capabilities = { tools: true, structuredOutput: null, reasoning: null, batch: null, fineTuning: null, promptCaching: null }), field: 'models.0.capabilities.source', reason: /must be a mapping/ },
  { what: 'capabilities that state nothing', base: 'huggingface', change: (d) => (d.models[0].capabilities = { tools: null, structuredOutput: null, reasoning: null, batch: null, fineTuning: null, promptCaching: null, source: { url: d.website, checked: '2026-11-26' } }), field: 'models.0.capabilities', reason: /states no capability/ },
  { what: 'data regions without the page that states them', base: 'baseten', change: (d) => (d.provider = { name: 'Baseten', country: 'us', dataRegions: ['eu'], source: { url: d.website, checked: '2026-11-26' } }), field: 'provider.dataRegionsSource', reason: /data regions need the page that states them/ },
  { what: 'a country code that is no country', base: 'assemblyai', change: (d) => (d.provider = { name: 'AssemblyAI', country: 'xx', dataRegions: [], source: { url: d.website, checked: '2026-11-26' } }), field: 'provider.country', reason: /lowercase ISO 3166-1 country code/ },
  { what: 'a task not on the task list', base: 'modal', change: (d) => (d.tasks = ['teleportation']), field: 'tasks.0', reason: /unknown task 'teleportation'/ },
  { what: "a remote MCP server off the provider's domains", base: 'runpod', change: (d) => (d.mcpServers = [{ name: 'Runpod MCP', transport: 'streamable-http', url: 'https://mcp.example.com/runpod', auth: ['oauth'], covers: 'Manage pods', coversCn: '管理实例', lifecycle: { status: 'active' }, source: { url: d.website, checked: '2026-11-26' } }]), field: 'mcpServers.0.url', reason: /not on the provider's domains/ },
  { what: 'markets on a listing that takes no payments', base: 'gladia', change: (d) => (d.markets = { worldwide: true, buyerCountries: [], merchantCountries: ['us'], settlementCurrencies: ['USD'], paymentMethods: ['card'], source: { url: d.website, checked: '2026-11-26' } }), field: 'markets', reason: /only payment listings have markets/ },
];

function fixturePath(base: string): string {
  return base.startsWith('errors/') ? `fixtures/${base}` : `fixtures/listings/${base}.yaml`;
}

/** The fixture with the case's change, written under `dir` with the fixture's own file name. */
function plant(dir: string, { base, change }: Case): string {
  const doc = parse(readFileSync(fixturePath(base), 'utf8'));
  change(doc);
  const file = join(dir, basename(fixturePath(base)));
  writeFileSync(file, stringify(doc));
  return file;
}

const streamLength = () => redis.xlen(stream);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'hostile-'));
  const seeded = await runCli(namespace, ['ingest', 'fixtures']);
  expect(seeded.code).toBe(0);
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await dropNamespace(namespace);
  await redis.quit();
});

it('every case revises a fixture of its own', () => {
  expect(new Set(CASES.map((c) => c.base)).size).toBe(CASES.length);
});

/** The oldest day any source of a listing file was checked: what its lastUpdated must be. */
function oldestCheck(doc: unknown): string {
  const days: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) key === 'checked' && typeof item === 'string' ? days.push(item) : walk(item);
  };
  walk(doc);
  return days.sort()[0];
}

describe('each hostile file is refused, with its file, field and reason, by ingest and by check:content', () => {
  let ingest: string[];
  let check: string[];
  const files = new Map<Case, string>();
  let before: number;

  beforeAll(async () => {
    // ingest: the hostile files alone, as an editor would send their changes.
    const changes = join(work, 'changes');
    mkdirSync(changes);
    for (const c of CASES) files.set(c, plant(changes, c));
    before = await streamLength();
    const run = await runCli(namespace, ['ingest', changes]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/problem\(s\) found; nothing was written\.\n$/);
    ingest = run.stderr.split('\n');
    // check:content: the whole content folder with the same changes in it.
    const folder = join(work, 'content');
    cpSync('fixtures', folder, { recursive: true });
    for (const c of CASES) plant(c.base.startsWith('errors/') ? join(folder, 'errors') : join(folder, 'listings'), c);
    const checked = spawnSync(process.execPath, ['dist/ingest/check-content.js', folder], { encoding: 'utf8' });
    expect(checked.status).toBe(1);
    check = checked.stderr.split('\n').map((line) => line.replace(folder, '').replace(/^\/(listings|errors)\//, ''));
  });

  it('nothing was written', async () => {
    expect(await streamLength()).toBe(before);
  });

  it.each(CASES.map((c) => [c.what, c] as const))('%s', (_, c) => {
    const name = basename(fixturePath(c.base));
    const line = new RegExp(`^${c.field}: .*${c.reason.source}`);
    const inIngest = ingest.filter((l) => l.startsWith(`${files.get(c)}: `)).map((l) => l.slice(files.get(c)!.length + 2));
    const inCheck = check.filter((l) => l.startsWith(`${name}: `)).map((l) => l.slice(name.length + 2));
    expect({ ingest: inIngest.some((l) => line.test(l)), lines: inIngest }).toEqual({ ingest: true, lines: inIngest });
    expect({ check: inCheck.some((l) => line.test(l)), lines: inCheck }).toEqual({ check: true, lines: inCheck });
  });
});

describe('files ingest refuses on their own', () => {
  it('a JSON file with a key given twice', async () => {
    const dir = mkdtempSync(join(work, 'json-'));
    const doc = parse(readFileSync('fixtures/listings/openai.yaml', 'utf8'));
    const json = JSON.stringify(doc, null, 2).replace(/"name": "[^"]*"/, (name) => `${name},\n  "name": "Evil AI"`);
    const file = join(dir, 'openai.json');
    writeFileSync(file, json);
    const before = await streamLength();
    const run = await runCli(namespace, ['ingest', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^${file}: \\(file\\): not valid JSON: the key "name" is given twice in one object \\(line \\d+\\)`, 'm'));
    expect(await streamLength()).toBe(before);
    const folder = join(work, 'json-content');
    cpSync('fixtures', folder, { recursive: true });
    rmSync(join(folder, 'listings', 'openai.yaml'));
    writeFileSync(join(folder, 'listings', 'openai.json'), json);
    const checked = spawnSync(process.execPath, ['dist/ingest/check-content.js', folder], { encoding: 'utf8' });
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain('openai.json: (file): not valid JSON: the key "name" is given twice');
  });

  it('a revision that adds a domain, unless the editor says so', async () => {
    const dir = mkdtempSync(join(work, 'domains-'));
    const file = join(dir, 'openai.yaml');
    const doc = parse(readFileSync('fixtures/listings/openai.yaml', 'utf8'));
    doc.domains = [...doc.domains, 'openai-mirror.net'];
    doc.docsUrl = 'https://docs.openai-mirror.net/api';
    writeFileSync(file, stringify(doc));
    const before = await streamLength();
    const refused = await runCli(namespace, ['ingest', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file}: domains: adds 'openai-mirror.net' to the provider's domains (now openai.com); they decide which URLs the listing may link to: run ingest with --allow-new-domains if this is intended`);
    expect(await streamLength()).toBe(before);
    const allowed = await runCli(namespace, ['ingest', '--allow-new-domains', file]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('revised listing openai (docsUrl, domains)');
    expect(await streamLength()).toBe(before + 1);
  });

  it("a new listing that claims another listing's domain, unless the editor says it is the same provider's", async () => {
    const dir = mkdtempSync(join(work, 'claim-'));
    const file = join(dir, 'stripe-mirror.yaml');
    const doc = parse(readFileSync('fixtures/listings/stripe.yaml', 'utf8'));
    doc.slug = 'stripe-mirror';
    doc.name = 'Payments Mirror';
    doc.nameCn = '支付镜像';
    doc.aliases = [];
    doc.domains = ['stripe.com', 'payments-mirror.net'];
    writeFileSync(file, stringify(doc));
    const before = await streamLength();
    const refused = await runCli(namespace, ['ingest', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file}: domains: claims domains other listings hold: 'stripe.com' (stripe.com: stripe)`);
    expect(refused.stderr).toContain('run ingest with --allow-new-domains');
    expect(await streamLength()).toBe(before);
  });

  it('a revision that changes a fact under the date of its last check, until the check is dated again', async () => {
    const dir = mkdtempSync(join(work, 'recheck-'));
    const file = join(dir, 'mistral.yaml');
    const doc = parse(readFileSync('fixtures/listings/mistral.yaml', 'utf8'));
    // The published version's checks of the two facts are dated in the past (whatever the day the
    // shipped content was checked): a revision dated like it must be a revision of the same facts.
    const checkedBefore = '2026-01-05';
    doc.models[0].source.checked = checkedBefore;
    doc.sources.freeTier.checked = checkedBefore;
    doc.lastUpdated = oldestCheck(doc);
    writeFileSync(file, stringify(doc));
    expect((await runCli(namespace, ['ingest', file])).code).toBe(0);
    doc.models[0].prices[0].price = doc.models[0].prices[0].price * 2;
    doc.freeTier = false;
    // Sources and wording that change alone are no change of a fact.
    doc.sources.openaiCompatible.quote = 'Chat completions take OpenAI-style requests';
    writeFileSync(file, stringify(doc));
    const before = await streamLength();
    const refused = await runCli(namespace, ['ingest', file]);
    expect(refused.code).toBe(1);
    const problems = refused.stderr.split('\n').filter((line) => line.startsWith(`${file}: `));
    expect(problems).toEqual([
      `${file}: models.0.source.checked: the fact changed, but its check is still ${checkedBefore} (that of the version it revises): check it again on the provider's page and give that day`,
      `${file}: sources.freeTier.checked: the fact changed, but its check is still ${checkedBefore} (that of the version it revises): check it again on the provider's page and give that day`,
    ]);
    expect(await streamLength()).toBe(before);
    // Checked again today: the revision goes in.
    const today = new Date().toISOString().slice(0, 10);
    doc.models[0].source.checked = today;
    doc.sources.freeTier.checked = today;
    doc.lastUpdated = oldestCheck(doc);
    writeFileSync(file, stringify(doc));
    const accepted = await runCli(namespace, ['ingest', file]);
    expect({ code: accepted.code, stderr: accepted.stderr }).toEqual({ code: 0, stderr: '' });
    expect(await streamLength()).toBe(before + 1);
  });

  it('a model whose announced shutdown has passed, not marked retired (check:content only warns of it: a day going by never fails the check)', async () => {
    const dir = mkdtempSync(join(work, 'shutdown-'));
    const file = join(dir, 'kling.yaml');
    const doc = parse(readFileSync('fixtures/listings/kling.yaml', 'utf8'));
    doc.models[0].lifecycle = { status: 'deprecated', retiresAt: '2026-01-01', source: doc.models[0].source };
    writeFileSync(file, stringify(doc));
    const before = await streamLength();
    const refused = await runCli(namespace, ['ingest', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file}: models.0.lifecycle.status: its shutdown (2026-01-01) has passed: the status is retired, not deprecated`);
    expect(await streamLength()).toBe(before);
    doc.models[0].lifecycle = { status: 'retired', since: '2026-01-01', retiresAt: '2026-01-01', source: doc.models[0].source };
    writeFileSync(file, stringify(doc));
    expect((await runCli(namespace, ['ingest', file])).code).toBe(0);
  });

  it('a new listing is checked against the listings of the directory, not only those of its folder', async () => {
    const dir = mkdtempSync(join(work, 'new-'));
    const doc = parse(readFileSync('fixtures/listings/cohere.yaml', 'utf8'));
    Object.assign(doc, { slug: 'cohere-copy', name: 'Coheree', aliases: ['Claude'] });
    writeFileSync(join(dir, 'cohere-copy.yaml'), stringify(doc));
    const before = await streamLength();
    const run = await runCli(namespace, ['ingest', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cohere-copy\.yaml: name: 'Coheree' is nearly the same as 'Cohere API' \(already in the directory\)/);
    expect(run.stderr).toMatch(/cohere-copy\.yaml: aliases\.0: 'Claude' is also an alias of another listing \('Claude' in anthropic, a listing already in the directory\)/);
    expect(await streamLength()).toBe(before);
  });
});
