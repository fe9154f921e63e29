import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { WithdrawListingCommand } from '../../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { RunningService, startService } from '../support/harness';

/**
 * The pages in a real browser: Debian's chromium, driven by playwright-core, talking to this test's own
 * service on 127.0.0.1 and to nothing else (every other request is blocked, and the test fails if one
 * was made). A person's path (home → search → listing → compare → category) in both languages with
 * JavaScript on and off; the copy button; search as you type; axe-core on every page type in both
 * languages, in light and dark mode; no horizontal scroll at 375 px (the comparison's rates, ten listings wide, scroll in their
 * own box); no console error (a CSP refusal would be one). Screenshots of every page type at 375 and
 * 1280 px are written to test/output/pages/ (and the first screen of the English listing and the Chinese
 * home page, which docs/api.md shows).
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const OUTPUT = join(__dirname, '..', 'output', 'pages');

let service: RunningService;
let origin: string;
const profiles: string[] = [];
const contexts: BrowserContext[] = [];
/** Requests the browser tried to make to anywhere but the service (blocked). */
const elsewhere: string[] = [];
/** Console errors and uncaught exceptions of every page. */
const problems: string[] = [];

/** A browser of its own (a fresh profile), JavaScript on or off, that may reach the service only. */
async function browser(javaScript: boolean): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'pages-chromium-'));
  profiles.push(profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    javaScriptEnabled: javaScript,
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
  });
  contexts.push(context);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  context.on('page', watch);
  for (const page of context.pages()) watch(page);
  return context;
}

function watch(page: Page): void {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
}

