import { HtmlValidate } from 'html-validate';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { CompareResponse, ToolDetailResponse } from '../../src/contract/responses';
import { WithdrawListingCommand } from '../../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { EventStore } from '../../src/event-store/event-store.service';
import { LIVENESS_AGGREGATE, LIVENESS_PUBLISHED } from '../../src/liveness/rules/liveness.aggregate';
import { compareText } from '../../src/pages/compare/compare-messages';
import { listingText } from '../../src/pages/listing/listing-messages';
import { MESSAGES } from '../../src/pages/messages';
import { PAGE_CSP } from '../../src/pages/page-errors.filter';
import { RunningService, startService } from '../support/harness';
import { fixtureListing, withUnsourced } from '../support/fixtures';
import { PublishListingCommand } from '../../src/listings/write/commands/publish-listing/publish-listing.command';
import { HTML_RULES } from './html-rules';

/**
 * The pages over HTTP, as a browser and a search engine fetch them: what GET / answers whom, every page
 * type in both languages valid and within its size, caching and compression like the JSON bodies, the
 * pages' own Content-Security-Policy, errors as pages with their status, the public directory's paths
 * redirected, sitemap.xml, opensearch.xml and robots.txt. (The same pages in a real browser:
 * browser.e2e-spec.ts.)
 */
let service: RunningService;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const MAX_PAGE_BYTES = 60 * 1024;

beforeAll(async () => {
  service = await startService('pages');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  await service.command(new WithdrawListingCommand('cartesia', 'editor', 'folded into ElevenLabs', ['elevenlabs']));
});
afterAll(() => service?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.baseUrl}${path}`, { headers: { accept: BROWSER, ...headers }, redirect: 'manual' });
const page = async (path: string) => (await get(path)).text();
const api = async <T>(path: string) => (await (await fetch(`${service.baseUrl}${path}`)).json()) as T;

/** The HTML from the element with `id="from"` to the one with `id="to"`. */
function section(html: string, from: string, to: string): string {
  const start = html.indexOf(`id="${from}"`);
  const end = html.indexOf(`id="${to}"`, start);
  if (start < 0 || end < 0) throw new Error(`no section from #${from} to #${to}`);
  return html.slice(start, end);
}

/** The cells (their inner HTML, in order) of the table row headed `label`. */
function row(html: string, label: string): string[] {
  const start = html.indexOf(`<th scope="row">${label}</th>`);
  if (start < 0) throw new Error(`no row headed “${label}”`);
  return [...html.slice(start, html.indexOf('</tr>', start)).matchAll(/<td>(.*?)<\/td>/gs)].map((m) => m[1]);
}

/** Ten of the listings with the most to show side by side (models, prose, rates): the largest comparison. */
const TEN = 'openai,mistral,azure-openai,runway,black-forest-labs,cohere,anthropic,xai-grok,jina,groq';

/** One page of each type, in English (the Chinese ones are the same under /zh). */
const PAGE_TYPES: Array<[string, string]> = [
  ['home', '/'],
  ['search', '/search?q=text%20to%20speech&freeTier=true'],
  ['search, nothing found', '/search?q=zzzzqqqq'],
  ['search by price and lifecycle', '/search?q=chat&maxPrice=5&priceUnit=1m-input-tokens&lifecycle=active'],
  ['search in an order', '/search?q=embedding&sort=price&priceUnit=1m-input-tokens'],
  ['category', '/categories/llm'],
  ['listing', '/apis/openai'],
  ['compare', '/compare?ids=openai,anthropic,no-such-api,cartesia'],
  ['compare, ten listings', `/compare?ids=${TEN}`],
  ['compare, nothing chosen', '/compare'],
  ['error reference', '/errors?provider=openai'],
  ['recent changes', '/changes'],
  ['models', '/models?input=image&minContext=200k&sort=price&priceUnit=1m-input-tokens'],
  ['models, every one', '/models'],
  ['model', '/models/gpt-oss-120b'],
];
const inZh = (path: string) => (path === '/' ? '/zh/' : `/zh${path}`);
const EVERY_PAGE = PAGE_TYPES.flatMap(([name, path]) => [[`${name} (en)`, path] as const, [`${name} (zh)`, inZh(path)] as const]);

describe('GET /', () => {
  it('answers a browser with the home page and an agent with the JSON index, both saying they vary by Accept', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('vary')).toBe('Accept-Encoding, Accept');
    expect(await page.text()).toContain('<html lang="en">');
    for (const accept of ['*/*', 'application/json', 'application/json, text/html;q=0.5']) {
      const index = await get('/', { accept });
      expect(index.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(index.headers.get('vary')).toBe('Accept-Encoding, Accept');
      expect(index.headers.get('link')).toContain('rel="service-desc"');
      expect((await index.json()).success).toBe(true);
    }
    const bare = await fetch(`${service.baseUrl}/`);
    expect(((await bare.json()) as { _links: Record<string, string> })._links.openapi).toBe('/api/v1/openapi.json');
  });

  it('leaves every JSON route as it was: a browser asking the API gets JSON', async () => {
    for (const path of ['/api/v1/tools/openai', '/api/v1/tools/search?q=tts', '/api/v1/tools/categories', '/api/v1/errors', '/llms.txt']) {
      const answer = await get(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).not.toContain('text/html');
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    }
  });
});

