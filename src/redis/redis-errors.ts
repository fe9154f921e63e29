/**
 * What a Redis client error means, in words for people: the client library's own messages name its
 * options ("Stream isn't writeable and enableOfflineQueue options is false", "Refer to
 * maxRetriesPerRequest option") and reach editors and logs otherwise.
 */
export function describeRedisError(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  const code = (error as NodeJS.ErrnoException)?.code;
  if (/^Stream isn't writeable/.test(message)) return 'no connection to Redis';
  if ((error as Error)?.name === 'MaxRetriesPerRequestError' || /max retries per request/i.test(message)) return 'Redis did not answer (the connection failed while waiting)';
  if (/^Connection is closed/.test(message)) return 'the connection to Redis closed';
  if (code === 'ECONNREFUSED') return 'connection refused (nothing listens there)';
  if (code === 'ETIMEDOUT') return 'the connection timed out';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name is not known';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection was reset';
  if (/^LOADING/.test(message)) return 'Redis is loading its data into memory';
  if (/^(NOAUTH|WRONGPASS)/.test(message)) return 'Redis refused the credentials';
  return message;
}