let withJs: BrowserContext;
let withoutJs: BrowserContext;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium fonts-noto-cjk (.ci/run installs them)`);
  service = await startService('browser');
  origin = service.baseUrl;
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  await service.command(new WithdrawListingCommand('cartesia', 'editor', 'folded into ElevenLabs', ['elevenlabs']));
  mkdirSync(OUTPUT, { recursive: true });
  withJs = await browser(true);
  withoutJs = await browser(false);
  await withJs.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  for (const profile of profiles) rmSync(profile, { recursive: true, force: true });
  await service?.close();
});

const LANGS = [
  { lang: 'en', prefix: '', htmlLang: 'en', query: 'text to speech' },
  { lang: 'zh', prefix: '/zh', htmlLang: 'zh-Hans', query: '语音合成' },
];

describe.each(LANGS)('a developer’s path in $lang', ({ prefix, htmlLang, query }) => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ])('home → search → listing → compare → category, %s', async (_how, javaScript) => {
    const page = await (javaScript ? withJs : withoutJs).newPage();
    try {
      await page.goto(`${origin}${prefix || '/'}${prefix ? '/' : ''}`);
      expect(await page.getAttribute('html', 'lang')).toBe(htmlLang);
      // Home: search.
      await page.locator('#q').fill(query);
      await Promise.all([page.waitForURL(/\/search\?q=/), page.locator('form.search button[type="submit"]').click()]);
      expect(new URL(page.url()).pathname).toBe(`${prefix}/search`);
      const first = page.locator('#results .card h3 a').first();
      const name = (await first.textContent())!;
      expect(name.length).toBeGreaterThan(0);
      // Search → listing.
      await Promise.all([page.waitForURL(/\/apis\//), first.click()]);
      expect(await page.locator('h1').textContent()).toBe(name);
      expect(await page.locator('nav.crumbs li').count()).toBe(3);
      // Listing → compare (the listing and its similar APIs).
      await Promise.all([page.waitForURL(/\/compare\?ids=/), page.locator('section[aria-labelledby="similar"] p a').click()]);
      const columns = await page.locator('section[aria-labelledby="table"] table.compare thead th').count();
      expect(columns).toBeGreaterThanOrEqual(3);
      // Compare → a category.
      const category = page.locator('table.compare tbody tr').first().locator('td a').first();
      const categoryName = (await category.textContent())!;
      await Promise.all([page.waitForURL(/\/categories\//), category.click()]);
      expect(await page.locator('h1').textContent()).toBe(categoryName);
      expect(await page.locator('.cards .card').count()).toBeGreaterThan(0);
      expect(new URL(page.url()).pathname.startsWith(`${prefix}/categories/`)).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('searches as you type with JavaScript, swapping in the server-rendered results without leaving the page', async () => {
    const page = await withJs.newPage();
    try {
      await page.goto(`${origin}${prefix}/search?q=${encodeURIComponent(query)}`);
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      const answered = page.waitForResponse((response) => response.url().includes(`${prefix}/search?q=vector`));
      await page.locator('#q').fill('vector');
      await answered;
      await page.waitForFunction(() => location.search.includes('q=vector'));
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      const names = await page.locator('#results .card h3 a').allTextContents();
      expect(names.length).toBeGreaterThan(0);
      expect(await page.locator('#results .card h3 a').first().getAttribute('href')).toMatch(new RegExp(`^${prefix}/apis/`));
      expect(await page.locator('#live-status').textContent()).toMatch(/\d/);
      // The results are the search page's own: each card keeps its box for the comparison.
      expect(await page.locator('#results .card input[name="ids"]').count()).toBe(names.length);
      expect(await page.locator('#results form#pick').count()).toBe(1);
      // The heading, title, canonical address and language link follow what was typed...
      expect(await page.locator('h1').textContent()).toContain('vector');
      expect(await page.title()).toContain('vector');
      expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toContain('q=vector');
      const other = page.locator('a.lang');
      expect(await other.getAttribute('href')).toContain('q=vector');
      // ...so the other language keeps the query.
      await Promise.all([page.waitForURL(/q=vector/), other.click()]);
      expect(await page.locator('#q').inputValue()).toBe('vector');
      // A filter set while typing is counted on the folded control.
      await page.goto(`${origin}${prefix}/search?q=vector`);
      expect(await page.locator('.count-set').textContent()).toBe('');
      const filtered = page.waitForResponse((response) => response.url().includes('freeTier=true'));
      await page.locator('details.fold > summary').click();
      await page.selectOption('#f-freeTier', 'true');
      await filtered;
      await page.waitForFunction(() => document.querySelector('.count-set')!.textContent !== '');
      expect(await page.locator('.count-set').textContent()).toMatch(/1/);
    } finally {
      await page.close();
    }
  });

  it('suggests up to eight listings by name under the home page’s box as you type, with a link to all results', async () => {
    const page = await withJs.newPage();
    try {
      await page.goto(`${origin}${prefix || '/'}${prefix ? '/' : ''}`);
      const answered = page.waitForResponse((response) => response.url().includes('/search?q=api'));
      await page.locator('#q').fill('api');
      await answered;
      await page.waitForSelector('#results ul.suggestions li');
      const suggested = await page.locator('#results ul.suggestions li').count();
      expect(suggested).toBeGreaterThan(0);
      expect(suggested).toBeLessThanOrEqual(8);
      expect(await page.locator('#results .card').count()).toBe(0);
      expect(await page.locator('#results a.all').getAttribute('href')).toBe(`${prefix}/search?q=api`);
      expect(await page.locator('#results ul.suggestions li a').first().getAttribute('href')).toMatch(new RegExp(`^${prefix}/apis/`));
    } finally {
      await page.close();
    }
  });
});

describe.each(LANGS)('the search page on a phone in $lang', ({ prefix, query }) => {
  it('folds the filters behind one control and shows the first result inside the first screen, its facts as labels', async () => {
    const page = await withoutJs.newPage();
    try {
      await page.setViewportSize({ width: 375, height: 667 });
      await page.goto(`${origin}${prefix}/search?q=${encodeURIComponent(query)}`);
      expect(await page.locator('details.fold').getAttribute('open')).toBeNull();
      expect(await page.locator('#f-category').isVisible()).toBe(false);
      const first = page.locator('#results .card').first();
      const title = await first.locator('h3').evaluate((h) => h.getBoundingClientRect().bottom);
      expect(title).toBeLessThanOrEqual(667);
      expect(await first.locator('ul.labels li').count()).toBeGreaterThan(0);
      // The compare button is far down the page until a box is ticked; then it stays at the screen's foot.
      const button = page.locator('form#pick button[type="submit"]');
      const inView = () => button.evaluate((b) => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; });
      expect(await inView()).toBe(false);
      await first.locator('input[name="ids"]').check();
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await inView()).toBe(true);
      await first.locator('input[name="ids"]').uncheck();
      // Unfolded, every filter is there.
      await page.locator('details.fold > summary').click();
      expect(await page.locator('#f-category').isVisible()).toBe(true);
      await page.screenshot({ path: join(OUTPUT, `search-first-screen-${prefix ? 'zh' : 'en'}-375.png`) });
    } finally {
      await page.close();
    }
  });
});

describe('the copy button', () => {
  it('copies a code example exactly, and says so', async () => {
    const page = await withJs.newPage();
    try {
      await page.goto(`${origin}/apis/openai`);
      const button = page.locator('button.copy').first();
      await button.click();
      const id = (await button.getAttribute('data-copy'))!;
      const code = await page.locator(`#${id}`).textContent();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
      expect(await button.textContent()).toBe('Copied');
    } finally {
      await page.close();
    }
  });

  it('is not shown without JavaScript, where it could do nothing', async () => {
    const page = await withoutJs.newPage();
    try {
      await page.goto(`${origin}/zh/apis/openai`);
      expect(await page.locator('button.copy').count()).toBeGreaterThan(0);
      expect(await page.locator('button.copy').first().isVisible()).toBe(false);
      expect(await page.locator('pre code').first().isVisible()).toBe(true);
    } finally {
      await page.close();
    }
  });
});

