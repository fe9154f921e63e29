import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { parse } from 'yaml';
import { Categories } from '../categories/categories';
import type { CategoriesResponse, ToolDetailResponse } from '../contract/responses';
import type { ListingDocument } from '../listings/write/listing.document';
import { RenderState, cardOf } from '../listings/views/render-state';
import { renderListing } from '../listings/views/listing-views';
import { splitEtag } from '../http/stored-body';
import { LANGS, MESSAGES, pageText } from './messages';
import { categoryText } from './category/category-messages';
import { changesText } from './changes/changes-messages';
import { compareText } from './compare/compare-messages';
import { errorReferenceText } from './error-reference/error-reference-messages';
import { homeText } from './home/home-messages';
import { modelsText } from './models/models-messages';
import { searchText } from './search/search-messages';
import { prefersHtml } from './negotiation';
import { inLang, langOfPath } from './page-paths';
import { jsonForScript } from './shared/json-ld';
import { pageContext, renderDocument } from './shared/layout';
import { ListingPage } from './listing/listing-page';
import { listingText } from './listing/listing-messages';
import { HTML_RULES } from '../../test/pages/html-rules';

/**
 * The renderer escapes what a listing says, wherever it says it: text, attributes, the JSON-LD data
 * block, code. A listing's text is checked by the content rules before it is published, but the pages do
 * not rely on it: a hostile text planted in every field comes out as text.
 */
const fixtures = join(__dirname, '../../fixtures');
const catalog = Categories.fromDirectory(fixtures);
const openai = parse(readFileSync(join(fixtures, 'listings', 'openai.yaml'), 'utf8')) as ListingDocument;
const state = new RenderState();
state.setCard(cardOf(openai));
const detail = JSON.parse(splitEtag(renderListing(openai, state, catalog).detail).body.toString()) as ToolDetailResponse;
const categories: CategoriesResponse = {
  success: true,
  total: catalog.all.length,
  totalListings: 1,
  categories: catalog.all.map((c) => ({ ...c, count: 1 })),
  _links: {},
};

const HOSTILE = `</script><script>alert(1)</script><img src=x onerror="alert(2)">"' onmouseover='alert(3)' & </textarea><!-- \u2028`;

/** Every string of a value replaced by the hostile text (keys kept), URLs by `javascript:` ones. */
function poisoned<T>(value: T): T {
  if (typeof value === 'string') return (/^https:/.test(value) ? `javascript:alert(4)//${HOSTILE}` : `${value} ${HOSTILE}`) as T;
  if (Array.isArray(value)) return value.map(poisoned) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'slug' ? v : poisoned(v)])) as T;
  return value;
}

const hostile: ToolDetailResponse = { ...detail, tool: { ...poisoned(detail.tool), similarApis: poisoned(detail.tool.similarApis) } };

