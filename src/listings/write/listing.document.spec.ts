import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { LISTING_FIELDS, parseListing } from './listing.document';
import { AUTH_TYPES, SDK_LANGUAGES } from '../../contract/vocabulary';

const valid = () => parse(readFileSync('fixtures/listings/openai.yaml', 'utf8')) as Record<string, unknown>;
const problemsOf = (change: (doc: Record<string, unknown>) => void) => {
  const doc = valid();
  change(doc);
  return parseListing(doc).problems;
};

describe('ListingDocumentDto', () => {
  it('accepts a complete listing and returns it with fields in canonical order', () => {
    const { listing, problems } = parseListing(valid());
    expect(problems).toEqual([]);
    expect(Object.keys(listing!)).toEqual(LISTING_FIELDS);
  });

  it.each([
    ['popularity above 100', (d: any) => (d.popularity = 101), 'popularity', /0-100/],
    ['popularity not an integer', (d: any) => (d.popularity = 50.5), 'popularity', /integer/],
    ['negative popularity', (d: any) => (d.popularity = -1), 'popularity', /0-100/],
    ['a date that does not exist', (d: any) => (d.lastUpdated = '2026-02-30'), 'lastUpdated', /YYYY-MM-DD/],
    ['a non-ISO date', (d: any) => (d.lastUpdated = '20/11/2026'), 'lastUpdated', /YYYY-MM-DD/],
    ['an http website', (d: any) => (d.website = 'http://openai.com'), 'website', /https/],
    ['a relative docs URL', (d: any) => (d.docsUrl = '/docs'), 'docsUrl', /https/],
    ['an http endpoint', (d: any) => (d.endpoints = ['http://api.openai.com/v1/x']), 'endpoints', /https/],
    ['an uppercase tag', (d: any) => (d.tags = ['LLM']), 'tags', /lowercase/],
    ['a tag with a space', (d: any) => (d.tags = ['language model']), 'tags', /lowercase/],
    ['an uppercase slug', (d: any) => (d.slug = 'OpenAI'), 'slug', /lowercase/],
    ['a slug with a double hyphen', (d: any) => (d.slug = 'open--ai'), 'slug', /single hyphens/],
    ['the reserved slug search', (d: any) => (d.slug = 'search'), 'slug', /reserved/],
    ['the reserved slug compare', (d: any) => (d.slug = 'compare'), 'slug', /reserved/],
    ['the reserved slug categories', (d: any) => (d.slug = 'categories'), 'slug', /reserved/],
    ['a Chinese name without Han characters', (d: any) => (d.nameCn = 'OpenAI API'), 'nameCn', /Han/],
    ['an unknown status', (d: any) => (d.status = 'gone'), 'status', /online, beta, deprecated/],
    ['a missing field', (d: any) => delete d.pricing, 'pricing', /string/],
    ['an unknown field', (d: any) => (d.colour = 'blue'), 'colour', /unknown field/],
    ['a rate limit without a number', (d: any) => (d.rateLimit = 'generous'), 'rateLimit', /number/],
    ['sponsored as a string', (d: any) => (d.sponsored = 'no'), 'sponsored', /true or false/],
    ['no code examples', (d: any) => (d.codeExamples = []), 'codeExamples', /at least 1/],
    ['a code example without code', (d: any) => ((d.codeExamples as any[])[0].code = ''), 'codeExamples.0.code', /1-6000/],
    ['N/A as a latency', (d: any) => (d.latency = 'N/A'), 'latency', /not a placeholder/],
    ['unknown as a max context', (d: any) => (d.maxTokens = 'unknown'), 'maxTokens', /not a placeholder/],
    ['a similar API twice', (d: any) => (d.similarApis = ['anthropic', 'anthropic']), 'similarApis', /twice/],
    ['a tag twice', (d: any) => (d.tags = ['llm', 'llm']), 'tags', /twice/],
    ['an endpoint twice', (d: any) => (d.endpoints = [d.endpoints[0], d.endpoints[0]]), 'endpoints', /twice/],
    ['an unknown code language', (d: any) => ((d.codeExamples as any[])[1].language = 'cobol'), 'codeExamples.1.language', /one of/],
    ['an empty list as a code example', (d: any) => ((d.codeExamples as any[])[0] = []), 'codeExamples', /mapping/],
    ['a field named constructor', (d: any) => (d.constructor = 'x'), 'constructor', /unknown field/],
    ['a field named __proto__', (d: any) => Object.defineProperty(d, '__proto__', { value: 'x', enumerable: true }), '__proto__', /unknown field/],
    ['a missing aliases list', (d: any) => delete d.aliases, 'aliases', /list/],
    ['an alias that is not a string', (d: any) => (d.aliases = [42]), 'aliases', /string/],
    ['an empty alias', (d: any) => (d.aliases = ['']), 'aliases', /1-60/],
    ['an alias of punctuation only', (d: any) => (d.aliases = ['·-·']), 'aliases', /letter or a digit/],
    ['the same alias twice, spelt differently', (d: any) => (d.aliases = ['DALL·E', 'dall-e']), 'aliases', /alias twice/],
    ['more than 20 aliases', (d: any) => (d.aliases = Array.from({ length: 21 }, (_, i) => `Name ${i}`)), 'aliases', /at most 20/],
    ['a missing freeTier', (d: any) => delete d.freeTier, 'freeTier', /true or false/],
    ['openaiCompatible as a string', (d: any) => (d.openaiCompatible = 'yes'), 'openaiCompatible', /true or false/],
    ['an unknown authType', (d: any) => (d.authType = 'api-key'), 'authType', /one of bearer, header-key, query-key, oauth, basic, signature/],
    ['a missing authType', (d: any) => delete d.authType, 'authType', /one of/],
    ['contextTokens not an integer', (d: any) => (d.contextTokens = 128000.5), 'contextTokens', /integer/],
    ['contextTokens as text', (d: any) => (d.contextTokens = '128K'), 'contextTokens', /integer/],
    ['contextTokens of zero', (d: any) => (d.contextTokens = 0), 'contextTokens', /positive/],
    ['a missing contextTokens', (d: any) => delete d.contextTokens, 'contextTokens', /integer/],
    ['an unknown SDK language', (d: any) => (d.sdkLanguages = ['python', 'Node.js']), 'sdkLanguages', /one of python, javascript/],
    ['an SDK language twice', (d: any) => (d.sdkLanguages = ['python', 'python']), 'sdkLanguages', /twice/],
    ['no SDK languages', (d: any) => (d.sdkLanguages = []), 'sdkLanguages', /at least 1/],
    ['a note that is not text', (d: any) => (d.note = 42), 'note', /string/],
    ['a code example field named constructor', (d: any) => ((d.codeExamples as any[])[0].constructor = 'x'), 'codeExamples.0.constructor', /unknown field/],
  ])('refuses %s', (_label, change, field, reason) => {
    const problems = problemsOf(change);
    expect(problems).toEqual(expect.arrayContaining([expect.objectContaining({ field, reason: expect.stringMatching(reason) })]));
  });

  it('accepts a null contextTokens, an empty aliases list and an optional note, which is null when absent', () => {
    expect(problemsOf((d) => ((d.contextTokens = null), (d.maxTokens = null)))).toEqual([]);
    expect(problemsOf((d) => (d.aliases = []))).toEqual([]);
    expect(problemsOf((d) => (d.note = 'Two sources disagree on the rate limit; the lower figure is given.'))).toEqual([]);
    const withoutNote = valid();
    delete withoutNote.note;
    expect(parseListing(withoutNote).listing!.note).toBeNull();
  });

  it('accepts every authType and SDK language of the documented sets', () => {
    for (const authType of AUTH_TYPES) expect(problemsOf((d) => (d.authType = authType))).toEqual([]);
    expect(problemsOf((d) => (d.sdkLanguages = [...SDK_LANGUAGES]))).toEqual([]);
  });

  it('places the new facts right after tags', () => {
    const at = LISTING_FIELDS.indexOf('tags');
    expect(LISTING_FIELDS.slice(at, at + 7)).toEqual(['tags', 'aliases', 'freeTier', 'openaiCompatible', 'authType', 'contextTokens', 'sdkLanguages']);
  });

  it('accepts a null maxTokens but not a missing one', () => {
    expect(problemsOf((d) => (d.maxTokens = null))).toEqual([]);
    expect(problemsOf((d) => delete d.maxTokens).map((p) => p.field)).toContain('maxTokens');
  });
});
