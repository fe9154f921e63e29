import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ListingDocument, parseListing } from '../../src/listings/write/listing.document';

type ModelDocument = NonNullable<ListingDocument['models']>[number];

/**
 * Synthetic catalogs for benchmarks: each listing is a real listing of fixtures/ under a new, unique name,
 * with its text lightly reshuffled. The vocabulary stays that of the real catalog, so posting lists grow
 * with the catalog the way they would (the hard case for search), while names stay distinct.
 */
const NAME_PARTS = [
  'nova', 'zenith', 'atlas', 'orbit', 'quartz', 'ember', 'cinder', 'lumen', 'vertex', 'nimbus', 'pixel', 'vector',
  'signal', 'harbor', 'summit', 'cobalt', 'falcon', 'juniper', 'meridian', 'onyx', 'prism', 'quill', 'raven', 'sable',
  'tundra', 'umbra', 'vesper', 'willow', 'yarrow', 'zephyr', 'aurora', 'beacon', 'comet', 'delta', 'echo', 'flux',
  'glacier', 'helix', 'iris', 'jade', 'kestrel', 'lattice', 'mosaic', 'nebula', 'opal', 'pulsar', 'quasar', 'ridge',
];
const NAME_KINDS = ['speech', 'vision', 'search', 'pay', 'data', 'flow', 'cloud', 'gpu', 'mail', 'maps', 'chat', 'vault', 'graph', 'scan'];

/** A small deterministic PRNG (mulberry32), so every run generates the same catalog. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function loadFixtureListings(folder = 'fixtures/listings'): ListingDocument[] {
  return readdirSync(folder)
    .sort()
    .map((file) => parseListing(parse(readFileSync(join(folder, file), 'utf8'))).listing!);
}

/**
 * `modelsPerListing` (for the model catalog's benchmark): every listing serves exactly that many models, drawn
 * in turn from every model of the templates, each under an id of its own and with its rates moved by up to
 * half either way, so the catalog holds `count × modelsPerListing` distinct models with spread prices.
 */
export function generateCatalog(count: number, seed = 42, templates = loadFixtureListings(), modelsPerListing?: number): ListingDocument[] {
  const next = random(seed);
  const modelPool = templates.flatMap((template) => template.models ?? []);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const shuffle = <T>(items: T[]): T[] => [...items].sort(() => next() - 0.5);
  const slugs: string[] = [];
  for (let i = 0; i < count; i++) slugs.push(`${pick(NAME_PARTS)}-${pick(NAME_KINDS)}-${i + 1}`);
  return slugs.map((slug, i) => {
    const template = templates[i % templates.length];
    const [part, kind, serial] = slug.split('-');
    const title = `${part[0].toUpperCase()}${part.slice(1)} ${kind[0].toUpperCase()}${kind.slice(1)} ${serial}`;
    const host = `${slug}.example.com`;
    const similar = new Set<string>();
    while (similar.size < 4 && count > 4) {
      const other = slugs[Math.floor(next() * count)];
      if (other !== slug) similar.add(other);
    }
    return {
      ...template,
      slug,
      name: `${title} API`,
      nameCn: `${title} ${template.nameCn.replace(/^[\x00-\x7f]+/, '').trim() || '接口'}`,
      // (The title may be longer than the name it stands for: the description is cut to its limit.)
      description: template.description.replace(new RegExp(template.name.split(' ')[0], 'gi'), title).slice(0, 300),
      website: `https://${host}`,
      docsUrl: `https://docs.${host}`,
      domains: [host],
      // One host for all endpoints: paths that differed only by host collapse, so keep each once.
      endpoints: [...new Set(template.endpoints.map((url) => url.replace(/^https:\/\/[^/]+/, `https://api.${host}`)))],
      popularity: Math.floor(next() * 90),
      features: shuffle(template.features),
      usageTips: shuffle(template.usageTips).slice(0, Math.max(1, template.usageTips.length - 1)),
      tags: shuffle(template.tags),
      // Aliases must lead to one listing and differ from its name and slug, so the template's own (ChatGPT,
      // Claude...) are never copied.
      aliases: [`${title} Platform`, `${title} 服务`],
      similarApis: [...similar],
      // The template's facts as data, their sources moved to the listing's own host (sources must be on its domains).
      ...onHost(template, `docs.${host}`),
    };
  }).map((listing, i) => (modelsPerListing ? serving(listing, servedModels(modelPool, i * modelsPerListing, modelsPerListing, `docs.${listing.domains[0]}`, next)) : listing));
}

