import { spawnSync } from 'node:child_process';
import type { ErrorEntryDocument } from '../../error-reference/write/error-entry.document';
import type { ModelEntryDocument } from '../../models/write/model-entry.document';
import { DECISION_FACT_FIELDS, stated, unconfirmedFacts } from '../../listings/write/listing-facts';
import { type ListingDocument } from '../../listings/write/listing.document';
import { aliasKey, DECISION_FACTS, type SdkLanguage } from '../../contract/vocabulary';
import type { ContentProblem, LoadedListing } from './content-files';
import { STALE_AFTER_DAYS } from '../../contract/listing-facts';
import { FieldProblem, hasHan } from '../../contract/validation';
import { lookalikeSkeleton, mixedScriptWord, urlCredential } from './text-rules';

/**
 * The editorial rules: what makes content trustworthy to publish, beyond each field's type. One set, applied
 * by every way content comes in (`ingest`, seeding, `npm run check:content`): the rules of one document run
 * where its file is read (see content-files.ts, and the reading threads of a large import), the rules across
 * documents where the files are put together. Each reports `field: reason`.
 */

/** The rules of one listing on its own: its URLs, its Chinese, its tags, names, code examples and facts. */
export function listingRules(listing: ListingDocument): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const report = (field: string, reason: string) => problems.push({ field, reason });
  checkUrls(listing, report);
  checkChinese(listing, [['name', 'nameCn'], ['description', 'descriptionCn']], report);
  checkTags(listing, report);
  checkNames(listing, report);
  checkCodeExamples(listing, report);
  checkFacts(listing, report);
  checkFactData(listing, report);
  return problems;
}

/**
 * The rules of one model entry on its own: its source on the maker's domains (or a repository file at the
 * commit read, or a page off them with the reason), and its weights' page likewise.
 */
export function modelEntryRules(entry: ModelEntryDocument): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const report = (field: string, reason: string) => problems.push({ field, reason });
  checkSource('source', entry.source, entry.domains, report);
  if (entry.openWeights) {
    const credential = urlCredential(entry.openWeights.url);
    if (credential) report('openWeights.url', `'${entry.openWeights.url}' ${credential}: a published URL never does`);
  }
  if (entry.releaseDate && entry.releaseDate > latestCheckDay()) report('releaseDate', `${entry.releaseDate} is in the future: a model enters the directory once it is released`);
  return problems;
}

/** The rules of one error entry on its own. */
export function errorEntryRules(entry: ErrorEntryDocument): FieldProblem[] {
  const problems: FieldProblem[] = [];
  checkChinese(entry, [['title', 'titleCn'], ['cause', 'causeCn'], ['fix', 'fixCn']], (field, reason) => problems.push({ field, reason }));
  return problems;
}

/**
 * The rules across listings: no two nearly the same name, aliases that lead to one listing, code that
 * parses. `listings` are those being checked; `others` those the directory already holds and the files do
 * not change (their names and aliases count; they are not checked again).
 */
export function catalogRules(listings: LoadedListing[], others: ListingDocument[] = []): ContentProblem[] {
  return [...checkNearDuplicateNames(listings, others), ...checkAliases(listings, others), ...checkSyntax(listings)];
}

/** The listings holding each domain, built once per ingest from the directory's other listings. */
export type DomainHolders = ReadonlyMap<string, readonly string[]>;
export function domainHolders(listings: Iterable<ListingDocument>): DomainHolders {
  const holders = new Map<string, string[]>();
  for (const { slug, domains } of listings) for (const domain of domains) holders.set(domain, [...(holders.get(domain) ?? []), slug]);
  return holders;
}

/**
 * A new listing may not claim a domain another listing holds (or a name under one, or one above it): its
 * URLs would pass every domain rule as that provider's, and pages would link readers there under its name.
 * Listings of one provider do share domains (Google's, AWS's): the editor says so with
 * `ingest --allow-new-domains`, as for a revision that widens its domains.
 */
export function claimedDomainRule(listing: ListingDocument, holders: DomainHolders): FieldProblem | null {
  const claimed: string[] = [];
  for (const domain of listing.domains) {
    for (const [held, slugs] of holders) {
      if (domain === held || domain.endsWith(`.${held}`) || held.endsWith(`.${domain}`)) claimed.push(`'${domain}' (${held}: ${slugs.join(', ')})`);
    }
  }
  if (claimed.length === 0) return null;
  return {
    field: 'domains',
    reason: `claims domains other listings hold: ${claimed.join('; ')}; a new listing may only link to its own provider's domains: run ingest with --allow-new-domains if it is the same provider's`,
  };
}

/**
 * A revision may not add domains without the editor saying so: the domains decide which URLs a listing may
 * publish, so widening them is a change to check on purpose (`ingest --allow-new-domains`).
 */
