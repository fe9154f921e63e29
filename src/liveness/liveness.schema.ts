import { z } from 'zod';

/**
 * Liveness: whether what a listing points at still answers, as the prober (src/liveness/prober/) last published
 * it. Defined once here: the views of a listing, GET /api/v1/liveness, the change feed, the OpenAPI
 * document, the MCP output schemas and the pages derive from these objects.
 */

/** What one probe of one target found. */
export const TARGET_STATES = [
  'ok',
  'auth-required',
  'moved',
  'wrong-shape',
  'not-found',
  'tls-error',
  'dns-failure',
  'unreachable',
  'server-error',
  'refused',
] as const;
export type TargetState = (typeof TARGET_STATES)[number];

/** Target states that mean the target answers: a 401 or 403 without a key is an API that is alive. */
export const ANSWERING_STATES: readonly TargetState[] = ['ok', 'auth-required'];

/** What each target state means, as the docs, the OpenAPI document and the pages say it. */
export const TARGET_STATE_MEANINGS: Record<TargetState, string> = {
  ok: 'answered as expected (2xx, or a 4xx other than 401, 403, 404 and 410 from an API endpoint: it answers)',
  'auth-required': 'answered 401 or 403 to a request without credentials: alive',
  moved: 'permanently redirected (301, 308) to a host off the listing\'s domains',
  'wrong-shape': 'answered an HTML page where an API answer or a machine-readable description was expected',
  'not-found': 'answered 404 or 410',
  'tls-error': 'the TLS handshake failed (certificate not trusted, expired, or for another name)',
  'dns-failure': 'the host name does not resolve',
  unreachable: 'the connection was refused, reset or timed out, or the redirects went on past 5',
  'server-error': 'answered 5xx',
  refused: 'not fetched: the URL or an address it resolves to is outside what the prober may reach (not https, off the listing\'s domains, or a loopback, private, link-local or metadata address)',
};

/** What a listing points at, probed one by one. */
export const TARGET_KINDS = ['website', 'docs', 'endpoint', 'openapi', 'status-page'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** A listing's state, rolled up from its targets'. */
export const LIVENESS_STATES = ['ok', 'degraded', 'down'] as const;
export type LivenessState = (typeof LIVENESS_STATES)[number];

/** The values of the `live=` filter: a listing's state, or `unchecked` (never probed, or nothing probed answered yet). */
export const LIVE_FILTER_VALUES = [...LIVENESS_STATES, 'unchecked'] as const;
export type LiveFilterValue = (typeof LIVE_FILTER_VALUES)[number];

const count = z.number().int().min(0);
const moment = z.string().meta({ format: 'date-time' });

export const livenessTargetSchema = z
  .object({
    kind: z.enum(TARGET_KINDS),
    url: z.string().regex(/^https:\/\//).meta({ format: 'uri' }),
    state: z.enum(TARGET_STATES).describe(Object.entries(TARGET_STATE_MEANINGS).map(([state, meaning]) => `${state}: ${meaning}`).join('; ')),
    httpStatus: z.number().int().min(100).max(599).nullable().describe('The HTTP status of the last answer (after redirects on the listing\'s domains); null when none came.'),
    timeMs: z.number().int().min(0).nullable().describe('How long the probe took, in milliseconds; null when it was not sent.'),
    checkedAt: moment.describe('When the probe that found this state ran.'),
  })
  .describe('One target of a listing as its last published probe found it.');

export const livenessSchema = z
  .object({
    state: z.enum(LIVENESS_STATES).describe('ok: every target answers; degraded: some do not; down: no endpoint answers (no target at all when the listing has no endpoint).'),
    checkedAt: moment.describe('When the probe that found this state ran. The prober checks on its schedule and records nothing while nothing changes.'),
    lastOk: moment.nullable().describe('The last probe that found every target answering, as of checkedAt; null when none has.'),
    failingSince: moment.nullable().describe('When the failure now published was first seen; null when the state is ok.'),
    targets: z.array(livenessTargetSchema).describe('Each target probed: website, docs, endpoints (those without {placeholders}), the API description and the status page.'),
  })
  .describe('Whether what the listing points at still answers, as the prober last published it. A failure is published only once two probes at least a set time apart saw it; a recovery at once.');

export type LivenessTarget = z.infer<typeof livenessTargetSchema>;
export type Liveness = z.infer<typeof livenessSchema>;

/** One listing in GET /api/v1/liveness. */
export const livenessEntrySchema = z.object({
  slug: z.string(),
  name: z.string(),
  liveness: livenessSchema.nullable().describe('null: not checked yet.'),
});

export const livenessResponseSchema = z.object({
  success: z.literal(true),
  total: z.number().int().min(0).describe('Listings in that state.'),
  returned: z.number().int().min(0),
  limit: z.number().int(),
  state: z.enum(LIVE_FILTER_VALUES).nullable().describe('The state asked for (null: every listing).'),
  counts: z
    .object({ ok: count, degraded: count, down: count, unchecked: count })
    .describe('Listings in each state, over the whole directory (retired listings left out).'),
  nextCursor: z.string().nullable().describe('Send as `cursor` (with the same other parameters) for the next page; null on the last page.'),
  listings: z.array(livenessEntrySchema),
  _links: z.record(z.string(), z.string()),
});
export type LivenessResponse = z.infer<typeof livenessResponseSchema>;
