import { ANSWERING_STATES, Liveness, LivenessState, LivenessTarget, TargetKind, TargetState } from '../liveness.schema';
import type { ListingDocument } from '../../listings/write/listing.document';

/**
 * The rules of liveness, pure (no I/O, no clock): what a listing's targets are, how their states roll up,
 * and when an observation is published (see decideLiveness).
 */

/** One thing a listing points at. */
export interface Target {
  kind: TargetKind;
  url: string;
}

/** What one probe of one target found. */
export interface Observation extends Target {
  state: TargetState;
  httpStatus: number | null;
  timeMs: number | null;
  checkedAt: string;
  /** Why, in a few words (the redirect's location, the refused address, the error code); for the census and logs. */
  detail: string | null;
}

/** The targets of a listing, in a fixed order: website, docs, endpoints, the API description, the status page. */
export function targetsOf(listing: Pick<ListingDocument, 'website' | 'docsUrl' | 'endpoints' | 'openapiUrl' | 'statusPageUrl'>): Target[] {
  const targets: Target[] = [
    { kind: 'website', url: listing.website },
    { kind: 'docs', url: listing.docsUrl },
    // An endpoint with {placeholders} cannot be called without their values: a request would say nothing of it.
    ...listing.endpoints.filter((url) => !/[{}]/.test(url)).map((url) => ({ kind: 'endpoint' as const, url })),
  ];
  if (listing.openapiUrl) targets.push({ kind: 'openapi', url: listing.openapiUrl });
  if (listing.statusPageUrl) targets.push({ kind: 'status-page', url: listing.statusPageUrl });
  const seen = new Set<string>();
  return targets.filter((target) => !seen.has(keyOf(target)) && seen.add(keyOf(target)));
}

export function keyOf(target: Target): string {
  return `${target.kind} ${target.url}`;
}

export function answers(state: TargetState): boolean {
  return ANSWERING_STATES.includes(state);
}

/** A listing's state from its targets': down when no endpoint answers (no target, without endpoints), degraded when some target does not, else ok. */
export function rollUp(targets: ReadonlyArray<Pick<LivenessTarget, 'kind' | 'state'>>): LivenessState {
  const endpoints = targets.filter((target) => target.kind === 'endpoint');
  const core = endpoints.length > 0 ? endpoints : targets;
  if (core.every((target) => !answers(target.state))) return 'down';
  return targets.every((target) => answers(target.state)) ? 'ok' : 'degraded';
}

/** What the prober remembers of a listing between passes (never published). */
export interface ProbeMemory {
  /** Target key -> when the failure going on was first seen (kept while it is published, for failingSince). */
  failingSince: Record<string, string>;
  /** The last probe that found every target answering. */
  lastOk: string | null;
}

export const EMPTY_MEMORY: ProbeMemory = { failingSince: {}, lastOk: null };

export interface LivenessDecision {
  /** The liveness to publish, or null when nothing changed (no event). */
  publish: Liveness | null;
  memory: ProbeMemory;
}

/**
 * What one pass's observations of a listing change in what is published. A target that answers is
 * published at once (a recovery shows at once); a failure only once two probes at least `confirmMs`
 * apart have seen it (the first is remembered, not published). A target already published as failing
 * takes each new failing state at once. Nothing is published when no target's state changed: a new
 * time or status alone is no change.
 */
export function decideLiveness(published: Liveness | null, observations: Observation[], memory: ProbeMemory, now: string, confirmMs: number): LivenessDecision {
  const before = new Map((published?.targets ?? []).map((target) => [keyOf(target), target]));
  const failingSince: Record<string, string> = {};
  const targets: LivenessTarget[] = [];
  for (const observation of observations) {
    const key = keyOf(observation);
    const shown = before.get(key);
    if (answers(observation.state)) {
      targets.push(published_(observation));
      continue;
    }
    const since = memory.failingSince[key] ?? observation.checkedAt;
    failingSince[key] = since;
    const confirmed = (shown !== undefined && !answers(shown.state)) || (memory.failingSince[key] !== undefined && Date.parse(observation.checkedAt) - Date.parse(since) >= confirmMs);
    if (confirmed) targets.push(published_(observation));
    else if (shown) targets.push(shown);
  }
  const lastOk = observations.length > 0 && observations.every((o) => answers(o.state)) ? now : memory.lastOk;
  const next = { failingSince, lastOk };
  if (targets.length === 0) return { publish: null, memory: next };
  const state = rollUp(targets);
  const changed =
    published === null ||
    published.state !== state ||
    published.targets.length !== targets.length ||
    targets.some((target, i) => keyOf(published.targets[i]) !== keyOf(target) || published.targets[i].state !== target.state);
  if (!changed) return { publish: null, memory: next };
  const failing = targets.filter((target) => !answers(target.state)).map((target) => failingSince[keyOf(target)]).filter(Boolean).sort();
  return {
    publish: { state, checkedAt: now, lastOk, failingSince: state === 'ok' ? null : (failing[0] ?? now), targets },
    memory: next,
  };
}

function published_({ kind, url, state, httpStatus, timeMs, checkedAt }: Observation): LivenessTarget {
  return { kind, url, state, httpStatus, timeMs, checkedAt };
}