export function domainRule(listing: ListingDocument, previous: ListingDocument | null): FieldProblem | null {
  if (!previous) return null;
  const added = listing.domains.filter((domain) => !previous.domains.includes(domain));
  if (added.length === 0) return null;
  return {
    field: 'domains',
    reason: `adds ${added.map((d) => `'${d}'`).join(', ')} to the provider's domains (now ${previous.domains.join(', ')}); they decide which URLs the listing may link to: run ingest with --allow-new-domains if this is intended`,
  };
}

/**
 * A revision that changes a fact must say it was checked again: its `checked` later than the revised
 * version's, or today (a second edit the same day). Otherwise a new figure would be served under the date
 * of the old one, and would look fresher than it is. Facts are compared without their sources: models by
 * id, the prices, the rate limits, the lifecycle, and the facts every listing has with `sources`.
 */
export function recheckRule(listing: ListingDocument, previous: ListingDocument | null, today = new Date().toISOString().slice(0, 10)): FieldProblem[] {
  if (!previous) return [];
  const problems: FieldProblem[] = [];
  // A block is checked again when any of its pages is: its own source, or the own source of one of its rates.
  const compare = (field: string, now: unknown, before: unknown, sources: Sourced, sourcesBefore: Sourced) => {
    const [own, ownBefore] = [sources[0], sourcesBefore[0]];
    if (!own || !ownBefore || sameFact(now, before)) return;
    const checked = newestCheck(sources);
    if (checked <= newestCheck(sourcesBefore) && checked < today) {
      problems.push({ field: `${field}.checked`, reason: `the fact changed, but its check is still ${own.checked} (that of the version it revises): check it again on the provider's page and give that day` });
    }
  };
  const withRates = (source: SourceView | null | undefined, rates: ReadonlyArray<{ source?: SourceView | null }> | undefined): Sourced => [source, ...(rates ?? []).map((rate) => rate.source)];
  const modelsBefore = new Map((previous.models ?? []).map((model) => [model.id, model]));
  (listing.models ?? []).forEach((model, i) => {
    const before = modelsBefore.get(model.id);
    if (!before) return;
    // Which model entry an offer serves is its identity, not a fact of the offer; its capabilities carry their own source.
    const offerFacts = (offer: typeof model) => ({ ...offer, lifecycle: null, canonical: null, capabilities: null });
    compare(`models.${i}.source`, offerFacts(model), offerFacts(before), withRates(model.source, model.prices), withRates(before.source, before.prices));
    compare(`models.${i}.lifecycle.source`, model.lifecycle, before.lifecycle, [model.lifecycle?.source], [before.lifecycle?.source]);
    compare(`models.${i}.capabilities.source`, model.capabilities, before.capabilities, [model.capabilities?.source], [before.capabilities?.source]);
  });
  compare('prices.source', listing.prices, previous.prices, withRates(listing.prices?.source, listing.prices?.rates), withRates(previous.prices?.source, previous.prices?.rates));
  compare('rateLimits.source', listing.rateLimits, previous.rateLimits, [listing.rateLimits?.source], [previous.rateLimits?.source]);
  compare('lifecycle.source', listing.lifecycle, previous.lifecycle, [listing.lifecycle?.source], [previous.lifecycle?.source]);
  for (const fact of DECISION_FACTS) {
    compare(`sources.${fact}`, stated(listing, fact), stated(previous, fact), [listing.sources?.[fact]], [previous.sources?.[fact]]);
  }
  return problems;
}

/**
 * A shutdown that has come is a retirement: a listing or model whose announced `retiresAt` is before
 * `today` must be `retired`, not active, preview or deprecated. `ingest` refuses such a file (it must be
 * right on the day it is ingested); `check:content` lists them as warnings (see pastShutdowns), so that
 * the check never fails because a day went by.
 */
export function pastShutdownRule(listing: ListingDocument, today = new Date().toISOString().slice(0, 10)): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const check = (field: string, lifecycle: { status: string; retiresAt?: string | null } | null | undefined) => {
    if (lifecycle?.retiresAt && lifecycle.retiresAt < today && lifecycle.status !== 'retired') {
      problems.push({ field: `${field}.status`, reason: `its shutdown (${lifecycle.retiresAt}) has passed: the status is retired, not ${lifecycle.status} (give since, and the successor in replacedBy)` });
    }
  };
  check('lifecycle', listing.lifecycle);
  (listing.models ?? []).forEach((model, i) => check(`models.${i}.lifecycle`, model.lifecycle));
  return problems;
}

/** How far ahead check:content names the shutdowns coming (see upcomingShutdowns). */
export const SHUTDOWN_NOTICE_DAYS = 30;

/**
 * Listings and models not retired whose shutdown comes within SHUTDOWN_NOTICE_DAYS of `today` (that day
 * included): on the day after it, ingest refuses them until they are marked retired, and every ingest of a
 * folder that changes them (a test's fixtures included) with them. For the editors' calendar.
 */
