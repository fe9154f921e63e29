import { Injectable, Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { AppConfig, LivenessSettings } from '../../config/app-config';
import { LIVE_FILTER_VALUES, LiveFilterValue, Liveness, TARGET_STATES, TargetState } from '../liveness.schema';
import { valuesOf } from '../../event-store/document-aggregate';
import { ConcurrencyConflictError, NewEvent } from '../../event-store/event-envelope';
import { EventStore } from '../../event-store/event-store.service';
import { LISTING_AGGREGATE, listingAggregate } from '../../listings/write/listing.aggregate';
import type { ListingDocument } from '../../listings/write/listing.document';
import { RedisConnection } from '../../redis/redis-connection';
import { AddressPolicy } from './address-policy';
import { LIVENESS_AGGREGATE, LIVENESS_CHANGED, LIVENESS_PUBLISHED, livenessAggregate } from '../rules/liveness.aggregate';
import { decideLiveness, EMPTY_MEMORY, Observation, ProbeMemory, Target, targetsOf } from '../rules/liveness-rules';
import { HostGate } from './host-gate';
import { probeTarget, ProbeSettings, systemResolve, tableResolve } from './probe-target';

/** Who the directory's probes say they are. */
export const PROBER_NAME = 'api-directory-liveness/1.0';

/** What a pass found, for the census table and the logs. */
export interface Census {
  startedAt: string;
  tookMs: number;
  listings: number;
  targets: number;
  /** Listings by published state after the pass (unchecked: nothing published yet). */
  listingStates: Record<LiveFilterValue, number>;
  /** Targets by what this pass saw (published or not yet). */
  targetStates: Record<TargetState, number>;
  /** Liveness events written (changes published). */
  events: number;
  /** Listings whose published state is not ok, or with a failure seen but not yet published. */
  failing: Array<{ slug: string; state: LiveFilterValue; failures: Observation[]; pending: boolean }>;
}

/** The actor of the prober's events. */
const ACTOR = 'prober';

/**
 * One pass of the prober: probes every target of every listing (not retired ones), decides what changes
 * in what is published (see decideLiveness), and appends a liveness event for each listing whose state
 * changed, to the same event store as the listings (the projector, search and change feed take it from
 * there). Hosts are probed in parallel up to LIVENESS_CONCURRENCY, each one request at a time with
 * LIVENESS_HOST_SPACING_MS between them (see HostGate).
 *
 * The clock can be given (tests): the hysteresis compares the times of probes, never waits.
 */
@Injectable()
export class LivenessProber {
  private readonly logger = new Logger(LivenessProber.name);
  private readonly settings: LivenessSettings;
  private readonly probe: ProbeSettings;
  now: () => Date = () => new Date();

  constructor(
    private readonly store: EventStore,
    private readonly redis: RedisConnection,
    config: AppConfig,
  ) {
    this.settings = config.liveness;
    const s = this.settings;
    this.probe = {
      userAgent: `${PROBER_NAME} (+${s.contactUrl ?? 'no contact configured'})`,
      connectTimeoutMs: s.connectTimeoutMs,
      totalTimeoutMs: s.timeoutMs,
      policy: new AddressPolicy(s.allowAddresses),
      resolve: s.hosts.size > 0 ? tableResolve(s.hosts) : systemResolve,
      ca: s.ca ? [readFileSync(s.ca, 'utf8')] : undefined,
    };
  }

  /** The User-Agent every probe sends. */
  get userAgent(): string {
    return this.probe.userAgent;
  }

  /** Probes everything once; returns the census. */
  async pass(): Promise<Census> {
    const startedAt = this.now().toISOString();
    const started = performance.now();
    const listings = await this.listings();
    const observed = await this.observe(listings);
    const slugs = listings.map((listing) => listing.slug);
    const [published, versions, memories] = await Promise.all([
      this.store.documentsAt(livenessAggregate, slugs, '+'),
      this.store.versionsByType().then((byType) => byType.get(LIVENESS_AGGREGATE) ?? new Map<string, number>()),
      this.memories(slugs),
    ]);
    const census: Census = {
      startedAt,
      tookMs: 0,
      listings: listings.length,
      targets: 0,
      listingStates: Object.fromEntries(LIVE_FILTER_VALUES.map((state) => [state, 0])) as Census['listingStates'],
      targetStates: Object.fromEntries(TARGET_STATES.map((state) => [state, 0])) as Census['targetStates'],
      events: 0,
      failing: [],
    };
    const newMemory: Record<string, string> = {};
    for (const listing of listings) {
      const observations = observed.get(listing.slug) ?? [];
      const before = published.get(listing.slug) ?? null;
      const decision = decideLiveness(before, observations, memories.get(listing.slug) ?? EMPTY_MEMORY, this.now().toISOString(), this.settings.confirmMs);
      if (decision.publish) {
        await this.append(listing.slug, versions.get(listing.slug) ?? 0, before, decision.publish);
        census.events++;
      }
      newMemory[listing.slug] = JSON.stringify(decision.memory);
      const shown = decision.publish ?? before;
      const state: LiveFilterValue = shown?.state ?? 'unchecked';
      census.listingStates[state]++;
      census.targets += observations.length;
      for (const observation of observations) census.targetStates[observation.state]++;
      const failures = observations.filter((o) => o.state !== 'ok' && o.state !== 'auth-required');
      if (state !== 'ok' || failures.length > 0) census.failing.push({ slug: listing.slug, state, failures, pending: failures.some((f) => !shown?.targets.some((t) => t.url === f.url && t.kind === f.kind && t.state === f.state)) });
    }
    census.tookMs = Math.round(performance.now() - started);
    await this.record(newMemory, census);
    return census;
  }

  /** Every published listing that is not retired, by slug. */
  private async listings(): Promise<ListingDocument[]> {
    const slugs = (await this.store.aggregateIds(LISTING_AGGREGATE)).sort();
    const documents = await this.store.documentsAt(listingAggregate, slugs, '+');
    return [...documents.values()].filter((listing): listing is ListingDocument => listing !== null && listing.lifecycle?.status !== 'retired');
  }

  /** Probes every target, one request at a time per host, hosts in parallel up to the concurrency. */
  private async observe(listings: ListingDocument[]): Promise<Map<string, Observation[]>> {
    const byHost = new Map<string, Array<{ slug: string; index: number; target: Target; domains: string[] }>>();
    const results = new Map<string, Observation[]>();
    for (const listing of listings) {
      const targets = targetsOf(listing);
      results.set(listing.slug, new Array<Observation>(targets.length));
      targets.forEach((target, index) => {
        const host = hostOf(target.url);
        if (!byHost.has(host)) byHost.set(host, []);
        byHost.get(host)!.push({ slug: listing.slug, index, target, domains: listing.domains });
      });
    }
    // Each worker takes a host's targets in turn; the gate keeps one request at a time per host, spaced,
    // redirects to another host included.
    const probe = { ...this.probe, gate: new HostGate(this.settings.hostSpacingMs) };
    const queues = [...byHost.values()];
    const worker = async () => {
      for (let queue = queues.shift(); queue; queue = queues.shift()) {
        for (const { slug, index, target, domains } of queue) results.get(slug)![index] = await probeTarget(target, domains, probe, this.now);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, queues.length) }, worker));
    return results;
  }

  private async append(slug: string, version: number, before: Liveness | null, liveness: Liveness): Promise<void> {
    const changedFields = before ? ['state', 'targets'].filter((field) => JSON.stringify(before[field as keyof Liveness]) !== JSON.stringify(liveness[field as keyof Liveness])) : [];
    const event: NewEvent = before
      ? { type: LIVENESS_CHANGED, data: { document: liveness, changedFields, before: valuesOf(before, changedFields) } }
      : { type: LIVENESS_PUBLISHED, data: { document: liveness } };
    try {
      await this.store.append(LIVENESS_AGGREGATE, slug, version, [event], ACTOR);
    } catch (error) {
      // Only one prober runs (the lease); a conflict means another got in all the same: its finding stands.
      if (!(error instanceof ConcurrencyConflictError)) throw error;
      this.logger.warn(`liveness of '${slug}' was changed by another prober meanwhile; left as it is`);
    }
  }

  private async memories(slugs: string[]): Promise<Map<string, ProbeMemory>> {
    const found = new Map<string, ProbeMemory>();
    if (slugs.length === 0) return found;
    const raw = await this.redis.client.hmget(this.redis.keys.livenessMemory, ...slugs);
    slugs.forEach((slug, i) => {
      if (raw[i]) found.set(slug, JSON.parse(raw[i]!) as ProbeMemory);
    });
    return found;
  }

  /** Keeps the working memory (of the listings there are now) and the counts /metrics reads. */
  private async record(memory: Record<string, string>, census: Census): Promise<void> {
    const keys = this.redis.keys;
    const tx = this.redis.client.multi().del(keys.livenessMemory);
    if (Object.keys(memory).length > 0) tx.hset(keys.livenessMemory, memory);
    for (const [state, count] of Object.entries(census.targetStates)) if (count > 0) tx.hincrby(keys.livenessStats, `probes:${state}`, count);
    tx.hset(keys.livenessStats, { lastPassAt: census.startedAt, lastPassMs: String(census.tookMs) });
    const result = await tx.exec();
    const failed = result?.find(([error]) => error);
    if (failed) throw failed[0];
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}
