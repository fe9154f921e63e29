import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { resolve } from 'node:path';

/** Sends PING over a plain socket; true when a Redis answers PONG within `timeoutMs`. */
export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

/**
 * For `npm start` on a developer's machine: when nothing answers at a loopback REDIS_URL and
 * `redis-server` is on PATH, start one with an append-only file under `dataDir`, so content survives
 * restarts. Returns the child process (stop it with the app), or null when a Redis was already there.
 */
export async function ensureLocalRedis(redisUrl: string, dataDir: string, log: (line: string) => void): Promise<ChildProcess | null> {
  const url = new URL(redisUrl);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 6379);
  if (await redisAnswers(host, port)) return null;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    throw new Error(`nothing answers at ${redisUrl}; start Redis there or point REDIS_URL at a running one`);
  }
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(`nothing answers at ${redisUrl} and redis-server is not on PATH; install Redis (apt-get install redis-server)`);
  }
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  log(`no Redis at ${redisUrl}: starting redis-server on port ${port} with its append-only file in ${dir}`);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await redisAnswers('127.0.0.1', port)) return child;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port}`);
}

/** Stops a Redis started by ensureLocalRedis; SIGTERM makes it flush its append-only file first. */
export function stopLocalRedis(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => {
      child.kill('SIGKILL');
      done();
    }, 5000).unref();
  });
}