export function upcomingShutdowns(listings: LoadedListing[], today: Date): Array<{ file: string; field: string; name: string; day: string }> {
  const from = today.toISOString().slice(0, 10);
  const until = new Date(today.getTime() + SHUTDOWN_NOTICE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const coming = (lifecycle: { status: string; retiresAt?: string | null } | null | undefined) =>
    Boolean(lifecycle?.retiresAt && lifecycle.status !== 'retired' && lifecycle.retiresAt >= from && lifecycle.retiresAt <= until);
  return listings
    .flatMap(({ file, listing }) => [
      ...(coming(listing.lifecycle) ? [{ file, field: 'lifecycle', name: listing.slug, day: listing.lifecycle!.retiresAt! }] : []),
      ...(listing.models ?? []).flatMap((model, i) => (coming(model.lifecycle) ? [{ file, field: `models.${i}.lifecycle`, name: model.id, day: model.lifecycle.retiresAt! }] : [])),
    ])
    .sort((a, b) => a.day.localeCompare(b.day) || a.file.localeCompare(b.file));
}

/** Warnings of check:content: listings and models past their shutdown and not yet marked retired (see pastShutdownRule). */
export function pastShutdowns(listings: LoadedListing[], today: Date): ContentProblem[] {
  const day = today.toISOString().slice(0, 10);
  return listings.flatMap(({ file, listing }) => pastShutdownRule(listing, day).map((problem) => ({ file, ...problem })));
}

/** A fact's sources: its block's own first, then its rates' own (each may be absent). */
type Sourced = ReadonlyArray<SourceView | null | undefined>;

/** The latest day any of a fact's sources was checked. */
function newestCheck(sources: Sourced): string {
  return sources.reduce<string>((newest, source) => (source && source.checked > newest ? source.checked : newest), '');
}

/**
 * The same fact, sources aside: equal once every `source` and every empty field is dropped and the keys are
 * sorted, so a version stored before a field was added compares equal to the same fact read today.
 */
function sameFact(a: unknown, b: unknown): boolean {
  return JSON.stringify(factOnly(a)) === JSON.stringify(factOnly(b));
}

function factOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(factOnly);
  if (value === null || typeof value !== 'object') return value ?? null;
  const kept = Object.entries(value).filter(([key, field]) => key !== 'source' && field !== null && field !== undefined);
  return Object.fromEntries(kept.sort(([x], [y]) => (x < y ? -1 : 1)).map(([key, field]) => [key, factOnly(field)]));
}

/**
 * The latest day a check may be dated: tomorrow in UTC, since an editor east of Greenwich may already be
 * on the next day. A later one is a typo, or a date set ahead to keep the fact from growing stale.
 */
function latestCheckDay(): string {
  return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
}

type Report = (field: string, reason: string) => void;

