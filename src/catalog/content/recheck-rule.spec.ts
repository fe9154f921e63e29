import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseListing, type ListingDocument } from '../../listings/write/listing.document';
import { recheckRule } from './content-rules';

/** OpenAI's listing as a file gives it, checked on 2026-11-26 throughout. */
const openai = (): ListingDocument => parseListing(parse(readFileSync('fixtures/listings/openai.yaml', 'utf8'))).listing!;
const LATER = '2026-12-05';

describe('recheckRule: a changed fact needs its check dated again', () => {
  it('lets a version stored before a field existed compare equal to the same fact read today', () => {
    // As a version written before today's optional fields existed would be stored: without any of them.
    const withoutEmpty = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(withoutEmpty)
      : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutEmpty(v)]))
      : value;
    const stored = withoutEmpty(openai()) as ListingDocument;
    expect(JSON.stringify(stored)).not.toEqual(JSON.stringify(openai()));
    expect(recheckRule(openai(), stored, LATER)).toEqual([]);
  });

  it('asks for the model lifecycle check, not the model check, when only a shutdown is announced', () => {
    const revised = openai();
    const model = revised.models![0];
    model.lifecycle = { ...model.lifecycle, status: 'deprecated', retiresAt: '2027-03-01', source: { ...model.source!, checked: '2026-11-26' } };
    const before = openai();
    before.models![0].lifecycle = { ...before.models![0].lifecycle, source: { ...model.source!, checked: '2026-11-26' } };
    expect(recheckRule(revised, before, LATER).map((p) => p.field)).toEqual(['models.0.lifecycle.source.checked']);
  });

  it('takes a second edit on the day of the check, and any later check', () => {
    const revised = openai();
    revised.openaiCompatible = false;
    expect(recheckRule(revised, openai(), LATER).map((p) => p.field)).toEqual(['sources.openaiCompatible.checked']);
    expect(recheckRule(revised, openai(), '2026-11-26')).toEqual([]);
    revised.sources!.openaiCompatible = { ...revised.sources!.openaiCompatible!, checked: '2026-11-30' };
    expect(recheckRule(revised, openai(), LATER)).toEqual([]);
  });

  it('leaves a fact with no source alone: there is no check to date again', () => {
    const revised = openai();
    const before = openai();
    revised.sources!.freeTier = null;
    before.sources!.freeTier = null;
    revised.freeTier = !before.freeTier;
    expect(recheckRule(revised, before, LATER)).toEqual([]);
  });

  it("takes a newer check of a rate's own source for a changed rate, and nothing older", () => {
    const clerk = (): ListingDocument => parseListing(parse(readFileSync('fixtures/listings/clerk.yaml', 'utf8'))).listing!;
    const revised = clerk();
    const rate = revised.prices!.rates[0];
    expect(rate.source).toBeTruthy();
    rate.price = rate.price * 2;
    expect(recheckRule(revised, clerk(), LATER).map((p) => p.field)).toEqual(['prices.source.checked']);
    rate.source = { ...rate.source!, checked: '2026-11-30' };
    expect(recheckRule(revised, clerk(), LATER)).toEqual([]);
  });
});
