import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { TargetKind, TargetState } from '../liveness.schema';
import { hostAllowed } from '../../catalog/content/content-rules';
import { urlCredential } from '../../catalog/content/text-rules';
import type { Observation, Target } from '../rules/liveness-rules';
import { AddressPolicy } from './address-policy';
import type { HostGate } from './host-gate';

/** Redirects followed at most (on the listing's domains); one more is `unreachable`. */
export const MAX_REDIRECTS = 5;
/** Bytes of a body read at most: enough to tell an HTML page from an API answer. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Host name -> the addresses it resolves to (a test's stand-in for DNS). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

export interface ProbeSettings {
  userAgent: string;
  /** The TCP and TLS connection must be up within this. */
  connectTimeoutMs: number;
  /** The whole probe of one target (redirects and reading the body included) within this. */
  totalTimeoutMs: number;
  policy: AddressPolicy;
  resolve: Resolve;
  /** Extra certificate authorities to trust beside the system's (PEM; tests only). */
  ca?: string[];
  /** One request at a time per host, spaced (the prober gives one per pass). */
  gate?: HostGate;
}


/** The resolver of the system (getaddrinfo), every address of the name. */
export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** A fixed table of names (`name=address`): only those resolve, nothing is asked of DNS. For tests. */
export function tableResolve(table: ReadonlyMap<string, string>): Resolve {
  return async (host) => {
    const address = table.get(host.toLowerCase());
    if (!address) throw Object.assign(new Error(`${host} is not in the table`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

/** Whether the prober may fetch a URL of a listing: https, no credential in it, on the listing's domains (the content rules). */
export function mayFetch(url: string, domains: string[]): string | null {
  if (!url.startsWith('https://')) return 'not https';
  if (urlCredential(url)) return 'carries a credential';
  if (!hostAllowed(url, domains)) return "off the listing's domains";
  return null;
}

/** Targets that answer with a body for a program: an HTML page there is the wrong shape. */
const MACHINE_TARGETS: ReadonlySet<TargetKind> = new Set(['endpoint', 'openapi']);

class RefusedAddress extends Error {
  readonly code = 'LIVENESS_REFUSED_ADDRESS';
}
class Timeout extends Error {
  readonly code = 'LIVENESS_TIMEOUT';
}

/**
 * Probes one target: a GET without credentials (no cookie, no key, no Authorization; endpoints carry no
 * method in the listings, and a GET says the most of them), following redirects that stay on the
 * listing's domains up to MAX_REDIRECTS, reading at most MAX_BODY_BYTES, within the timeouts. Every
 * address a name resolves to is checked (see AddressPolicy) before a connection is made, on the first
 * request and on every redirect; the connection goes to the address checked, never to one resolved again.
 */
export async function probeTarget(target: Target, domains: string[], settings: ProbeSettings, now: () => Date): Promise<Observation> {
  const checkedAt = now().toISOString();
  const started = performance.now();
  const done = (state: TargetState, httpStatus: number | null, detail: string | null, sent = true): Observation => ({
    ...target,
    state,
    httpStatus,
    timeMs: sent ? Math.round(performance.now() - started) : null,
    checkedAt,
    detail,
  });
  const refusal = mayFetch(target.url, domains);
  if (refusal) return done('refused', null, refusal, false);
  const deadline = Date.now() + settings.totalTimeoutMs;
  let url = new URL(target.url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let answer: { response: IncomingMessage; head: Buffer };
    const release = settings.gate ? await settings.gate.take(url.host) : () => undefined;
    try {
      answer = await fetchOnce(url, target.kind, settings, deadline);
    } catch (error) {
      return done(...classifyError(error));
    } finally {
      release();
    }
    const { response, head } = answer;
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return done('ok', status, `redirects to an address that is not a URL`);
      }
      const permanent = status === 301 || status === 308;
      if (mayFetch(next.href, domains)) {
        // Off the listing's domains (or not https): not followed. A permanent move means the listing is out of date.
        return done(permanent ? 'moved' : 'ok', status, `redirects to ${next.origin}${next.pathname}`);
      }
      url = next;
      continue;
    }
    return done(classifyAnswer(status, response, head, target.kind), status, null);
  }
  return done('unreachable', null, `more than ${MAX_REDIRECTS} redirects`);
}

/** The state an answer (not a redirect) means for a target of this kind. */
export function classifyAnswer(status: number, response: Pick<IncomingMessage, 'headers'>, head: Buffer, kind: TargetKind): TargetState {
  if (status === 401 || status === 403) return 'auth-required';
  if (status === 404 || status === 410) return 'not-found';
  if (status >= 500) return 'server-error';
  if (MACHINE_TARGETS.has(kind) && looksLikeHtml(String(response.headers['content-type'] ?? ''), head)) return 'wrong-shape';
  return 'ok';
}

function looksLikeHtml(contentType: string, head: Buffer): boolean {
  if (/^\s*text\/html/i.test(contentType)) return true;
  const start = head.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

/** A state and its detail for a probe that got no answer. */
function classifyError(error: unknown): [TargetState, null, string] {
  const code = String((error as { code?: unknown }).code ?? '');
  if (error instanceof RefusedAddress) return ['refused', null, error.message];
  if (error instanceof Timeout) return ['unreachable', null, error.message];
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return ['dns-failure', null, code];
  if (/^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO|ERR_OSSL|EPROTO$|HOSTNAME_MISMATCH)/.test(code)) return ['tls-error', null, code];
  return ['unreachable', null, code || 'no answer'];
}

/**
 * One request: the name resolved and every address checked first, then a connection to the first address
 * (TLS verified against the name), the status and headers, and the first MAX_BODY_BYTES of the body.
 */
async function fetchOnce(url: URL, kind: TargetKind, settings: ProbeSettings, deadline: number): Promise<{ response: IncomingMessage; head: Buffer }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const remaining = () => deadline - Date.now();
  const addresses = await withTimeout(settings.resolve(host), remaining(), 'the name did not resolve in time');
  if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENODATA' });
  for (const { address } of addresses) {
    const why = settings.policy.refusal(address);
    if (why) throw new RefusedAddress(`${host}: ${why}`);
  }
  const { address, family } = addresses[0];
  return new Promise((resolve, reject) => {
    const req = request(
      {
        protocol: 'https:',
        hostname: host,
        port: Number(url.port) || 443,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // The address checked above, and no other: the name is not resolved again between check and connect.
        lookup: ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options.all ? callback(null, [{ address, family }]) : callback(null, address, family)) as unknown as LookupFunction,
        agent: false,
        ca: settings.ca && settings.ca.length > 0 ? [...defaultCas(), ...settings.ca] : undefined,
        headers: {
          'user-agent': settings.userAgent,
          accept: MACHINE_TARGETS.has(kind) ? 'application/json, application/yaml;q=0.9, */*;q=0.5' : 'text/html, */*;q=0.5',
          'accept-encoding': 'identity',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          clearTimeout(total);
          req.destroy();
          resolve({ response, head: Buffer.concat(chunks) });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_BODY_BYTES) finish();
        });
        response.on('end', finish);
        response.on('error', finish);
      },
    );
    const total = setTimeout(() => req.destroy(new Timeout(`no complete answer within ${settings.totalTimeoutMs} ms`)), Math.max(0, remaining()));
    const connect = setTimeout(() => req.destroy(new Timeout(`no connection within ${settings.connectTimeoutMs} ms`)), Math.min(settings.connectTimeoutMs, Math.max(0, remaining())));
    req.on('socket', (socket) => socket.once('secureConnect', () => clearTimeout(connect)));
    req.on('error', (error) => {
      clearTimeout(total);
      clearTimeout(connect);
      reject(error);
    });
    req.on('response', () => clearTimeout(connect));
    req.end();
  });
}

/** Node's own authorities, which a `ca` option would otherwise replace. */
function defaultCas(): readonly string[] {
  return rootCertificates;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Timeout(message)), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