/** The listing serving `models`, with the two facts the content rules derive from them worked out again. */
function serving(listing: ListingDocument, models: ModelDocument[]): ListingDocument {
  const context = Math.max(0, ...models.filter((m) => m.lifecycle.status !== 'retired').map((m) => m.contextTokens ?? 0));
  // A listing with no context window of its own (payments, say) is given the largest as its limit too.
  const served = context > 0 ? { ...listing, models, contextTokens: context, maxTokens: listing.maxTokens ?? `${context} tokens` } : { ...listing, models };
  const checks = [...JSON.stringify(served).matchAll(/"checked":"(\d{4}-\d\d-\d\d)"/g)].map((m) => m[1]).sort();
  return { ...served, lastUpdated: checks[0] ?? listing.lastUpdated };
}

/** `count` models from the pool, starting at `from` (wrapping), with ids of their own, rates spread, sources on `host`. */
function servedModels(pool: ModelDocument[], from: number, count: number, host: string, next: () => number): ModelDocument[] {
  const models: ModelDocument[] = [];
  for (let k = 0; k < count; k++) {
    const model = pool[(from + k) % pool.length];
    const moved = onHostCopy(model, host);
    const spread = 0.5 + next();
    models.push({
      ...moved,
      id: `${model.id.replace(/^.*\//, '')}-${k + 1}`,
      canonical: null,
      // A successor is a model of the same listing, which the models drawn beside it may not be.
      lifecycle: { ...moved.lifecycle, replacedBy: null },
      prices: moved.prices.map((rate) => ({ ...rate, price: Math.round(rate.price * spread * 10_000) / 10_000 })),
    });
  }
  return models;
}

/**
 * A listing's sources (and migration links, MCP server URLs) pointed at `host`, the rest of its facts as
 * data kept. Its models name no model entry (a synthetic catalog has none): each is a model of its own.
 */
function onHost(template: ListingDocument, host: string): Pick<ListingDocument, 'lifecycle' | 'models' | 'prices' | 'rateLimits' | 'sources' | 'provider' | 'mcpServers' | 'markets' | 'lastUpdated'> {
  const { lifecycle, models, prices, rateLimits, sources, provider, mcpServers, markets } = template;
  const moved = onHostCopy({ lifecycle, models, prices, rateLimits, sources, provider, mcpServers, markets }, host);
  return { ...moved, models: moved.models && moved.models.map((model) => ({ ...model, canonical: null })), lastUpdated: template.lastUpdated };
}

/** A deep copy of `facts` with every source and migration link (`url`, `migrationUrl`) moved to `host`. */
function onHostCopy<T>(facts: T, host: string): T {
  return JSON.parse(JSON.stringify(facts), (key, value) =>
    (key === 'url' || key === 'migrationUrl') && typeof value === 'string' ? value.replace(/^https:\/\/[^/]+/, `https://${host}`) : value,
  ) as T;
}

/** Writes a catalog as JSON listing files (what a bulk import from another system would produce). */
export function writeCatalog(listings: ListingDocument[], folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const listing of listings) writeFileSync(join(folder, `${listing.slug}.json`), JSON.stringify(listing));
}

if (require.main === module) {
  const count = Number(process.argv[2] ?? 10_000);
  const folder = process.argv[3] ?? `bench/.data/synthetic-${count}`;
  writeCatalog(generateCatalog(count), folder);
  console.log(`wrote ${count} synthetic listings to ${folder}`);
}
