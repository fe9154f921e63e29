import type { Liveness } from '../liveness.schema';
import { decideLiveness, EMPTY_MEMORY, Observation, ProbeMemory, rollUp, targetsOf } from './liveness-rules';

const CONFIRM = 600_000;
const t = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 10, minutes)).toISOString();
const seen = (state: Observation['state'], at: string, kind: Observation['kind'] = 'endpoint', url = 'https://api.example.com/v1'): Observation => ({
  kind,
  url,
  state,
  httpStatus: state === 'ok' ? 200 : state === 'server-error' ? 503 : null,
  timeMs: 12,
  checkedAt: at,
  detail: null,
});
const website = (at: string) => seen('ok', at, 'website', 'https://example.com');

/** Runs passes in order, each a list of observations at a minute, and returns what each published. */
function passes(...rounds: Array<[number, Array<Observation['state']>]>): Array<Liveness | null> {
  let published: Liveness | null = null;
  let memory: ProbeMemory = EMPTY_MEMORY;
  return rounds.map(([minute, states]) => {
    const at = t(minute);
    const decision = decideLiveness(published, [website(at), ...states.map((state, i) => seen(state, at, 'endpoint', `https://api.example.com/v${i}`))], memory, at, CONFIRM);
    memory = decision.memory;
    if (decision.publish) published = decision.publish;
    return decision.publish;
  });
}

describe('publishing liveness', () => {
  it('publishes what answers at once, a failure seen once not at all', () => {
    const [first] = passes([0, ['server-error']]);
    expect(first!.targets.map((target) => target.kind)).toEqual(['website']);
    expect(first!.state).toBe('ok');
  });

  it('does not publish a failure seen twice less than the set time apart, and publishes it once two probes that far apart saw it', () => {
    const [, tooSoon, confirmed] = passes([0, ['server-error']], [9, ['server-error']], [10, ['server-error']]);
    expect(tooSoon).toBeNull();
    expect(confirmed!.state).toBe('down');
    expect(confirmed!.targets.map((target) => target.state)).toEqual(['ok', 'server-error']);
    expect(confirmed!.failingSince).toBe(t(0));
    expect(confirmed!.checkedAt).toBe(t(10));
  });

  it('needs two probes even when the set time is zero', () => {
    let memory = EMPTY_MEMORY;
    const first = decideLiveness(null, [seen('unreachable', t(0))], memory, t(0), 0);
    expect(first.publish).toBeNull();
    memory = first.memory;
    expect(decideLiveness(null, [seen('unreachable', t(0))], memory, t(0), 0).publish!.state).toBe('down');
  });

  it('publishes a recovery at once, and nothing when nothing changed', () => {
    const [, down, same, recovered, again] = passes([0, ['server-error']], [10, ['server-error']], [20, ['server-error']], [21, ['ok']], [22, ['ok']]);
    expect(down!.state).toBe('down');
    expect(same).toBeNull();
    expect(recovered!.state).toBe('ok');
    expect(recovered!.failingSince).toBeNull();
    expect(recovered!.lastOk).toBe(t(21));
    expect(again).toBeNull();
  });

  it('takes a new failing state of a target already published as failing at once', () => {
    const [, , changed] = passes([0, ['server-error']], [10, ['server-error']], [11, ['tls-error']]);
    expect(changed!.targets[1].state).toBe('tls-error');
    expect(changed!.failingSince).toBe(t(0));
  });

  it('forgets a failure that answered before it was confirmed', () => {
    const [, , third] = passes([0, ['server-error']], [5, ['ok']], [10, ['server-error']]);
    expect(third).toBeNull();
  });

  it('counts a 401 without a key as answering', () => {
    const [first] = passes([0, ['auth-required']]);
    expect(first!.state).toBe('ok');
  });
});

describe('rolling targets up', () => {
  it('is down when no endpoint answers, degraded when some target does not, ok otherwise', () => {
    expect(rollUp([{ kind: 'website', state: 'ok' }, { kind: 'endpoint', state: 'unreachable' }])).toBe('down');
    expect(rollUp([{ kind: 'website', state: 'moved' }, { kind: 'endpoint', state: 'auth-required' }])).toBe('degraded');
    expect(rollUp([{ kind: 'endpoint', state: 'ok' }, { kind: 'endpoint', state: 'server-error' }])).toBe('degraded');
    expect(rollUp([{ kind: 'website', state: 'ok' }, { kind: 'endpoint', state: 'auth-required' }])).toBe('ok');
    // Without endpoints: down when no target answers.
    expect(rollUp([{ kind: 'website', state: 'dns-failure' }, { kind: 'docs', state: 'dns-failure' }])).toBe('down');
    expect(rollUp([{ kind: 'website', state: 'ok' }, { kind: 'docs', state: 'not-found' }])).toBe('degraded');
  });
});

describe('the targets of a listing', () => {
  it('are the website, docs, endpoints without placeholders, the API description and the status page, each once', () => {
    const targets = targetsOf({
      website: 'https://example.com',
      docsUrl: 'https://example.com',
      endpoints: ['https://api.example.com/v1/chat', 'https://api.example.com/v1/items/{id}', 'https://{region}.example.com/v1'],
      openapiUrl: 'https://example.com/openapi.json',
      statusPageUrl: null,
    });
    expect(targets).toEqual([
      { kind: 'website', url: 'https://example.com' },
      { kind: 'docs', url: 'https://example.com' },
      { kind: 'endpoint', url: 'https://api.example.com/v1/chat' },
      { kind: 'openapi', url: 'https://example.com/openapi.json' },
    ]);
  });
});
