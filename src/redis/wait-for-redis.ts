import { Redis } from 'ioredis';
import { connect } from 'node:net';
import { RedisFailure, redisFailureOf } from './redis-errors';
import { redactUrl, type AppConfig } from '../config/app-config';
import { connectionOptions } from './create-client';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long one look at Redis may take (connecting, then PING). */
const ATTEMPT_MS = 2000;
/** Pauses between looks: from a quarter of a second, doubling, to 5 s. */
const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5000;
/** While Redis stays in one state, the wait says so again this often. */
const REMIND_MS = 30_000;

/** A start-up failure waiting cannot mend (credentials, TLS): one line that says what to change. */
export class RedisStartupError extends Error {}

/** What one look at Redis found. */
type Look =
  | { state: 'ready' }
  | { state: 'refused' | 'silent' | 'loading' | 'closed' | 'unknown-host' | 'other'; detail: string }
  | { state: 'fatal'; detail: string };

export interface WaitOptions {
  /** Where the wait says what it waits for (a line at a time). */
  log: (line: string) => void;
  /**
   * Which states are worth waiting out. The service waits for all (Redis may start after it, be
   * restarting or loading its data); the command line only for a Redis that is there and loading, and
   * reports the rest at once.
   */
  waitFor: 'anything' | 'loading';
}

/**
 * Waits until the configured Redis answers PING as the service will talk to it (its URL's credentials,
 * TLS with REDIS_TLS_CA), saying what it waits for and backing off; throws RedisStartupError, one line,
 * at what waiting cannot mend. A Redis Cluster is left to the client (it finds its nodes itself).
 */
export async function waitForRedis(config: AppConfig, { log, waitFor }: WaitOptions): Promise<void> {
  if (config.redisClusterNodes.length > 0) return;
  const where = `Redis at ${redactUrl(config.redisUrl)}`;
  let pause = FIRST_PAUSE_MS;
  let said = '';
  let saidAt = 0;
  const started = Date.now();
  for (;;) {
    const look = await lookAt(config);
    if (look.state === 'ready') {
      if (said) log(`${where} answers: going on`);
      return;
    }
    if (look.state === 'fatal') throw new RedisStartupError(`${where}: ${look.detail}`);
    if (waitFor === 'loading' && look.state !== 'loading') return;
    const line = `${where} ${look.detail}`;
    if (line !== said || Date.now() - saidAt >= REMIND_MS) {
      const waited = Math.round((Date.now() - started) / 1000);
      log(`${line}; waiting for it${waited > 0 ? ` (${waited} s so far)` : ''}, trying again with a growing pause`);
      said = line;
      saidAt = Date.now();
    }
    await sleep(pause);
    pause = Math.min(LONGEST_PAUSE_MS, pause * 2);
  }
}

/** Connects once, as the service does, and sends PING. */
async function lookAt(config: AppConfig): Promise<Look> {
  const client = new Redis(config.redisUrl, {
    ...connectionOptions(config),
    lazyConnect: true,
    // PING must meet a loading Redis (the ready check would wait for it without a word), and fail, not retry.
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: ATTEMPT_MS,
  });
  // The cause of a failed connection comes as an 'error' event; the promise only says it closed.
  let cause: unknown = null;
  client.on('error', (error) => (cause ??= error));
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new SilentError()), ATTEMPT_MS)));
  try {
    await Promise.race([client.connect().then(() => client.ping()), silence]);
    return { state: 'ready' };
  } catch (error) {
    // A TLS handshake with a plain Redis port never ends (Redis waits for the end of a command line that
    // never comes): ask the port in plain text, and say so if plain Redis answers.
    if (error instanceof SilentError && config.redisUrl.startsWith('rediss:') && (await speaksPlainRedis(config.redisUrl))) {
      return { state: 'fatal', detail: 'speaks plain Redis there, not TLS: use redis:// for this port, or rediss:// with its TLS port' };
    }
    return classify(error instanceof SilentError ? error : (cause ?? error));
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

class SilentError extends Error {}

/** Whether the host and port of `url` answer a plain-text PING as Redis does (+PONG, or an error such as -NOAUTH). */
function speaksPlainRedis(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    const done = (plain: boolean) => {
      socket.destroy();
      resolve(plain);
    };
    socket.setTimeout(ATTEMPT_MS, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(/^[+-][A-Za-z]/.test(data.toString('latin1'))));
  });
}

/** TLS verification failures: the certificate Redis shows is not one this process trusts. */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** What each failure means while waiting for Redis to start, and whether waiting longer can help. */
const ADVICE: Record<RedisFailure, Look> = {
  loading: { state: 'loading', detail: 'is loading its data into memory' },
  'password-needed': { state: 'fatal', detail: 'asks for a password: put it in REDIS_URL (redis://:password@host:port, or redis://user:password@host:port for an ACL user)' },
  credentials: { state: 'fatal', detail: 'refused the user or password of REDIS_URL' },
  permission: { state: 'fatal', detail: 'the user of REDIS_URL may not run the commands the directory needs (PING, to begin with)' },
  refused: { state: 'refused', detail: 'refuses connections (nothing listens there yet)' },
  'unknown-host': { state: 'unknown-host', detail: 'has a host name that is not known (yet)' },
  closed: { state: 'closed', detail: 'closed the connection (restarting? if it takes TLS only, use rediss://)' },
  reset: { state: 'closed', detail: 'closed the connection (restarting? if it takes TLS only, use rediss://)' },
  'timed-out': { state: 'silent', detail: 'does not accept connections in time' },
  'no-answer': { state: 'silent', detail: 'takes connections but does not answer (stopped, overloaded, or not speaking the protocol of REDIS_URL)' },
  'not-sent': { state: 'closed', detail: 'closed the connection (restarting? if it takes TLS only, use rediss://)' },
  'cluster-down': { state: 'loading', detail: 'is a cluster that cannot serve its keys yet' },
};

function classify(error: unknown): Look {
  if (error instanceof SilentError) return ADVICE['no-answer'];
  const code = (error as NodeJS.ErrnoException)?.code ?? '';
  if (UNTRUSTED.has(code)) return { state: 'fatal', detail: `its TLS certificate is not trusted (${code.toLowerCase().replaceAll('_', ' ')}): set REDIS_TLS_CA to the PEM file of the authority that signed it` };
  if (code === 'EPROTO' || code.startsWith('ERR_SSL')) return { state: 'fatal', detail: 'does not speak TLS there: use redis:// for a plain port, or its TLS port' };
  const failure = redisFailureOf(error);
  if (failure) return ADVICE[failure];
  return { state: 'other', detail: `cannot be used: ${((error as Error)?.message ?? String(error)).split('\n')[0]}` };
}