/** Is the URL's host one of the provider's domains, or a subdomain of one? */
export function hostAllowed(url: string, domains: string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** A commit as Git names it in full: 40 hexadecimal digits (a branch, a tag or a short hash can move or clash). */
const FULL_COMMIT = /^[0-9a-f]{40}$/i;

/**
 * Why a source off the provider's domains on GitHub cannot be one, or null when it can (or is not on
 * GitHub). A repository file is a source only at the commit read: on github.com that is
 * `https://github.com/<owner>/<repo>/blob/<40-hex commit>/<path>`, on raw.githubusercontent.com
 * `https://raw.githubusercontent.com/<owner>/<repo>/<40-hex commit>/<path>`. A branch (`blob/main`), a tag,
 * a short hash or the repository's page shows whatever the repository holds today, not what was read.
 * Other hosts off the domains are left to `offDomainReason`.
 */
export function unpinnedRepositorySource(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.toLowerCase();
  const parts = parsed.pathname.split('/').filter((part) => part !== '');
  const [owner, repo] = parts;
  const repository = owner && repo ? `https://github.com/${owner}/${repo}` : 'https://github.com/<owner>/<repo>';
  if (host === 'github.com' || host === 'www.github.com') {
    if (parts[2] === 'blob' && FULL_COMMIT.test(parts[3] ?? '') && parts.length > 4) return null;
    const path = parts[2] === 'blob' && parts.length > 4 ? parts.slice(4).join('/') : '<path>';
    return `'${url}' is not pinned to a commit: a repository file is a source only at the commit read: link ${repository}/blob/<commit>/${path}, the commit in full (40 hex digits)`;
  }
  if (host === 'raw.githubusercontent.com') {
    if (FULL_COMMIT.test(parts[2] ?? '') && parts.length > 3) return null;
    return `'${url}' is not pinned to a commit: a repository file is a source only at the commit read: link ${repository}/blob/<commit>/${parts.slice(3).join('/') || '<path>'}, the commit in full (40 hex digits)`;
  }
  return null;
}

function checkUrls(listing: ListingDocument, report: Report): void {
  const check = (field: string, url: string) => {
    const credential = urlCredential(url);
    if (!url.startsWith('https://')) report(field, `'${url}' is not https`);
    else if (credential) report(field, `'${url}' ${credential}: a published URL never does`);
    else if (!hostAllowed(url, listing.domains)) report(field, `'${url}' is not on the provider's domains (${listing.domains.join(', ')})`);
  };
  check('website', listing.website);
  check('docsUrl', listing.docsUrl);
  listing.endpoints.forEach((url, i) => check(`endpoints.${i}`, url));
}

/** Each Chinese field of the pairs (English, Chinese) is in Chinese, not a copy of its English field. */
function checkChinese<F extends string>(document: Record<NoInfer<F>, string>, pairs: [F, F][], report: Report): void {
  for (const [en, cn] of pairs) {
    if (!hasHan(document[cn])) report(cn, 'has no Chinese (Han) characters');
    else if (document[cn].trim() === document[en].trim()) report(cn, `is identical to ${en}`);
  }
}

function checkTags(listing: ListingDocument, report: Report): void {
  listing.tags.forEach((tag, i) => {
    if (tag !== tag.toLowerCase()) report(`tags.${i}`, `'${tag}' is not lowercase`);
  });
}

/** An environment variable reference: $NAME or ${NAME}. */
const ENV_VAR = /\$\{?[A-Z][A-Z0-9_]*\}?/;

/**
 * Does a curl command carry a credential taken from an environment variable: in a header, in -u/--user,
 * in the URL, or in a credential-named field of the body or query (api_key, token, sign...)?
 */
export function curlHasCredential(code: string): boolean {
  const joined = code.replace(/\\\n/g, ' ');
  for (const match of joined.matchAll(/(?:-H|--header)\s+(["'])(.*?)\1(?=\s|$)/g)) {
    const [name] = match[2].split(':');
    if (ENV_VAR.test(match[2]) && !/^content-type$/i.test(name.trim())) return true;
  }
  if (/(?:-u|--user)\s+["']?[^\s"']*\$\{?[A-Z]/.test(joined)) return true;
  if (/https:\/\/[^\s"']*\$\{?[A-Z]/.test(joined)) return true;
  return /["']?[\w-]*(?:key|token|secret|sign|signature|auth)[\w-]*["']?\s*[:=]\s*(?:["']*)\$\{?[A-Z]/i.test(joined);
}

function checkCodeExamples(listing: ListingDocument, report: Report): void {
  const languages = listing.codeExamples.map((c) => c.language);
  if (!languages.includes('bash')) report('codeExamples', 'needs a bash (curl) example');
  if (!languages.includes('python')) report('codeExamples', 'needs a python example');
  listing.codeExamples.forEach((example, i) => {
    const field = `codeExamples.${i}`;
    if (example.language === 'bash') {
      if (!/\bcurl\b/.test(example.code)) report(field, 'a bash example must be a curl call');
      else if (!curlHasCredential(example.code)) {
        report(field, 'the curl call carries no credential from an environment variable (header, -u, or URL)');
      }
      if (/\s(?:-d|--data(?:-raw)?)\s+'\s*[[{]/.test(example.code) && !/content-type:\s*application\/(?:[\w.+-]*json)/i.test(example.code)) {
        report(field, 'sends a JSON body without a JSON Content-Type header');
      }
    }
  });
}

/**
 * The facts as data: each source on the provider's domains (or saying why not, and a repository file only
 * at the commit read), lifecycles whose dates and successors make sense, models named once, the context the
 * largest of the models', and `lastUpdated` the oldest check of the listing's sourced facts.
 */
function checkFactData(listing: ListingDocument, report: Report): void {
  const checks: string[] = [];
  const source = (field: string, given: SourceView | null | undefined) => {
    if (!given) return;
    checks.push(given.checked);
    checkSource(field, given, listing.domains, report);
  };
  const lifecycle = (field: string, given: LifecycleView | null | undefined, successors: string[] | null) => {
    if (!given) return;
    source(`${field}.source`, given.source);
    if (given.status !== 'active' && !given.source) report(`${field}.source`, `a ${given.status} status needs the announcement it comes from`);
    if (given.status === 'retired' && !given.retiresAt && !given.since) report(`${field}.retiresAt`, 'a retired listing or model needs the day it was shut down (retiresAt or since)');
    if (given.since && given.retiresAt && given.retiresAt < given.since) report(`${field}.retiresAt`, `is before since (${given.since})`);
    if (given.retiresAt && given.status === 'active') report(`${field}.status`, `a shutdown is announced (${given.retiresAt}): the status is deprecated, not active`);
    (given.replacedBy ?? []).forEach((successor, i) => {
      if (successors && !successors.includes(successor)) report(`${field}.replacedBy.${i}`, `'${successor}' is not a model of this listing`);
    });
    if (given.migrationUrl && !hostAllowed(given.migrationUrl, listing.domains)) report(`${field}.migrationUrl`, `'${given.migrationUrl}' is not on the provider's domains`);
  };
  lifecycle('lifecycle', listing.lifecycle, null);
  // The public directory's status stays readable beside the lifecycle: the two must agree.
  const expected = listing.lifecycle ? STATUS_OF_LIFECYCLE[listing.lifecycle.status] : null;
  if (expected && listing.status !== expected) report('status', `must be '${expected}' for a listing whose lifecycle is ${listing.lifecycle!.status}`);
  if ((listing.lifecycle?.replacedBy ?? []).includes(listing.slug)) report('lifecycle.replacedBy', 'a listing does not replace itself');
  const ids = new Set<string>();
  for (const [i, model] of (listing.models ?? []).entries()) {
    if (ids.has(model.id)) report(`models.${i}.id`, `'${model.id}' is listed twice`);
    ids.add(model.id);
  }
  for (const [i, model] of (listing.models ?? []).entries()) {
    source(`models.${i}.source`, model.source);
    model.prices.forEach((rate, j) => source(`models.${i}.prices.${j}.source`, rate.source));
    lifecycle(`models.${i}.lifecycle`, model.lifecycle, [...ids].filter((id) => id !== model.id));
    if (model.contextTokens !== null && model.maxOutputTokens !== null && model.maxOutputTokens > model.contextTokens) {
      report(`models.${i}.maxOutputTokens`, `is more than the context (${model.contextTokens})`);
    }
  }
  const contexts = (listing.models ?? []).filter((m) => m.lifecycle.status !== 'retired').map((m) => m.contextTokens ?? 0);
  const largest = Math.max(0, ...contexts);
  if (largest > 0 && listing.contextTokens !== largest) report('contextTokens', `must be the largest context of the listing's models (${largest})`);
  if (listing.prices) source('prices.source', listing.prices.source);
  (listing.prices?.rates ?? []).forEach((rate, i) => source(`prices.rates.${i}.source`, rate.source));
  if (listing.rateLimits) source('rateLimits.source', listing.rateLimits.source);
  for (const [fact, given] of Object.entries(listing.sources ?? {})) if (given) source(`sources.${fact}`, given);
  checkWhoAndWhere(listing, source, lifecycle, report);
  if (checks.length > 0) {
    const oldest = checks.reduce((a, b) => (a < b ? a : b));
    if (listing.lastUpdated !== oldest) report('lastUpdated', `must be the oldest check of the listing's sourced facts (${oldest}), not set by hand`);
  }
}

/**
 * One source: checked no later than tomorrow, a URL without credentials, on the provider's domains or else
 * saying why (offDomainReason), and a repository file only at the commit read.
 */
function checkSource(field: string, given: SourceView | null | undefined, domains: string[], report: Report): void {
  if (!given) return;
  if (given.checked > latestCheckDay()) report(`${field}.checked`, `${given.checked} is in the future: give the day you read the page`);
  const credential = urlCredential(given.url);
  if (credential) report(`${field}.url`, `'${given.url}' ${credential}: a published URL never does`);
  else if (!hostAllowed(given.url, domains)) {
    if (!given.offDomainReason) report(`${field}.url`, `'${given.url}' is not on the provider's domains (${domains.join(', ')}): give offDomainReason, or a page of the provider's`);
    const unpinned = unpinnedRepositorySource(given.url);
    if (unpinned) report(`${field}.url`, unpinned);
  }
}

/**
 * Who runs the API, its MCP servers, its markets and its models' capabilities: each sourced; data regions
 * with the page that states them; a remote MCP server at a URL on the provider's domains, a local one with
 * its package; markets only on a payment listing; capabilities that say something.
 */
function checkWhoAndWhere(listing: ListingDocument, source: (field: string, given: SourceView | null | undefined) => void, lifecycle: (field: string, given: LifecycleView | null | undefined, successors: string[] | null) => void, report: Report): void {
  const { provider, mcpServers, markets } = listing;
  if (provider) {
    source('provider.source', provider.source);
    source('provider.dataRegionsSource', provider.dataRegionsSource);
    if (provider.dataRegions.length > 0 && !provider.dataRegionsSource) report('provider.dataRegionsSource', 'data regions need the page that states them');
    if (provider.dataRegions.length === 0 && provider.dataRegionsSource) report('provider.dataRegions', 'a source of data regions is given, but no region');
    if (provider.nameCn && !hasHan(provider.nameCn)) report('provider.nameCn', 'must contain Chinese (Han) characters');
  }
  (mcpServers ?? []).forEach((server, i) => {
    const field = `mcpServers.${i}`;
    source(`${field}.source`, server.source);
    lifecycle(`${field}.lifecycle`, server.lifecycle, null);
    const remote = server.transport !== 'stdio';
    if (remote && !server.url) report(`${field}.url`, `a remote server (${server.transport}) needs its URL`);
    if (!remote && !server.package) report(`${field}.package`, 'a local server (stdio) needs the package to run');
    if (!remote && server.url) report(`${field}.url`, 'a local server (stdio) has no URL: give its package');
    if (server.url && !hostAllowed(server.url, listing.domains)) report(`${field}.url`, `'${server.url}' is not on the provider's domains (${listing.domains.join(', ')})`);
    if (server.auth.includes('none') && server.auth.length > 1) report(`${field}.auth`, "'none' cannot go with another scheme");
  });
  if (markets) {
    source('markets.source', markets.source);
    if (listing.category !== 'payment') report('markets', `only payment listings have markets (this one is in ${listing.category})`);
    if (!markets.worldwide && markets.buyerCountries.length === 0) report('markets.buyerCountries', 'name the countries whose buyers can pay, or set worldwide');
  }
  (listing.models ?? []).forEach((model, i) => {
    if (!model.capabilities) return;
    source(`models.${i}.capabilities.source`, model.capabilities.source);
    const { source: _source, ...stated } = model.capabilities;
    if (Object.values(stated).every((value) => value === null)) report(`models.${i}.capabilities`, 'states no capability: leave it out until the provider says');
  });
}

/** The public directory's `status` of each lifecycle status. */
const STATUS_OF_LIFECYCLE = { preview: 'beta', active: 'online', deprecated: 'deprecated', retired: 'deprecated' } as const;

type SourceView = NonNullable<ListingDocument['prices']>['source'];
type LifecycleView = NonNullable<ListingDocument['lifecycle']>;

/** Names that pass for another: a word mixing Latin with lookalike letters of another script. */
function checkNames(listing: ListingDocument, report: Report): void {
  const names: Array<[string, string]> = [['name', listing.name], ['nameCn', listing.nameCn], ...listing.aliases.map((alias, i) => [`aliases.${i}`, alias] as [string, string])];
  for (const [field, name] of names) {
    const mixed = mixedScriptWord(name);
    if (mixed) report(field, `${mixed}, which makes it look like another name`);
  }
}

/** Words that do not tell two APIs apart ("Jina" and "Jina AI" are the same listing). */
const GENERIC_WORDS = new Set(['api', 'apis', 'ai', 'the', 'rest', 'platform', 'service', 'services', 'sdk', 'io', 'dev', 'ml', 'tts', 'inc', 'hq']);

/** A name as compared for near-duplicates: as it looks (lookalike letters read as Latin), without generic words. */
export function normalisedName(name: string): string {
  return lookalikeSkeleton(name)
    .split(/[^a-z0-9\u4e00-\u9fff]+/)
    .filter((w) => w && !GENERIC_WORDS.has(w))
    .join('');
}

/** One edit apart, or one a prefix of the other by at most two characters; numbers must agree ("Nova 12" is not "Nova 13"). */
function nearlyEqual(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 4 && long.startsWith(short) && long.length - short.length <= 2) return true;
  if (short.length < 6 || long.length - short.length > 1) return false;
  let edits = 0;
  for (let i = 0, j = 0; i < short.length || j < long.length; ) {
    if (short[i] === long[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (short.length === long.length) {
      i++;
      j++;
    } else j++;
  }
  return true;
}

/**
 * No two listings with nearly the same name: each listing being checked against the others checked and
 * against those the directory holds. Names are compared only with names holding the same numbers (names
 * that differ by a number are different products), which keeps a catalog of numbered names linear.
 */
function checkNearDuplicateNames(listings: LoadedListing[], others: ListingDocument[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const byNumbers = new Map<string, Array<{ file: string | null; name: string; key: string }>>();
  const entries = [...others.map((listing) => ({ file: null, name: listing.name })), ...listings.map(({ file, listing }) => ({ file, name: listing.name }))];
  for (const { file, name } of entries) {
    const key = normalisedName(name);
    if (!key) continue;
    const numbers = key.replace(/[^0-9]+/g, ' ').trim();
    const group = byNumbers.get(numbers) ?? [];
    // Each file's listing is compared with every name before it: the directory's first, then earlier files'.
    if (file !== null) {
      const same = group.find((other) => nearlyEqual(other.key, key));
      if (same) {
        const where = same.file ? `(${same.file})` : '(already in the directory)';
        problems.push({ file, field: 'name', reason: `'${name}' is nearly the same as '${same.name}' ${where}; merge them into one listing` });
      }
    }
    group.push({ file, name, key });
    byNumbers.set(numbers, group);
  }
  return problems;
}

/** Snippets checked by one `bash -n`, each inside a function of its own (parsed, never run). */
const BASH_BATCH = 200;

/** Code examples must parse: bash with `bash -n`, python with the python3 compiler (one process for all). */
function checkSyntax(listings: LoadedListing[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const bash: Array<{ file: string; field: string; code: string }> = [];
  const python: Array<{ file: string; field: string; code: string }> = [];
  for (const { file, listing } of listings) {
    listing.codeExamples.forEach((example, i) => {
      const item = { file, field: `codeExamples.${i}`, code: example.code };
      if (example.language === 'bash') bash.push(item);
      else if (example.language === 'python') python.push(item);
    });
  }
  for (let start = 0; start < bash.length; start += BASH_BATCH) {
    const batch = bash.slice(start, start + BASH_BATCH);
    // The usual case: the whole batch parses. Otherwise each of its snippets is parsed alone, to name it.
    if (bashSyntaxError(batch.map((b, i) => `__example_${i}() {\n${b.code}\n}\n`).join('')) === null) continue;
    for (const { file, field, code } of batch) {
      const error = bashSyntaxError(code);
      if (error !== null) problems.push({ file, field, reason: `bash syntax error: ${error}` });
    }
  }
  if (python.length === 0) return problems;
  const script =
    'import ast, json, sys\n' +
    'for i, code in enumerate(json.load(sys.stdin)):\n' +
    '    try:\n        ast.parse(code)\n' +
    '    except SyntaxError as e:\n        print(json.dumps([i, f"line {e.lineno}: {e.msg}"]))\n';
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(python.map((p) => p.code)), encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    problems.push({ file: '(content check)', field: 'codeExamples', reason: `python3 is needed to check python examples: ${run.error?.message ?? run.stderr}` });
    return problems;
  }
  for (const line of run.stdout.trim().split('\n').filter(Boolean)) {
    const [i, message] = JSON.parse(line) as [number, string];
    problems.push({ file: python[i].file, field: python[i].field, reason: `python syntax error: ${message}` });
  }
  return problems;
}

/** The first syntax error `bash -n` (parse only) finds in a script, or null. */
function bashSyntaxError(script: string): string | null {
  const run = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
  if (run.error) return `bash is needed to check bash examples: ${run.error.message}`;
  return run.status === 0 ? null : run.stderr.trim().split('\n')[0];
}

/** Languages of the SDK names editors write in `sdks` ("Node.js", ".NET", "Python (boto3)", "iOS"...). */
const SDK_NAME_LANGUAGES: Array<[RegExp, SdkLanguage]> = [
  [/^python\b/i, 'python'],
  [/^(?:node(?:\.js)?|javascript|react native)\b/i, 'javascript'],
  [/^typescript\b/i, 'typescript'],
  [/^java$/i, 'java'],
  [/^(?:kotlin|android)\b/i, 'kotlin'],
  [/^go(?:lang)?\b/i, 'go'],
  [/^(?:\.net|c#)(?:\s|$)/i, 'csharp'],
  [/^ruby\b/i, 'ruby'],
  [/^php\b/i, 'php'],
  [/^rust\b/i, 'rust'],
  [/^(?:swift|ios)\b/i, 'swift'],
  [/^objective-c\b/i, 'objective-c'],
  [/^(?:dart|flutter)\b/i, 'dart'],
  [/^c\+\+(?:\s|$)/i, 'cpp'],
  [/^elixir\b/i, 'elixir'],
  [/^cli\b/i, 'cli'],
  [/^curl$/i, 'curl'],
];

/** The normalised language of an SDK name as written in `sdks`, or undefined when it names none we know. */
export function sdkLanguageOf(sdk: string): SdkLanguage | undefined {
  return SDK_NAME_LANGUAGES.find(([pattern]) => pattern.test(sdk.trim()))?.[1];
}

/** The facts agents filter on must agree with the prose fields they summarise. */
function checkFacts(listing: ListingDocument, report: Report): void {
  if (listing.maxTokens === null && listing.contextTokens !== null) report('contextTokens', 'must be null when maxTokens is null (the API has no context window)');
  if (listing.maxTokens !== null && listing.contextTokens === null) report('contextTokens', `must give the largest context in tokens (maxTokens says '${listing.maxTokens}')`);
  // A fact left out (null, not stated) has nothing a source could confirm: a source there says the fact is known.
  // (A null context says the API has none, which a page may well state.)
  for (const fact of DECISION_FACTS.filter((f) => f !== 'contextTokens')) {
    if (stated(listing, fact) === null && listing.sources?.[fact]) {
      report(`sources.${fact}`, `gives a source for a fact the listing does not state (${DECISION_FACT_FIELDS[fact]} is null): state the fact, or drop its source`);
    }
  }
  const derived = new Set<SdkLanguage>();
  listing.sdks.forEach((sdk, i) => {
    const language = sdkLanguageOf(sdk);
    if (!language) report(`sdks.${i}`, `'${sdk}' names no known SDK language; write it as one of the names documented in fixtures/README.md`);
    else derived.add(language);
  });
  for (const language of derived) {
    if (!listing.sdkLanguages.includes(language)) report('sdkLanguages', `lacks '${language}', a language of sdks`);
  }
  listing.sdkLanguages.forEach((language, i) => {
    if (!derived.has(language)) report(`sdkLanguages.${i}`, `'${language}' is not the language of any item of sdks`);
  });
}

/**
 * Aliases are how agents find a listing by the names people use, so each must lead to one listing: no alias
 * may be another listing's name (English or Chinese), slug or alias, compared ignoring case, spaces and
 * punctuation ("DALL·E" is "dall-e"), nor repeat its own listing's name or slug.
 */
function checkAliases(listings: LoadedListing[], others: ListingDocument[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const IN_DIRECTORY = 'a listing already in the directory';
  const all = [...others.map((listing) => ({ file: null as string | null, listing })), ...listings];
  /** Keys of every listing's names and slug, to the files that own them (null: a listing of the directory). */
  const names = new Map<string, Array<{ file: string | null; slug: string }>>();
  for (const { file, listing } of all) {
    for (const key of new Set([aliasKey(listing.name), aliasKey(listing.nameCn), aliasKey(listing.slug)])) {
      if (key) names.set(key, [...(names.get(key) ?? []), { file, slug: listing.slug }]);
    }
  }
  const aliases = new Map<string, { file: string | null; slug: string; alias: string }>();
  for (const { file, listing } of all) {
    listing.aliases.forEach((alias, i) => {
      const key = aliasKey(alias);
      const field = `aliases.${i}`;
      const owner = (names.get(key) ?? []).find((other) => other.slug !== listing.slug);
      const other = aliases.get(key);
      if (!other) aliases.set(key, { file, slug: listing.slug, alias });
      // A listing of the directory is not checked again: only the files being checked are.
      if (file === null) return;
      if ([listing.name, listing.nameCn, listing.slug].some((name) => aliasKey(name) === key)) {
        problems.push({ file, field, reason: `'${alias}' repeats the listing's own name or slug` });
      } else if (owner) {
        problems.push({ file, field, reason: `'${alias}' is the name or slug of another listing (${owner.file ?? `${owner.slug}, ${IN_DIRECTORY}`})` });
      } else if (other && other.slug !== listing.slug) {
        problems.push({ file, field, reason: `'${alias}' is also an alias of another listing ('${other.alias}' in ${other.file ?? `${other.slug}, ${IN_DIRECTORY}`})` });
      }
    });
  }
  return problems;
}

export { STALE_AFTER_DAYS };

/**
 * Warnings, not problems: listings whose `lastUpdated` is more than STALE_AFTER_DAYS before `today`. Time
 * passing must never make the check fail, so these only tell editors what to re-check first.
 */
export function staleListings(listings: LoadedListing[], today: Date, days = STALE_AFTER_DAYS): ContentProblem[] {
  const limit = today.getTime() - days * 86_400_000;
  const old = (day: string) => new Date(`${day}T00:00:00Z`).getTime() < limit;
  const warnings: ContentProblem[] = [];
  for (const { file, listing } of listings) {
    if (!old(listing.lastUpdated)) continue;
    warnings.push({ file, field: 'lastUpdated', reason: `older than ${days} days (${listing.lastUpdated}); re-check its facts` });
    // Each sourced fact whose check is that old, so the editor knows which pages to open again.
    for (const [field, source] of sourcesOf(listing)) {
      if (old(source.checked)) warnings.push({ file, field, reason: `checked ${source.checked}, more than ${days} days ago; re-check it at ${source.url}` });
    }
  }
  return warnings;
}

/**
 * The listings that give no source for some of the facts every listing has (auth, free tier, OpenAI
 * compatibility), or for a context window that none of their models gives, each with those facts: the
 * content still to check against the providers' pages. Reported, not refused, until every fact is
 * sourced; then they become required like any field.
 */
export function unsourcedFacts(listings: LoadedListing[]): Array<{ slug: string; facts: string[] }> {
  return listings
    .map(({ listing }) => ({ slug: listing.slug, facts: unconfirmedFacts(listing) }))
    .filter(({ facts }) => facts.length > 0)
    .sort((a, b) => (a.slug < b.slug ? -1 : 1));
}

/** Every source of a listing's facts as data, by the field that holds it. */
function sourcesOf(listing: ListingDocument): Array<[string, SourceView]> {
  const found: Array<[string, SourceView | null | undefined]> = [
    ['lifecycle.source', listing.lifecycle?.source],
    ['prices.source', listing.prices?.source],
    ['rateLimits.source', listing.rateLimits?.source],
    ...Object.entries(listing.sources ?? {}).map(([fact, source]) => [`sources.${fact}`, source] as [string, SourceView | null]),
    ...(listing.models ?? []).flatMap((model, i) => [[`models.${i}.source`, model.source], [`models.${i}.lifecycle.source`, model.lifecycle.source]] as Array<[string, SourceView | null]>),
  ];
  return found.filter((entry): entry is [string, SourceView] => Boolean(entry[1]));
}
