import { ReplyError } from 'ioredis';

/**
 * What went wrong talking to Redis, when it was Redis: the one reading of a Redis client error, used by
 * the answers (503), the editors' messages and the start-up wait alike.
 * - not-sent: the shared connection is down and refuses commands instead of queueing them (nothing was written)
 * - closed, reset: the connection closed or was reset; no-answer: it failed while a command waited
 * - refused, timed-out, unknown-host: no connection to be had; loading, cluster-down: Redis cannot serve yet
 * - password-needed, credentials, permission: Redis wants a password, refused the user, or refused what it may
 *   do (not a 503: retrying will not help)
 * Each in words for people:
 */
const WORDS = {
  'not-sent': 'no connection to Redis',
  closed: 'the connection to Redis closed',
  reset: 'the connection was reset',
  'no-answer': 'Redis did not answer (the connection failed while waiting)',
  refused: 'connection refused (nothing listens there)',
  'timed-out': 'the connection timed out',
  'unknown-host': 'its host name is not known',
  loading: 'Redis is loading its data into memory',
  'cluster-down': 'the Redis Cluster cannot serve the keys now',
  'password-needed': 'Redis asks for a password',
  credentials: 'Redis refused the credentials',
  permission: 'Redis refused the command to this user',
};
export type RedisFailure = keyof typeof WORDS;

/** Node's error codes of a connection. */
const SOCKET_CODES: Record<string, RedisFailure> = {
  ECONNREFUSED: 'refused',
  ETIMEDOUT: 'timed-out',
  ENOTFOUND: 'unknown-host',
  EAI_AGAIN: 'unknown-host',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
};

/** Redis's error codes (the first word of an error reply). */
const REPLY_CODES: Record<string, RedisFailure> = {
  LOADING: 'loading',
  CLUSTERDOWN: 'cluster-down',
  TRYAGAIN: 'cluster-down',
  MASTERDOWN: 'cluster-down',
  NOAUTH: 'password-needed',
  WRONGPASS: 'credentials',
  NOPERM: 'permission',
};

/** The failure a Redis client error stands for, by ioredis's error classes and the codes; null for any other error. */
export function redisFailureOf(error: unknown): RedisFailure | null {
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && SOCKET_CODES[code]) return SOCKET_CODES[code];
  if (error instanceof ReplyError) {
    const failure = REPLY_CODES[error.message.split(' ')[0]];
    // (Redis before 6 refuses a password with a generic ERR.)
    return failure ?? (/invalid (username-)?password/i.test(error.message) ? 'credentials' : null);
  }
  if (error.name === 'MaxRetriesPerRequestError') return 'no-answer';
  if (error.name === 'ClusterAllFailedError') return 'cluster-down';
  // ioredis raises these two as plain Errors, with no code or class of their own: the message is all there is.
  if (error.message.startsWith("Stream isn't writeable")) return 'not-sent';
  if (error.message.startsWith('Connection is closed')) return 'closed';
  return null;
}

/** Whether an error says the Redis store cannot be reached now (a 503 to retry, not a bug). */
export function isStoreUnavailable(error: unknown): boolean {
  const failure = redisFailureOf(error);
  return failure !== null && failure !== 'password-needed' && failure !== 'credentials' && failure !== 'permission';
}

/**
 * A Redis client error in words for people: the client library's own messages name its options
 * ("Stream isn't writeable and enableOfflineQueue options is false", "Refer to maxRetriesPerRequest
 * option") and would reach editors and logs otherwise.
 */
export function describeRedisError(error: unknown): string {
  const failure = redisFailureOf(error);
  return failure ? WORDS[failure] : ((error as Error)?.message ?? String(error));
}