describe.each(LANGS)('a listing page with hostile text in every field (%s)', (lang) => {
  const html = renderDocument(ListingPage({ ctx: pageContext(lang, '/apis/openai', 'https://directory.test'), detail: hostile, categories }));

  it('makes no element and no attribute of it: only its own script and the JSON-LD data blocks', () => {
    // Attribute values are always in double quotes with `"` escaped, so every tag can be read with a pattern;
    // every `<` of the document must start one of them (text writes `&lt;`).
    const tag = /<(\/?)([a-z][a-z0-9-]*)((?:\s+[a-z][a-z:-]*(?:="[^"]*")?)*)\s*\/?>/g;
    const doc = html.replace(/^<!DOCTYPE html>/, '');
    const tags = [...doc.matchAll(tag)];
    expect([...doc.matchAll(/</g)].length).toBe(tags.length);
    // No tag starts inside a JSON-LD block but the one that ends it.
    const inData = (at: number) => /<script type="application\/ld\+json">[^<]*$/.test(doc.slice(0, at));
    expect(tags.filter((m) => inData(m.index!)).map((m) => m[0])).toEqual(['</script>', '</script>']);
    const names = new Set(tags.map((m) => m[2]));
    for (const forbidden of ['img', 'textarea', 'iframe', 'object', 'embed']) expect(names.has(forbidden)).toBe(false);
    const attributes = tags.flatMap((m) => [...m[3].replace(/="[^"]*"/g, "").matchAll(/\s+([a-z][a-z:-]*)/g)].map((a) => a[1]));
    expect(attributes.filter((name) => name.startsWith('on'))).toEqual([]);
    const scripts = tags.filter((m) => m[2] === 'script' && m[1] === '').map((m) => m[0]);
    expect(scripts).toEqual(['<script src="/assets/site.js" defer>', '<script type="application/ld+json">', '<script type="application/ld+json">']);
  });

  it('shows the hostile text as text', () => {
    expect(html).toContain('&lt;/script>&lt;script>alert(1)&lt;/script>&lt;img src=x onerror=&quot;alert(2)&quot;>');
  });

  it('makes no link of an address that is not a web address', () => {
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('javascript:alert(4)');
  });

  it('keeps the JSON-LD a data block that cannot end early, and its data intact', () => {
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => m[1]);
    expect(blocks).toHaveLength(2);
    for (const block of blocks) expect(block).not.toMatch(/[<>]/);
    const api = JSON.parse(blocks[0]) as { '@type': string; name: string };
    expect(api['@type']).toBe('WebAPI');
    expect(api.name).toContain(HOSTILE);
  });

  it('is valid HTML', async () => {
    const report = await new HtmlValidate(HTML_RULES).validateString(html);
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message} (${m.selector})`))).toEqual([]);
  });
});

it('writes JSON for a script element with <, >, & and the line separators escaped', () => {
  const text = jsonForScript({ a: '</script><!--&\u2028\u2029' });
  expect(text).toBe('{"a":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029"}');
  expect(JSON.parse(text)).toEqual({ a: '</script><!--&\u2028\u2029' });
});

it('has every interface string in both languages, and the Chinese ones in Chinese', () => {
  const en = MESSAGES.en as Record<string, unknown>;
  const zh = MESSAGES.zh as Record<string, unknown>;
  expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  // Strings the two languages share (names, formats) are few, and listed.
  const shared = ['footerLlms', 'popularityValue', 'tokens', 'dateTime'];
  const same = Object.keys(en).filter((key) => typeof en[key] === 'string' && en[key] === zh[key]);
  expect(same.filter((key) => !shared.includes(key))).toEqual([]);
});

describe.each([
  ['category', categoryText],
  ['changes', changesText],
  ['compare', compareText],
  ['error reference', errorReferenceText],
  ['home', homeText],
  ['listing', listingText],
  ['models', modelsText],
  ['search', searchText],
])("the %s page's own strings", (_page, text) => {
  it('are in both languages, the Chinese ones in Chinese, beside the shared ones', () => {
    const shared = new Set(Object.keys(MESSAGES.en));
    const en = text('en') as unknown as Record<string, unknown>;
    const zh = text('zh') as unknown as Record<string, unknown>;
    const own = Object.keys(en).filter((key) => !shared.has(key));
    expect(own.length).toBeGreaterThan(0);
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    expect(own.filter((key) => typeof en[key] === 'string' && en[key] === zh[key])).toEqual([]);
  });
});

it("refuses a page's string named as a shared one (one definition per name)", () => {
  expect(() => pageText({ en: { siteName: 'x' }, zh: { siteName: 'y' } })).toThrow('page strings also among the shared ones: siteName');
});

describe.each(LANGS)('a listing that is itself going away (%s)', (lang) => {
  const tool = {
    ...detail.tool,
    lifecycle: { status: 'deprecated' as const, since: '2026-10-01', retiresAt: '2027-03-31', replacedBy: ['anthropic'], migrationUrl: 'https://example.com/migrate', reason: null, source: null },
  };
  const html = renderDocument(ListingPage({ ctx: pageContext(lang, '/apis/openai', 'https://directory.test'), detail: { ...detail, tool }, categories }));
  const m = listingText(lang);
  const banner = html.slice(html.indexOf('<section class="alert retirements"'), html.indexOf('</section>', html.indexOf('<section class="alert retirements"')));

  it('says so in the banner with its day, its successor and the migration guide, and in the summary', () => {
    expect(banner).toContain(`<strong>${m.bannerListing('2027-03-31')}</strong>`);
    expect(banner).toContain(`href="${lang === 'zh' ? '/zh' : ''}/apis/anthropic"`);
    expect(banner).toContain('href="https://example.com/migrate"');
    const summary = html.slice(html.indexOf('data-fact="lifecycle"'), html.indexOf('data-fact="liveness"'));
    expect(summary).toContain('class="badge deprecated"');
    expect(summary).toContain(m.listingRetires('2027-03-31'));
  });

  it('is valid HTML', async () => {
    const report = await new HtmlValidate(HTML_RULES).validateString(html);
    expect(report.results.flatMap((r) => r.messages.map((msg) => `${msg.ruleId}: ${msg.message} (${msg.selector})`))).toEqual([]);
  });
});

it('tells browsers from agents by Accept, JSON winning a tie', () => {
  expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8')).toBe(true);
  expect(prefersHtml('text/html')).toBe(true);
  expect(prefersHtml('*/*')).toBe(false);
  expect(prefersHtml(undefined)).toBe(false);
  expect(prefersHtml('application/json')).toBe(false);
  expect(prefersHtml('application/json, text/html;q=0.9')).toBe(false);
  expect(prefersHtml('text/*;q=0.5, */*;q=0.1')).toBe(true);
  expect(prefersHtml('text/html;q=0, */*')).toBe(false);
});

it('puts Chinese pages under /zh and reads the language back from the path', () => {
  expect(inLang('zh', '/')).toBe('/zh/');
  expect(inLang('zh', '/apis/openai')).toBe('/zh/apis/openai');
  expect(inLang('en', '/search?q=x')).toBe('/search?q=x');
  expect(langOfPath('/zh/apis/openai')).toBe('zh');
  expect(langOfPath('/zh')).toBe('zh');
  expect(langOfPath('/zhipu')).toBe('en');
  expect(langOfPath('/apis/zh')).toBe('en');
});
