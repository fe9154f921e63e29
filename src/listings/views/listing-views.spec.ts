import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Categories } from '../../categories/categories';
import type { ErrorEntryDocument } from '../../error-reference/write/error-entry.document';
import type { ListingDocument } from '../write/listing.document';
import { RenderState, cardOf } from './render-state';
import { renderListing } from './listing-views';
import { splitEtag } from '../../http/stored-body';

const fixtures = join(__dirname, '../../../fixtures');
const read = <T>(folder: string): T[] =>
  readdirSync(join(fixtures, folder)).map((file) => parse(readFileSync(join(fixtures, folder, file), 'utf8')) as T);
const listings = read<ListingDocument>('listings');
const categories = Categories.fromDirectory(fixtures);
const state = new RenderState();
for (const listing of listings) state.setCard(cardOf(listing));
read<ErrorEntryDocument>('errors').forEach((entry, i) => state.errors.set(`e${i}`, entry));

it('renders every fixture with the fields in the order the API documents, and its tag', () => {
  let withErrors = 0;
  for (const listing of listings) {
    const { detail } = renderListing(listing, state, categories);
    const { etag, body } = splitEtag(detail);
    const text = body.toString();
    const document = JSON.parse(text) as { success: boolean; tool: Record<string, unknown>; _links: Record<string, string> };
    expect(JSON.stringify(document)).toBe(text);
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const keys = Object.keys(document.tool);
    expect(keys.slice(0, 3)).toEqual(['slug', 'name', 'nameCn']);
    expect(keys.slice(-5)).toEqual(['referralUrl', 'curlExample', 'similarApis', 'pricingComparison', 'errors']);
    expect(Object.keys(document._links)).toEqual(['self', 'category', 'compare', 'errors', 'openapi']);
    if ((document.tool.errors as unknown[]).length > 0) withErrors++;
  }
  expect(withErrors).toBeGreaterThan(0);
});

it('shows other listings with the fields and order the API documents', () => {
  let shown = 0;
  for (const listing of listings) {
    const { body } = splitEtag(renderListing(listing, state, categories).detail);
    const { tool } = JSON.parse(body.toString()) as { tool: Record<string, Array<Record<string, unknown>>> };
    for (const similar of tool.similarApis) {
      const card = state.cards.get(similar.slug as string)!;
      const { slug, name, nameCn, popularity, description, descriptionCn } = card;
      expect(Object.entries(similar)).toEqual(Object.entries({ slug, name, nameCn, popularity, description, descriptionCn }));
      shown++;
    }
    for (const row of tool.pricingComparison) {
      const { slug, name, pricing, auth, popularity } = state.cards.get(row.slug as string)!;
      expect(Object.entries(row)).toEqual(Object.entries({ slug, name, pricing, auth, popularity }));
    }
  }
  expect(shown).toBeGreaterThan(100);
});

it('shows the new content of a listing another detail shows once its card is replaced', () => {
  const listing = listings.find((l) => l.similarApis.some((slug) => state.cards.has(slug)))!;
  const shownSlug = listing.similarApis.find((slug) => state.cards.has(slug))!;
  const own = new RenderState();
  for (const card of state.cards.values()) own.setCard(card);
  const before = renderListing(listing, own, categories).detail;
  own.setCard({ ...own.cards.get(shownSlug)!, name: 'Renamed API', pricing: 'Renamed pricing' });
  const after = renderListing(listing, own, categories).detail;
  expect(before).not.toContain('Renamed API');
  expect(after).toContain('"name":"Renamed API","nameCn"');
  expect(after).toContain('"pricing":"Renamed pricing"');
});
