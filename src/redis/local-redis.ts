import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { resolve } from 'node:path';
import type { AppConfig } from '../config/app-config';
import { isLoopbackHost } from './redis-url';

/** Whether anything takes TCP connections at host:port: 'refused' only when the connection is refused. */
export function tcpState(host: string, port: number, timeoutMs = 1000): Promise<'refused' | 'open' | 'unknown'> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const finish = (state: 'refused' | 'open' | 'unknown') => {
      socket.destroy();
      done(state);
    };
    socket.setTimeout(timeoutMs, () => finish('unknown'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNREFUSED' ? 'refused' : 'unknown'));
    socket.on('connect', () => finish('open'));
  });
}

/**
 * For `npm start` on a developer's machine: starts `redis-server` (with an append-only file under
 * `dataDir`, so content survives restarts) only when REDIS_URL names this machine's loopback, plainly
 * (redis://, not rediss://), without a user or password, and nothing at all listens on its port
 * (connection refused). Anything else that answers there, or a Redis that wants credentials or TLS, is
 * someone else's: the service waits for it instead (see waitForRedis). Returns the child process (stop it
 * with the app), or null when none was started.
 */
export async function ensureLocalRedis(config: AppConfig, log: (line: string) => void): Promise<ChildProcess | null> {
  if (config.redisClusterNodes.length > 0) return null;
  const url = new URL(config.redisUrl);
  if (url.protocol !== 'redis:' || url.username !== '' || url.password !== '' || !isLoopbackHost(url.hostname)) return null;
  const port = Number(url.port || 6379);
  if ((await tcpState(url.hostname.replace(/^\[(.*)\]$/, '$1'), port)) !== 'refused') return null;
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(`nothing listens at ${config.redisUrl} and redis-server is not on PATH; install Redis (apt-get install redis-server) or point REDIS_URL at a running one`);
  }
  const dir = resolve(config.dataDir);
  mkdirSync(dir, { recursive: true });
  log(`no Redis at ${config.redisUrl}: starting redis-server on port ${port} with its append-only file in ${dir}`);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Ready when this child says so, not when something answers on the port: another process may have
  // taken the port meanwhile (this child then fails to bind and exits), and its Redis is not ours.
  const ready = await new Promise<boolean>((done) => {
    let output = '';
    const timer = setTimeout(() => done(false), 10_000);
    child.stdout!.on('data', (data) => {
      output += data;
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        done(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      done(false);
    });
  });
  if (ready) return child;
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
