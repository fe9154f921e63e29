import { redactUrl, type AppConfig } from './config/app-config';
import { describeRedisError } from './redis/redis-errors';
import { RedisStartupError } from './redis/wait-for-redis';

/**
 * Why a process could not start, in one line that names what to change: the port taken, a file that
 * cannot be read, Redis refusing the credentials. Never a stack trace, and never a password (a URL in a
 * message is printed without it).
 */
export function describeStartupError(error: unknown, config: AppConfig): string {
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  let line: string;
  if (error instanceof RedisStartupError) line = error.message;
  else if (code === 'EADDRINUSE') line = `port ${config.port} on ${config.host} is already in use (PORT, HOST)`;
  else if (code === 'EACCES' && syscall === 'listen') line = `this process may not listen on port ${config.port} (PORT; ports below 1024 need privileges)`;
  else if (code === 'EADDRNOTAVAIL') line = `${config.host} is not an address of this machine (HOST)`;
  else if (code === 'ENOENT' && path) line = `${path} does not exist${path.startsWith(config.fixturesDir) ? ' (FIXTURES_DIR)' : ''}`;
  else if ((code === 'EACCES' || code === 'EISDIR') && path) line = `${path} cannot be read (${code === 'EISDIR' ? 'a folder' : 'permission denied'})`;
  else line = describeRedisError(error);
  return redactUrl(line);
}