/** One page of each type (the status it answers), in English; the Chinese ones are the same under /zh. */
const PAGE_TYPES: Array<[string, string, number]> = [
  ['home', '/', 200],
  ['search', '/search?q=vector%20database', 200],
  ['search-empty', '/search?q=zzzzqqqq', 200],
  ['category', '/categories/audio', 200],
  ['listing', '/apis/openai', 200],
  ['compare', '/compare?ids=openai,anthropic,google-gemini,no-such-api,cartesia', 200],
  ['errors', '/errors', 200],
  ['changes', '/changes', 200],
  ['models', '/models?input=image&minContext=200k&sort=price&priceUnit=1m-input-tokens', 200],
  ['model', '/models/gpt-oss-120b', 200],
  ['not-found', '/apis/no-such-api', 404],
  ['gone', '/apis/cartesia', 410],
];

describe.each(LANGS)('every page type in $lang', ({ lang, prefix }) => {
  it.each(PAGE_TYPES)('%s: no accessibility violation in light or dark mode, no horizontal scroll at 375 px, screenshots at 375 and 1280 px', async (name, path, status) => {
    const page = await withJs.newPage();
    try {
      const url = `${origin}${prefix ? (path === '/' ? '/zh/' : `/zh${path}`) : path}`;
      await page.setViewportSize({ width: 375, height: 800 });
      const answer = await page.goto(url);
      expect(answer!.status()).toBe(status);
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, body: document.body.scrollWidth, view: window.innerWidth }));
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      expect(widths.body).toBeLessThanOrEqual(widths.view);
      await page.screenshot({ path: join(OUTPUT, `${name}-${lang}-375.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`)).toEqual([]);
      await page.screenshot({ path: join(OUTPUT, `${name}-${lang}-1280.png`), fullPage: true });
      // The same page in dark mode (the reader's setting): every colour pair must hold there too.
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await new AxeBuilder({ page }).analyze();
      expect(dark.violations.map((v) => `dark: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
      // What docs/api.md shows (docs/pages-listing.png, docs/pages-home-zh.png): the first screen of each.
      if (`${name}-${lang}` === 'listing-en' || `${name}-${lang}` === 'home-zh') await page.screenshot({ path: join(OUTPUT, `docs-${name}-${lang}.png`) });
    } finally {
      await page.close();
    }
  });
});

const TEN = 'openai,mistral,azure-openai,runway,black-forest-labs,cohere,anthropic,xai-grok,jina,groq';

describe.each(LANGS)('the comparison in $lang, on a phone', ({ prefix }) => {
  it('reads down, never sideways, ten listings wide: each value under its listing’s name, only the rows that differ when asked', async () => {
    const page = await withJs.newPage();
    try {
      await page.setViewportSize({ width: 375, height: 667 });
      await page.goto(`${origin}${prefix}/compare?ids=${TEN}`);
      for (const section of ['table', 'rates']) {
        const box = page.locator(`section[aria-labelledby="${section}"] section.wide`);
        expect(await box.locator('thead th').count()).toBe(11);
        const fits = await box.evaluate((element) => ({
          inside: element.clientWidth,
          wide: element.scrollWidth,
          tall: element.scrollHeight - element.clientHeight,
          view: window.innerWidth,
          page: document.documentElement.scrollWidth,
          right: Math.max(...[...element.querySelectorAll('td, tbody th')].map((cell) => cell.getBoundingClientRect().right)),
        }));
        expect(fits.wide).toBeLessThanOrEqual(fits.inside + 1);
        // Nor does it scroll in a box of its own: the page scrolls.
        expect(fits.tall).toBeLessThanOrEqual(1);
        expect(fits.page).toBeLessThanOrEqual(fits.view);
        expect(fits.right).toBeLessThanOrEqual(fits.view);
        // Every cell says whose value it is: the listing of its column, shown above the value.
        const names = await box.locator('thead th').allTextContents();
        const labels = await box.locator('tbody tr').first().locator('td').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
        expect(labels).toEqual(names.slice(1).map((name) => JSON.stringify(name)));
        // Stacked, not side by side: the second listing's value is below the first's.
        const [first, second] = await box.locator('tbody tr').first().locator('td').evaluateAll((cells) => cells.slice(0, 2).map((cell) => cell.getBoundingClientRect().top));
        expect(second).toBeGreaterThan(first);
      }
      const rows = page.locator('section[aria-labelledby="table"] tbody tr');
      const visible = () => rows.evaluateAll((trs) => trs.filter((tr) => (tr as HTMLElement).offsetParent !== null).length);
      const all = await visible();
      const same = await page.locator('section[aria-labelledby="table"] tbody tr.same').count();
      expect(same).toBeGreaterThan(0);
      await page.locator('#diff').check();
      expect(await visible()).toBe(all - same);
      // What stays shown differs from one listing to the next: the price from, for one.
      expect(await page.locator('section[aria-labelledby="table"] tbody tr:not(.same) th', { hasText: prefix ? '最低价' : 'Price from' }).count()).toBe(1);
      await page.locator('#diff').uncheck();
      expect(await visible()).toBe(all);
    } finally {
      await page.close();
    }
  });
});

describe.each(LANGS)('the comparison table in $lang, on a wide screen and on a phone without JavaScript', ({ prefix }) => {
  it.each([
    { width: 1280, height: 800, javaScript: true },
    { width: 375, height: 667, javaScript: false },
  ])('keeps the field names in view while ten listings scroll sideways in its own box, and the listings’ names while the fields scroll by ($width px)', async ({ width, height, javaScript }) => {
    const page = await (javaScript ? withJs : withoutJs).newPage();
    try {
      await page.setViewportSize({ width, height });
      await page.goto(`${origin}${prefix}/compare?ids=${TEN}`);
      const box = page.locator('section[aria-labelledby="table"] section.wide');
      expect(await box.getAttribute('tabindex')).toBe('0');
      expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // Scrolled to the last listing, the first row's field name is still at the box's left edge.
      const { left, top } = await box.evaluate((element) => element.getBoundingClientRect());
      await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
      const label = await box.locator('tbody th').first().evaluate((cell) => cell.getBoundingClientRect().left);
      expect(Math.abs(label - left)).toBeLessThanOrEqual(2);
      expect(await page.evaluate(() => window.scrollX)).toBe(0);
      // Scrolled down to the last field, the listings' names are still at the box's top edge.
      expect(await box.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
      await box.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      const heading = await box.locator('thead th').last().evaluate((cell) => cell.getBoundingClientRect().top);
      expect(Math.abs(heading - top)).toBeLessThanOrEqual(2);
    } finally {
      await page.close();
    }
  });
});

describe.each(LANGS)('the model catalog in $lang, on a phone', ({ prefix }) => {
  it('answers the cheapest model reading images with 200k context first, and every provider of gpt-oss-120b cheapest first, as the JSON API does', async () => {
    const query = 'input=image&minContext=200k&sort=price&priceUnit=1m-input-tokens';
    const cheapest = ((await (await fetch(`${origin}/api/v1/models?${query}&limit=1`)).json()) as { models: Array<{ id: string }> }).models[0].id;
    const providers = ((await (await fetch(`${origin}/api/v1/models/gpt-oss-120b?priceUnit=1m-input-tokens`)).json()) as { model: { offers: Array<{ listing: string }> } }).model.offers.map((o) => o.listing);
    const page = await withoutJs.newPage();
    try {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${origin}${prefix}/models`);
      // As a person would: the folded filters opened, their controls, then the button.
      expect(await page.locator('#m-input').isVisible()).toBe(false);
      await page.locator('details.more summary').click();
      await page.selectOption('#m-input', 'image');
      await page.fill('#m-minContext', '200k');
      await page.selectOption('#m-priceUnit', '1m-input-tokens');
      await page.selectOption('#m-sort', 'price');
      await page.locator('form.search button[type="submit"]').click();
      await page.waitForURL(/\/models\?/);
      const first = page.locator('tbody tr').first().locator('th a');
      expect(decodeURIComponent((await first.getAttribute('href'))!)).toBe(`${prefix}/models/${cheapest}`);
      await first.click();
      await page.waitForURL(new RegExp(`/models/${cheapest}`));
      await page.goto(`${origin}${prefix}/models/gpt-oss-120b?priceUnit=1m-input-tokens`);
      const listed = await page.locator('tbody th a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.split('/').pop()!));
      expect(listed).toEqual(providers);
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
      expect(widths.page).toBeLessThanOrEqual(widths.view);
    } finally {
      await page.close();
    }
  });
});