describe.each(EVERY_PAGE)('the %s page', (_name, path) => {
  let html: string;
  let answer: Response;
  beforeAll(async () => {
    answer = await get(path);
    html = await answer.text();
  });

  it('is HTML in its language, within 60 KB, with its policy and cache headers', () => {
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=60');
    expect(answer.headers.get('etag')).toMatch(/^(W\/)?"[\w-]{22}(-br|-gzip)?"$/);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(path.startsWith('/zh') ? '<html lang="zh-Hans">' : '<html lang="en">');
  });

  it('is valid HTML', async () => {
    const report = await new HtmlValidate(HTML_RULES).validateString(html);
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message} (${m.selector})`))).toEqual([]);
  });

  it('names its canonical URL, its other-language version, Open Graph data and its JSON-LD', () => {
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    expect(canonical).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(html).toMatch(/<link rel="alternate" hreflang="en" href="[^"]+"/);
    expect(html).toMatch(/<link rel="alternate" hreflang="zh-Hans" href="[^"]+\/zh\//);
    expect(html).toMatch(/<meta property="og:title" content="[^"]+"/);
    expect(html).toMatch(/<meta property="og:description" content="[^"]+"/);
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]) as { '@type': string });
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(['WebSite', 'WebAPI', 'BreadcrumbList', 'ItemList']).toContain(block['@type']);
  });

  it('links to nothing on another host but the listings’ own sites, and loads nothing from one', () => {
    const loaded = [...html.matchAll(/<(?:script|link|img)\b[^>]*\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((url) => !/rel="(canonical|alternate)"/.test(url));
    const offSite = [...html.matchAll(/<(script|img)\b[^>]*\ssrc="([^"]+)"/g), ...html.matchAll(/<link\b(?=[^>]*rel="(?:stylesheet|icon|search)")[^>]*href="([^"]+)"/g)]
      .map((m) => m[m.length - 1])
      .filter((url) => !url.startsWith('/'));
    expect(loaded.length).toBeGreaterThan(0);
    expect(offSite).toEqual([]);
    expect(html).not.toMatch(/<script(?![^>]*(src="\/assets\/site\.js"|type="application\/ld\+json"))[^>]*>/);
    expect(html).not.toMatch(/\sstyle="/);
  });
});

describe('a listing page', () => {
  it('gives each fact every listing sources its source, and says so of one not yet confirmed, in both languages', async () => {
    const facts = (html: string) => html.slice(html.indexOf('id="agent-facts"'), html.indexOf('</dl>', html.indexOf('id="agent-facts"')));
    // Planted: the shipped content sources every decision fact it states.
    await service.command(new PublishListingCommand(withUnsourced(fixtureListing('mathpix'), ['freeTier']), { actor: 'test' }));
    const mathpix = facts(await (await get('/apis/mathpix')).text());
    expect(mathpix.match(/not yet confirmed on the provider’s pages/g)).toHaveLength(1);
    expect(mathpix).toContain('href="https://docs.mathpix.com/guides/authentication"');
    expect(facts(await (await get('/zh/apis/mathpix')).text()).match(/尚未在提供方的页面上核实/g)).toHaveLength(1);
    // Facts no page of the provider's states are shown as not stated, not as unconfirmed (Serper's free tier
    // and scheme); a search API is not asked whether it is OpenAI-compatible: that row is left out.
    const serper = facts(await (await get('/apis/serper')).text());
    expect(serper).not.toContain('not yet confirmed');
    expect(serper.match(new RegExp(MESSAGES.en.notStated, 'g'))).toHaveLength(2);
    expect(facts(await (await get('/zh/apis/serper')).text()).match(new RegExp(MESSAGES.zh.notStated, 'g'))).toHaveLength(2);
    expect(serper).not.toContain(MESSAGES.en.openaiCompatible);
    expect(facts(await (await get('/apis/openai')).text())).not.toContain('not yet confirmed');
  });

  it('shows each model with its context, maximum output and prices, and the page and day each was checked', async () => {
    const { tool } = await api<ToolDetailResponse>('/api/v1/tools/openai');
    const luna = tool.models!.find((model) => model.id === 'gpt-6-luna')!;
    expect(luna).toBeDefined();
    const models = section(await page('/apis/openai'), 'models', 'prices');
    expect(models.match(/<tr(?: class="going")?><th scope="row">/g)).toHaveLength(tool.models!.length);
    const start = models.indexOf('<code>gpt-6-luna</code>');
    const lunaRow = models.slice(start, models.indexOf('</tr>', start));
    // Context and output in words, their figure beside them for ordering the rows.
    const [context, output] = [luna.contextTokens!, luna.maxOutputTokens!];
    expect(lunaRow).toContain(`<td data-value="${context}">${MESSAGES.en.tokensInWords(context)}</td><td data-value="${output}">${MESSAGES.en.tokensInWords(output)}</td>`);
    expect(lunaRow).toContain('<td data-value="1050000">1.05M tokens</td>');
    // Input, output and cached input per million tokens, each in a column of its own (USD / 1M in the header).
    const rate = (unit: string) => luna.prices.find((r) => r.unit === unit)!.price;
    const cell = (unit: string) => `<td data-value="${rate(unit)}"><div>${rate(unit)}</div></td>`;
    expect(lunaRow).toContain(`${cell('1m-input-tokens')}${cell('1m-output-tokens')}${cell('1m-cached-input-tokens')}`);
    expect(lunaRow).toContain('<td data-value="0.1"><div>0.1</div></td>');
    expect(models).toContain('<th scope="col" data-sort="number">Input<br/><span class="small">USD / 1M</span></th>');
    expect(lunaRow).toContain(`<a href="${luna.source.url}" rel="nofollow noopener">${luna.source.checked}</a>`);
  });

  it("shows a rate's own source beside it, when another page than the prices' states it", async () => {
    const { tool } = await api<ToolDetailResponse>('/api/v1/tools/clerk');
    const rate = tool.prices!.rates[0];
    const html = section(await page('/apis/clerk'), 'prices', 'rate-limits');
    expect(html).toContain(`<div>${rate.price} USD per request (API key creation; The first 1,000 creations a month are free.) <span class="source"><a href="${rate.source!.url}" rel="nofollow noopener">Source</a> (checked <time datetime="2026-11-27">2026-11-27</time>)</span></div>`);
    expect(section(await page('/zh/apis/clerk'), 'prices', 'rate-limits')).toContain('>来源</a> (核对于 <time datetime="2026-11-27">');
  });

  it('shows its prices as data, the free quota and rates, with their source, checked and stale-after days', async () => {
    const { tool } = await api<ToolDetailResponse>('/api/v1/tools/cloudflare');
    const prices = tool.prices!;
    expect(prices.rates.length).toBeGreaterThan(0);
    expect(prices.freeQuota.length).toBeGreaterThan(0);
    const html = section(await page('/apis/cloudflare'), 'prices', 'rate-limits');
    expect(html).toContain(`<dt>Currency</dt><dd>${prices.currency}</dd>`);
    for (const rate of prices.rates) expect(html).toContain(`<div>${rate.price} ${prices.currency} ${MESSAGES.en.rateUnits[rate.unit].replace(/^Per /, 'per ')}`);
    // A free allowance in words: `100,000 × request a day`.
    expect(html).toContain('<div>100,000 × request a day<span>');
    expect(prices.freeQuota[0]).toMatchObject({ amount: 100000, unit: 'request', period: 'day' });
    expect(html).toContain(`<a href="${prices.source.url}" rel="nofollow noopener">Source</a> (checked <time datetime="${prices.source.checked}">${prices.source.checked}</time>, stale after <time datetime="${prices.source.staleAfter}">`);
  });

  it('shows its rate limits as a table, the headers that report them and their source; one without says so', async () => {
    const { tool } = await api<ToolDetailResponse>('/api/v1/tools/openai');
    const { limits, headers, source } = tool.rateLimits!;
    expect(limits.length).toBeGreaterThan(0);
    const html = section(await page('/apis/openai'), 'rate-limits', 'errors');
    const en = listingText('en');
    for (const limit of limits) {
      const words = en.limitText(en.tokens(limit.limit), en.limitMetrics[limit.metric], limit.per ? en.limitPeriods[limit.per] : null);
      expect(html).toContain(`<tr><td>${limit.tier}</td><td>${en.limitScopes[limit.scope]}</td><td>${words}</td><td>${limit.appliesTo ?? '–'}</td></tr>`);
    }
    expect(html).toContain('<tr><td>build</td><td>per organization</td><td>1,000,000 tokens a minute</td><td>gpt-6-astra</td></tr>');
    for (const header of headers) expect(html).toContain(`<code>${header}</code>`);
    expect(html).toContain(`<a href="${source.url}" rel="nofollow noopener">Source</a> (checked <time datetime="${source.checked}">${source.checked}</time>`);
    expect((await api<ToolDetailResponse>('/api/v1/tools/serper')).tool.rateLimits).toBeNull();
    expect(section(await page('/apis/serper'), 'rate-limits', 'errors')).toContain('Not recorded yet.');
  });

  it('labels the models, prices and rate limits in Chinese on the Chinese page', async () => {
    const html = await page('/zh/apis/openai');
    const models = section(html, 'models', 'prices');
    expect(html).toContain('<h3 id="models">模型</h3>');
    for (const label of ['模型', '输入 → 输出', '其他价格', '能力', '生命周期', '来源']) expect(models).toContain(`<th scope="col">${label}</th>`);
    for (const label of ['上下文', '最大输出']) expect(models).toContain(`<th scope="col" data-sort="number">${label}</th>`);
    for (const label of ['输入', '输出', '缓存输入']) expect(models).toContain(`<th scope="col" data-sort="number">${label}<br/><span class="small">USD／百万</span></th>`);
    expect(models).toContain('<code>gpt-6-luna</code>');
    const prices = section(html, 'prices', 'rate-limits');
    expect(prices).toContain('id="prices">价格明细</h3>');
    for (const label of ['币种', '计费模式', '免费额度', '费率', '批量折扣', '来源']) expect(prices).toContain(`<dt>${label}</dt>`);
    // Values in Chinese too: the pricing model, a rate's unit, the model kinds.
    expect(prices).toContain('<dt>计费模式</dt><dd>按量付费');
    expect(models).toMatch(/每百万 token [\d.]+ USD/);
    expect(models).toContain('<div class="small muted">推理</div>');
    expect(prices).toMatch(/来源<\/a> \(核对于 <time datetime="[\d-]+">[\d-]+<\/time>, 过期日 <time/);
    const limits = section(html, 'rate-limits', 'errors');
    expect(html).toContain('<h3 id="rate-limits">速率限制明细</h3>');
    for (const label of ['等级', '范围', '上限', '适用于']) expect(limits).toContain(`<th scope="col">${label}</th>`);
    expect(limits).toContain('<tr><td>build</td><td>按组织</td><td>每分钟 1,000,000 token</td><td>gpt-6-astra</td></tr>');
    expect(limits).toContain('报告限额的响应头');
    expect(section(await page('/zh/apis/serper'), 'rate-limits', 'errors')).toContain('尚未记录。');
  });
});

describe("a listing page's head", () => {
  const head = (html: string) => html.slice(html.indexOf('<p class="meta">'), html.indexOf('</p>', html.indexOf('<p class="meta">')));

  it('shows no health nobody measured: not checked yet until the prober publishes, then what it found, linking to it', async () => {
    expect(head(await page('/apis/replicate'))).toContain('<span class="badge unchecked">not checked yet</span>');
    expect(head(await page('/apis/replicate'))).not.toContain('badge online');
    expect(head(await page('/zh/apis/replicate'))).toContain('<span class="badge unchecked">尚未检查</span>');
    // The prober's finding, as it would publish it: every target answering.
    const now = new Date().toISOString();
    await service.app.get(EventStore).append(LIVENESS_AGGREGATE, 'replicate', 0, [{ type: LIVENESS_PUBLISHED, data: { document: { state: 'ok', checkedAt: now, lastOk: now, failingSince: null, targets: [] } } }], 'prober');
    while ((await api<ToolDetailResponse>('/api/v1/tools/replicate')).tool.liveness === null) await new Promise((resolve) => setImmediate(resolve));
    expect(head(await page('/apis/replicate'))).toContain('<a class="badge online" href="#liveness">answering</a>');
  });
});

describe('the compare page', () => {
  // OpenAI publishes rates, models and limits; Serper has none of them and states none of the decision
  // facts; Datadog has limits, and its authentication scheme is planted without its source.
  const IDS = 'openai,serper,datadog';
  const en = compareText('en');
  let answer: CompareResponse;
  let html: string;
  let zh: string;
  beforeAll(async () => {
    await service.command(new PublishListingCommand(withUnsourced(fixtureListing('datadog'), ['auth']), { actor: 'test' }));
    answer = await api<CompareResponse>(`/api/v1/tools/compare?ids=${IDS}`);
    html = await page(`/compare?ids=${IDS}`);
    zh = await page(`/zh/compare?ids=${IDS}`);
  });

  it('puts the lowest US-dollar rate of each unit side by side, an em dash where a listing publishes none, and where the prices come from', () => {
    expect(answer.compared.map((listing) => listing.slug)).toEqual(IDS.split(','));
    expect(answer.rates.length).toBeGreaterThan(1);
    const rates = section(html, 'rates', 'pick');
    expect(rates).toContain('id="rates">Lowest rates (USD)</h2>');
    const headers = [...rates.matchAll(/<th scope="col"><a href="\/apis\/([a-z0-9-]+)">/g)].map((m) => m[1]);
    expect(headers).toEqual(IDS.split(','));
    const units = [...rates.matchAll(/<tr><th scope="row">([^<]+)<\/th>/g)].map((m) => m[1]);
    expect(units).toEqual([...answer.rates.map((rate) => en.rateUnits[rate.unit]), 'Deprecated models (left out)', 'Source of the prices']);
    for (const rate of answer.rates) {
      expect(row(rates, en.rateUnits[rate.unit])).toEqual(answer.compared.map((listing) => (rate.lowest[listing.slug] === null ? '—' : `${rate.lowest[listing.slug]} USD`)));
    }
    // GPT-5 nano's 0.05 is OpenAI's cheapest input rate, but it shuts down on 2026-12-11: GPT-6 Luna's 0.1 is the lowest to plan on,
    // and the deprecated models are named beside it, with the day the first shuts down.
    expect(row(rates, 'Per 1M input tokens')).toEqual(['0.1 USD', '—', '—']);
    const deprecated = answer.compared[0].models!.filter((model) => model.lifecycle.status === 'deprecated');
    expect(row(rates, 'Deprecated models (left out)')).toEqual([`<a href="/apis/openai#retirements">${deprecated.length} models, first shut down 2026-12-11</a>`, '—', '—']);
    const sources = row(rates, 'Source of the prices');
    answer.compared.forEach((listing, i) => {
      if (listing.prices) expect(sources[i]).toContain(`<a href="${listing.prices.source.url}" rel="nofollow noopener">Source</a> (checked <time datetime="${listing.prices.source.checked}">`);
      else expect(sources[i]).toContain('Not recorded yet.');
    });
    expect(sources[0]).toContain('href="https://developers.openai.com/api/docs/pricing"');
  });

  it('says so when none of the listings compared publishes a rate in US dollars', async () => {
    expect((await api<CompareResponse>('/api/v1/tools/compare?ids=alipay,zhipu')).rates).toEqual([]);
    const rates = section(await page('/compare?ids=alipay,zhipu'), 'rates', 'pick');
    expect(rates).toContain(en.compareRatesNone);
    expect(rates).not.toContain('<table');
  });

  it('sums up each listing’s models (count, largest context and its source) and rate limits (count, the first, their source), linking to its listing page’s tables', async () => {
    const models = row(html, 'Models');
    const limits = row(html, 'Rate limits, as figures');
    answer.compared.forEach((listing, i) => {
      if (!listing.models) expect(models[i]).toContain('Not recorded yet.');
      else {
        expect(models[i]).toContain(`<a href="/apis/${listing.slug}#models">${en.compareModels(listing.models.length)}</a>`);
        const largest = [...listing.models].filter((model) => model.contextTokens !== null).sort((a, b) => b.contextTokens! - a.contextTokens!)[0];
        if (largest) expect(models[i]).toContain(`${en.compareLargestContext(en.tokens(largest.contextTokens!))} <span class="source"><a href="${largest.source.url}"`);
      }
      if (!listing.rateLimits) expect(limits[i]).toContain('Not recorded yet.');
      else {
        expect(limits[i]).toContain(`<a href="/apis/${listing.slug}#rate-limits">${en.compareLimits(listing.rateLimits.limits.length)}</a>`);
        expect(limits[i]).toContain(`<a href="${listing.rateLimits.source.url}" rel="nofollow noopener">Source</a> (checked <time datetime="${listing.rateLimits.source.checked}">`);
      }
    });
    expect(models[0]).toMatch(/^<div><a href="\/apis\/openai#models">\d+ models<\/a><\/div><div>Largest context 1,050,000 tokens <span class="source">/);
    expect(limits[0]).toContain('<div>The first: 1,000,000 tokens a minute<span> (build, gpt-6-astra)</span></div>');
    expect(limits[2]).toMatch(/<a href="\/apis\/datadog#rate-limits">\d+ limits?<\/a>/);
    expect(models[1]).toContain('Not recorded yet.');
    // The anchors it links to.
    const listing = await page('/apis/openai');
    expect(listing).toContain('<h3 id="models">');
    expect(listing).toContain('<h3 id="rate-limits">');
  });

  it('gives each decision fact its source (the page and the day it was checked), or says it is not yet confirmed, as the listing page does', () => {
    const facts = [
      ['Free tier', 'freeTier'],
      ['Authentication scheme', 'auth'],
      ['OpenAI-compatible', 'openaiCompatible'],
    ] as const;
    for (const [label, fact] of facts) {
      const cells = row(html, label);
      answer.compared.forEach((listing, i) => {
        const source = listing.sources?.[fact] ?? null;
        const value = fact === 'auth' ? listing.authType : listing[fact];
        if (source) expect(cells[i]).toContain(`<a href="${source.url}" rel="nofollow noopener">Source</a> (checked <time datetime="${source.checked}">${source.checked}</time>)`);
        else if (value === null) expect(cells[i]).toBe(en.notStated);
        else expect(cells[i]).toContain('<span class="source">not yet confirmed on the provider’s pages</span>');
      });
    }
    // Serper states none of the three (not stated, and so not unconfirmed); Datadog's scheme is stated
    // without a source, and its free tier has its source (its documentation repository).
    expect(row(html, 'Free tier')[1]).toBe(en.notStated);
    expect(row(html, 'Authentication scheme')[2]).toContain('not yet confirmed');
    expect(row(html, 'Free tier')[2]).toContain('>Source</a>');
    expect(html.match(/not yet confirmed on the provider’s pages/g)).toHaveLength(1);
    expect(html.match(new RegExp(`>${en.notStated}<`, 'g'))).toHaveLength(3);
  });

  it('reads in Chinese on the Chinese page', () => {
    const zhm = MESSAGES.zh;
    const rates = section(zh, 'rates', 'pick');
    expect(rates).toContain('id="rates">最低费率（美元）</h2>');
    expect(row(rates, '每百万输入 token')).toEqual(['0.1 美元', '—', '—']);
    for (const rate of answer.rates) expect(rates).toContain(`<th scope="row">${zhm.rateUnits[rate.unit]}</th>`);
    expect(row(rates, '价格来源')[0]).toContain('>来源</a> (核对于 <time');
    expect(row(zh, '模型')[0]).toContain(`<a href="/zh/apis/openai#models">${answer.compared[0].models!.length} 个模型</a></div><div>最大上下文 1,050,000 token`);
    expect(row(zh, '速率限制（数值）')[0]).toContain('第一项：每分钟 1,000,000 token<span lang="en"> (build, gpt-6-astra)</span>');
    expect(row(zh, '模型')[1]).toContain('尚未记录。');
    expect(zh.match(/尚未在提供方的页面上核实/g)).toHaveLength(1);
    expect(zh.match(new RegExp(`>${zhm.notStated}<`, 'g'))).toHaveLength(3);
  });
});

describe('the model pages', () => {
  it('list the models of the filters in the order asked for, each linking to its page, as GET /api/v1/models answers', async () => {
    const query = 'input=image&minContext=200k&sort=price&priceUnit=1m-input-tokens';
    const answer = (await (await fetch(`${service.baseUrl}/api/v1/models?${query}`)).json()) as { total: number; models: Array<{ id: string; name: string }> };
    for (const path of [`/models?${query}`, `/zh/models?${query}`]) {
      const html = await (await get(path)).text();
      const linked = [...html.matchAll(/<th scope="row"><a href="(?:\/zh)?\/models\/([^"]+)">/g)].map((m) => decodeURIComponent(m[1]));
      expect(linked).toEqual(answer.models.slice(0, 20).map((model) => model.id));
      expect(html).toContain(path.startsWith('/zh') ? `共找到 ${answer.total} 个模型` : `${answer.total} models found`);
    }
  });

  it('show every provider of a model with the id its API takes, its rates per million tokens and where they come from, in both languages', async () => {
    const { model } = (await (await fetch(`${service.baseUrl}/api/v1/models/gpt-oss-120b`)).json()) as { model: { offers: Array<{ listing: string; listingName: string; modelId: string; source: { url: string } }> } };
    expect(model.offers.length).toBeGreaterThanOrEqual(8);
    const en = await (await get('/models/gpt-oss-120b')).text();
    const zh = await (await get('/zh/models/gpt-oss-120b')).text();
    for (const offer of model.offers) {
      expect(en).toContain(`<a href="/apis/${offer.listing}">${offer.listingName.replace(/&/g, '&amp;')}</a>`);
      expect(en).toContain(`<code>${offer.modelId}</code>`);
      expect(en).toContain(`href="${offer.source.url}"`);
      expect(zh).toContain(`<a href="/zh/apis/${offer.listing}">`);
    }
    expect(en).toContain('Who serves it');
    expect(zh).toContain('提供方');
    expect(en).toMatch(/0\.039 USD \/ 1M/);
  });

  it('are linked from the listing page’s models table, and answer an unknown model 404 and a bad filter 400', async () => {
    const openai = await (await get('/apis/openai')).text();
    expect(openai).toContain('href="/models/gpt-6-luna"');
    expect((await get('/models/no-such-model')).status).toBe(404);
    const refused = await get('/models?kind=robot');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("'kind' must be one of");
  });
});

describe('the error reference page', () => {
  it("leads a 429 entry to its provider's rate-limit table where the listing gives them, in both languages", async () => {
    const entry = (html: string, provider: string) => html.slice(html.indexOf(`id="${provider}-429-`), html.indexOf('</div>', html.indexOf(`id="${provider}-429-`)));
    const en = await page('/errors?status=429');
    expect(entry(en, 'openai')).toContain('<a href="/apis/openai#rate-limits">Its rate limits, as data</a>');
    expect(entry(en, 'vercel')).not.toContain('#rate-limits');
    expect(entry(await page('/zh/errors?status=429'), 'openai')).toContain('<a href="/zh/apis/openai#rate-limits">该提供方的速率限制明细</a>');
  });
});

describe('caching and compression', () => {
  it('sends a page once per change of the read models: the same bytes and ETag, 304 on If-None-Match', async () => {
    const first = await get('/apis/stripe');
    const second = await get('/apis/stripe');
    expect(await second.text()).toBe(await first.text());
    const etag = first.headers.get('etag')!;
    expect(second.headers.get('etag')).toBe(etag);
    const again = await get('/apis/stripe', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(PAGE_CSP);
  });

  it('compresses a page with brotli as asked, to the very bytes sent plain', async () => {
    const plain = Buffer.from(await (await get('/zh/apis/openai', { 'accept-encoding': 'identity' })).arrayBuffer());
    const response = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      // (fetch decompresses by itself; node:http shows the bytes as sent.)
      const url = new URL(`${service.baseUrl}/zh/apis/openai`);
      require('node:http')
        .get({ host: url.hostname, port: url.port, path: url.pathname, headers: { accept: BROWSER, 'accept-encoding': 'br' } }, (res: import('node:http').IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.etag).toMatch(/^W\/".+-br"$/);
    expect(brotliDecompressSync(response.body).equals(plain)).toBe(true);
    expect(response.body.length).toBeLessThan(plain.length / 3);
  });

  it('shows a change at once: the page after a withdrawal is the withdrawal', async () => {
    expect((await get('/apis/assemblyai')).status).toBe(200);
    await service.command(new WithdrawListingCommand('assemblyai', 'editor', 'test', ['deepgram']));
    const gone = await get('/apis/assemblyai');
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('href="/apis/deepgram"');
  });
});

describe('errors as pages', () => {
  it('answers an unknown listing 404 with a search for it, in the language of the path', async () => {
    const answer = await get('/zh/apis/no-such-api');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const html = await answer.text();
    expect(html).toContain('<html lang="zh-Hans">');
    expect(html).toContain('href="/zh/search?q=no-such-api"');
    // An error page is not a page to index or share: no canonical URL, no alternates.
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).not.toContain('rel="canonical"');
    expect(html).not.toContain('rel="alternate" hreflang');
  });

  it('indexes the error reference by provider, each link to its section', async () => {
    const html = await page('/errors');
    const index = html.slice(html.indexOf('<nav class="toc"'), html.indexOf('</nav>', html.indexOf('<nav class="toc"')));
    const linked = [...index.matchAll(/href="#(p-[a-z0-9-]+)"/g)].map((m) => m[1]);
    expect(linked.length).toBeGreaterThan(1);
    for (const id of linked) expect(html).toContain(`<h2 id="${id}">`);
    // One provider's entries only: nothing to index.
    expect(await page('/errors?provider=anthropic')).not.toContain('<nav class="toc"');
  });

  it('shows code spans of error texts as code, and labels with a full-width colon on Chinese pages', async () => {
    const en = await page('/errors?provider=anthropic');
    expect(en).toContain('(error type <code>rate_limit_error</code>)');
    expect(en).not.toContain('`rate_limit_error`');
    expect(en).toContain('<strong>Cause: </strong>');
    const zh = await page('/zh/errors?provider=anthropic');
    expect(zh).toContain('（错误类型为 <code>rate_limit_error</code>）');
    expect(zh).toContain('<strong>原因：</strong>');
    expect(zh).not.toMatch(/原因:/);
    expect(await page('/zh/apis/anthropic')).toContain('<strong>原因：</strong>');
  });

  it('offers the listings a mistyped listing path most likely meant', async () => {
    const answer = await get('/apis/opnai');
    expect(answer.status).toBe(404);
    const html = await answer.text();
    expect(html).toMatch(/Did you mean: <a href="\/apis\/openai">openai<\/a>/);
    expect(await (await get('/zh/apis/opnai')).text()).toMatch(/您要找的可能是：<a href="\/zh\/apis\/openai">openai<\/a>/);
  });

  it('answers a browser past its request budget with a 429 page, Retry-After kept; an agent and a JSON route with the problem document', async () => {
    const limited = await startService('pages-429', { RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const at = (path: string, accept: string) => fetch(`${limited.baseUrl}${path}`, { headers: { accept }, redirect: 'manual' });
      expect((await at('/healthz', BROWSER)).status).toBe(200);
      // The one request of the minute goes through; the next are refused.
      expect((await at('/api/v1/tools/categories', 'application/json')).status).not.toBe(429);
      const page = await at('/zh/apis/openai', BROWSER);
      expect(page.status).toBe(429);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
      const html = await page.text();
      expect(html).toContain('<html lang="zh-Hans">');
      expect(html).toContain('429');
      const agent = await at('/apis/openai', '*/*');
      expect(agent.status).toBe(429);
      expect(agent.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      const json = await at('/api/v1/tools/openai', BROWSER);
      expect(json.status).toBe(429);
      expect(json.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    } finally {
      await limited.close();
    }
  }, 30_000);

  it('answers a withdrawn listing 410, naming when, why and its successor', async () => {
    const answer = await get('/apis/cartesia');
    expect(answer.status).toBe(410);
    const html = await answer.text();
    expect(html).toContain('folded into ElevenLabs');
    expect(html).toContain('href="/apis/elevenlabs"');
  });

  it('answers an unknown path 404: a page for a browser, the problem document for an agent', async () => {
    const page = await get('/no/such/page');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const problem = await get('/no/such/page', { accept: '*/*' });
    expect(problem.status).toBe(404);
    expect(problem.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await problem.json()).toMatchObject({ success: false, status: 404, detail: 'no route GET /no/such/page' });
  });

  it('answers a bad filter 400 with the form and what was wrong, and a comparison of one listing 400', async () => {
    const search = await get('/search?q=llm&minContext=lots');
    expect(search.status).toBe(400);
    const html = await search.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('minContext');
    expect(html).toContain('value="lots"');
    expect((await get('/compare?ids=openai')).status).toBe(400);
  });

  it('narrows by the facts as data as the JSON API does, with the folded filters open and set', async () => {
    const path = '/search?q=chat&maxPrice=1&priceUnit=1m-input-tokens&limit=50';
    const json = (await (await fetch(`${service.baseUrl}/api/v1/tools/search?q=chat&maxPrice=1&priceUnit=1m-input-tokens&limit=50`)).json()) as { results: Array<{ slug: string }> };
    expect(json.results.length).toBeGreaterThan(0);
    const html = await (await get(path)).text();
    const shown = [...html.matchAll(/<a href="\/apis\/([a-z0-9-]+)"/g)].map((m) => m[1]);
    expect([...new Set(shown)]).toEqual(json.results.map((r) => r.slug));
    expect(html).toMatch(/<details class="more" open(="")?>/);
    expect(html).toMatch(/<option value="1m-input-tokens" selected(="")?>Per 1M input tokens<\/option>/);
    // Every unit rates compare in, by its name in the page's language; `other` compares nothing.
    expect(html).not.toContain('<option value="other"');
    expect(await (await get('/zh/search?q=chat&maxPrice=1&priceUnit=1m-input-tokens')).text()).toMatch(/<option value="1m-input-tokens" selected(="")?>每百万输入 token<\/option>/);
    expect(html).toContain('id="f-maxPrice" name="maxPrice" value="1"');
    const plain = await (await get('/search?q=chat')).text();
    expect(plain).toContain('<details class="more">');
    const bad = await get('/search?q=chat&maxPrice=1');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('priceUnit');
  });

  it('sets weaker matches apart from strong ones on the first page of a search by relevance', async () => {
    const html = await (await get('/search?q=text%20to%20speech')).text();
    const json = await api<{ results: Array<{ slug: string; score: number }> }>('/api/v1/tools/search?q=text%20to%20speech');
    const top = json.results[0].score;
    const firstWeak = json.results.findIndex((r) => r.score < 0.7 * top);
    expect(firstWeak).toBeGreaterThan(0);
    const heading = html.indexOf('<h2 class="weaker">Weaker matches</h2>');
    expect(heading).toBeGreaterThan(0);
    // Text-to-speech APIs above the line, speech-to-text ones below it, in the API's order.
    for (const [i, r] of json.results.entries()) {
      const at = html.indexOf(`href="/apis/${r.slug}"`);
      expect({ slug: r.slug, strong: at < heading }).toEqual({ slug: r.slug, strong: i < firstWeak });
    }
    expect(html.indexOf('href="/apis/elevenlabs"')).toBeLessThan(heading);
    // Another order shows no such line.
    expect(await (await get('/search?q=text%20to%20speech&sort=popular')).text()).not.toContain('class="weaker"');
  });

  it('orders results as asked, as the JSON API does, saying in which order; the order is part of the page (not the unordered one served again)', async () => {
    const shown = (html: string) => [...new Set([...html.matchAll(/<a href="(?:\/zh)?\/apis\/([a-z0-9-]+)"/g)].map((m) => m[1]))];
    const unordered = await (await get('/search?q=chat')).text();
    const html = await (await get('/search?q=chat&sort=price&priceUnit=1m-input-tokens')).text();
    const json = await api<{ results: Array<{ slug: string }>; sort: { withoutRate: number } }>('/api/v1/tools/search?q=chat&sort=price&priceUnit=1m-input-tokens');
    expect(shown(html)).toEqual(json.results.map((r) => r.slug));
    expect(shown(html)).not.toEqual(shown(unordered));
    expect(html).toMatch(/<option value="price" selected(="")?>Cheapest first \(needs a price unit\)<\/option>/);
    expect(html).toContain('Order: cheapest first, by the lowest rate per 1M input tokens');
    expect(unordered).not.toContain('class="muted orderedby"');
    const zh = await (await get('/zh/search?q=chat&sort=context')).text();
    expect(zh).toMatch(/<option value="context" selected(="")?>上下文最大<\/option>/);
    expect(zh).toContain('排序：上下文最大');
    // The next page keeps the order.
    expect(html).toMatch(/href="\/search\?q=chat&amp;priceUnit=1m-input-tokens&amp;sort=price&amp;cursor=/);
  });

  it('takes listings typed by name as well as by slug, in either language', async () => {
    // A box ticked (a slug) and names typed: "Claude" is Anthropic's alias, 通义千问 Qwen's Chinese name, DEEPSEEK a slug in capitals.
    const html = await (await get(`/compare?ids=openai&more=${encodeURIComponent('Claude, 通义千问,DEEPSEEK')}`)).text();
    const headers = [...section(html, 'table', 'rates').matchAll(/<th scope="col"><a href="\/apis\/([a-z0-9-]+)">/g)].map((m) => m[1]);
    expect(headers).toEqual(['openai', 'anthropic', 'qwen', 'deepseek']);
    // A name several listings answer to (a model id they all serve) is not guessed: it is named as unknown.
    const ambiguous = await (await get(`/compare?ids=openai,anthropic&more=gpt-oss-120b`)).text();
    expect(ambiguous).toContain('<code>gpt-oss-120b</code>');
  });

  it('answers a comparison of nothing known 404, naming each', async () => {
    const answer = await get('/compare?ids=nope-one,nope-two');
    expect(answer.status).toBe(404);
    const html = await answer.text();
    expect(html).toContain('<code>nope-one</code>');
    expect(html).toContain('<code>nope-two</code>');
  });
});

describe('the public directory’s page paths', () => {
  it.each([
    ['/api/openai', '/apis/openai'],
    ['/category/llm', '/categories/llm'],
    ['/error-codes', '/errors'],
    ['/free-tier', '/search?freeTier=true'],
  ])('%s leads to %s (301)', async (from, to) => {
    const answer = await get(from);
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe(to);
    expect((await get(to)).status).toBe(200);
  });

  it('keeps /api/v1 and the JSON paths under /api what they were', async () => {
    expect((await get('/api/v1', { accept: '*/*' })).status).toBe(404);
    expect((await get('/api/ai.txt')).status).toBe(301);
    expect((await get('/api/ai.txt')).headers.get('location')).toBe('/llms-full.txt');
    expect((await get('/api/data', { accept: '*/*' })).headers.get('content-type')).toContain('application/json');
  });
});

describe('for search engines and browsers', () => {
  it('publishes sitemap.xml with every page in both languages, named by robots.txt', async () => {
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${service.baseUrl}/sitemap.xml`);
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await sitemap.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(service.baseUrl, ''));
    const listings = (await (await fetch(`${service.baseUrl}/api/v1/tools?limit=100`)).json()) as { total: number };
    const categories = (await (await fetch(`${service.baseUrl}/api/v1/tools/categories`)).json()) as { total: number };
    const models = (await (await fetch(`${service.baseUrl}/api/v1/models?limit=1`)).json()) as { total: number };
    expect(locs).toHaveLength(2 * (6 + categories.total + listings.total + models.total));
    for (const path of ['/', '/zh/', '/apis/openai', '/zh/apis/openai', '/categories/llm', '/zh/categories/llm', '/errors', '/zh/changes', '/models', '/models/gpt-oss-120b', '/zh/models/gpt-oss-120b']) expect(locs).toContain(path);
    expect(locs).not.toContain('/apis/cartesia');
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="zh-Hans" href="${service.baseUrl}/zh/apis/openai"/>`);
  });

  it('publishes opensearch.xml for each language, linked from every page', async () => {
    const xml = await (await get('/zh/opensearch.xml')).text();
    expect(xml).toContain(`template="${service.baseUrl}/zh/search?q={searchTerms}"`);
    expect(await (await get('/')).text()).toContain('<link rel="search" type="application/opensearchdescription+xml" href="/opensearch.xml"');
  });

  it('serves one stylesheet of at most 20 KB and one script, its own', async () => {
    const css = await get('/assets/site.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(Buffer.byteLength(await css.text())).toBeLessThanOrEqual(20 * 1024);
    expect(readFileSync(join(__dirname, '../../src/pages/assets/site.css')).length).toBeLessThanOrEqual(20 * 1024);
    const js = await get('/assets/site.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).not.toMatch(/https?:\/\//);
    expect((await get('/assets/nothing.js')).status).toBe(404);
  });
});
