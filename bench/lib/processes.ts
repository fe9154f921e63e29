import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** Child processes of a benchmark run: a Redis of its own, the service, the CLI, the peer, the limit. */

/** The Node flags of `npm start` and `npm run ingest` (a larger young generation: less GC on bulk work). */
export const NODE_FLAGS = ['--max-semi-space-size=64'];

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const running = new Set<ChildProcess>();
process.on('exit', () => running.forEach((child) => child.kill('SIGKILL')));

export function start(command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  return child;
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const httpAnswers = (url: string) => async () => (await fetch(url)).ok;

/** A redis-server of the benchmark's own, without persistence, so memory and timings are its alone. */
export async function startRedis(): Promise<{ url: string; port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  const { Redis } = await import('ioredis');
  await waitFor(
    async () => {
      const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } finally {
        client.disconnect();
      }
    },
    10_000,
    'redis-server',
  );
  return { url: `redis://127.0.0.1:${port}`, port, child };
}

/** Runs the ingest CLI to completion; returns its wall time and output. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ ms: number; stdout: string; stderr: string }> {
  const started = Date.now();
  const child = start(process.execPath, [...NODE_FLAGS, 'dist/ingest/main.js', ...args], env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  // Timed to the process's exit; answered once its output is read to the end ('exit' can come first).
  let ms = 0;
  child.on('exit', () => (ms = Date.now() - started));
  return new Promise((resolve, reject) => {
    child.on('close', (code) =>
      code === 0 ? resolve({ ms, stdout, stderr }) : reject(new Error(`ingest ${args.join(' ')} exited ${code}:\n${stderr}`)),
    );
  });
}

/**
 * Starts the API service and waits until it is ready (/readyz: read models live and its search index
 * loaded from the event log, which takes a while on a large catalog). Returns how long that took. The load
 * comes from one address: the rate limits are off unless `env` sets them (they would refuse nearly all of it).
 */
export async function startService(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; readyMs: number }> {
  const port = await freePort();
  const started = Date.now();
  const limitsOff = { RATE_LIMIT_PER_MINUTE: '0', SEARCH_RATE_LIMIT_PER_MINUTE: '0' };
  const child = start(process.execPath, [...NODE_FLAGS, 'dist/src/main.js'], { LOG_LEVEL: 'warn', ...limitsOff, ...env, PORT: String(port), HOST: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(httpAnswers(`${url}/readyz`), 600_000, 'the service to be ready');
  return { url, child, readyMs: Date.now() - started };
}

/** Resident memory of a process, in bytes (from ps: the figure the operating system charges it). */
export function rss(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

/**
 * Ready is not settled: after a start over a large log the process still follows it for a while (its search
 * index applies every event). Resolves once the projection has no lag and the event loop's recent delay is
 * short, with how long that took.
 */
export async function waitUntilSettled(url: string, timeoutMs = 600_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const ready = (await (await fetch(`${url}/readyz`)).json()) as { info?: { eventLoop?: { maxDelayMs?: number }; projection?: { lag?: number } } };
    if (ready.info?.projection?.lag === 0 && (ready.info?.eventLoop?.maxDelayMs ?? Infinity) < 50) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`the service did not settle in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