describe.each(LANGS)('a listing page in $lang: the decision first', ({ lang, prefix }) => {
  const SCREENS = [
    { name: 'phone', width: 375, height: 667 },
    { name: 'desktop', width: 1280, height: 800 },
  ];
  it.each(SCREENS)('shows every fact of the summary inside the first screen of a $name ($width × $height), without a horizontal scroll', async ({ width, height }) => {
    const page = await withoutJs.newPage();
    try {
      await page.setViewportSize({ width, height });
      for (const [slug, expected] of [
        ['openai', ['price', 'freeTier', 'auth', 'rateLimit', 'context', 'lifecycle', 'liveness']],
        // A payment API: no context (it does not apply), the rest as for any listing.
        ['stripe', ['price', 'freeTier', 'auth', 'rateLimit', 'lifecycle', 'liveness']],
      ] as const) {
        await page.goto(`${origin}${prefix}/apis/${slug}`);
        await page.screenshot({ path: join(OUTPUT, `listing-first-screen-${slug}-${lang}-${width}.png`) });
        const facts = await page.locator('section.summary [data-fact]').evaluateAll((rows) =>
          rows.map((row) => ({ fact: (row as HTMLElement).dataset.fact!, bottom: Math.max(...[...row.children].map((cell) => cell.getBoundingClientRect().bottom)) })),
        );
        expect(facts.map((f) => f.fact)).toEqual(expected);
        for (const { fact, bottom } of facts) expect({ slug, fact, inside: bottom <= height }).toEqual({ slug, fact, inside: true });
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
        expect(widths.page).toBeLessThanOrEqual(widths.view);
      }
    } finally {
      await page.close();
    }
  });

  it('names the cheapest current model, never a retiring one, and puts the retirements in a banner with their successors', async () => {
    const { tool } = (await (await fetch(`${origin}/api/v1/tools/openai`)).json()) as { tool: { models: Array<{ id: string; name: string; lifecycle: { status: string; retiresAt: string | null; replacedBy: string[] | null } }> } };
    const retiring = tool.models.filter((model) => model.lifecycle.status === 'deprecated');
    expect(retiring.length).toBeGreaterThan(0);
    const page = await withoutJs.newPage();
    try {
      await page.setViewportSize({ width: 375, height: 667 });
      await page.goto(`${origin}${prefix}/apis/openai`);
      const price = page.locator('section.summary [data-fact="price"] dd');
      // GPT-6 Luna at 0.1 USD, not GPT-5 nano at 0.05 (deprecated, shut down on 2026-12-11).
      expect(await price.locator('a').first().textContent()).toBe('GPT-6 Luna');
      expect(await price.textContent()).toContain('0.1 USD');
      // The lifecycle fact says models are going away and leads to the banner.
      const lifecycle = page.locator('section.summary [data-fact="lifecycle"] a[href="#retirements"]');
      expect(await lifecycle.textContent()).toContain('2026-12-11');
      const banner = page.locator('#retirements');
      expect(await banner.isVisible()).toBe(true);
      const items = banner.locator('li');
      expect(await items.count()).toBe(retiring.length);
      expect(await items.first().textContent()).toContain('2026-12-11');
      // GPT-5 nano's successor is linked to its model page.
      const nano = items.filter({ has: page.locator('code', { hasText: /^gpt-5-nano$/ }) });
      expect(await nano.locator('a').last().getAttribute('href')).toBe(`${prefix}/models/gpt-6-luna`);
      // Its row in the models table carries the badge and the successor too.
      const row = page.locator('table.models tr', { has: page.locator('code', { hasText: /^gpt-5-nano$/ }) });
      expect(await row.locator('.badge.deprecated').count()).toBe(1);
      expect(await row.locator('a[href$="/models/gpt-6-luna"]').count()).toBe(1);
      // Health: nothing has probed this service's listings, and the head says so instead of a green badge.
      expect(await page.locator('article.listing header .meta .badge.online').count()).toBe(0);
      expect(await page.locator('article.listing header .meta .badge.unchecked').count()).toBe(1);
      // No banner where nothing is going away.
      await page.goto(`${origin}${prefix}/apis/stripe`);
      expect(await page.locator('#retirements').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('orders the models by a price or context column when its header is pressed (with JavaScript), models without one last', async () => {
    const page = await withJs.newPage();
    try {
      await page.goto(`${origin}${prefix}/apis/openai`);
      const table = page.locator('table.models');
      const column = async (n: number) => table.locator('tbody tr').evaluateAll((rows, i) => rows.map((row) => (row as HTMLTableRowElement).cells[i].getAttribute('data-value')), n);
      const header = table.locator('thead th[data-sort]').first();
      const index = await header.evaluate((th) => Array.prototype.indexOf.call(th.parentElement!.children, th));
      await header.locator('button.sort').click();
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      const up = await column(index);
      const priced = up.filter((v) => v !== '').map(Number);
      expect(priced.length).toBeGreaterThan(3);
      expect(up.slice(0, priced.length).map(Number)).toEqual([...priced].sort((a, b) => a - b));
      expect(up.slice(priced.length).every((v) => v === '')).toBe(true);
      await header.locator('button.sort').click();
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      const down = await column(index);
      expect(down.slice(0, priced.length).map(Number)).toEqual([...priced].sort((a, b) => b - a));
    } finally {
      await page.close();
    }
  });
});

it('made no request to any other host, and no page logged an error', () => {
  expect(elsewhere).toEqual([]);
  expect(problems.filter((problem) => !/status of (404|410|400)/.test(problem))).toEqual([]);
});
