import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tcpState } from '../src/redis/local-redis';
import { freePort, getJson } from './support/harness';
import { FIXTURES } from './support/fixtures';

function start(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['dist/src/main.js'], { env: { ...process.env, ...env, LOG_LEVEL: 'info' } });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', () => {
      if (output.includes('serving on')) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

const work = mkdtempSync(join(tmpdir(), 'start-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('npm start: starts its own Redis when none answers, seeds the fixtures, serves, and keeps the data', async () => {
  const redisPort = await freePort();
  const port = await freePort();
  const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}`, PORT: String(port), DATA_DIR: join(work, 'data') };
  expect(await tcpState('127.0.0.1', redisPort)).toBe('refused');

  const first = await start(env);
  expect(first.output()).toContain(`starting redis-server on port ${redisPort}`);
  expect(first.output()).toContain(`ingested ${FIXTURES.listings} listings, ${FIXTURES.models} model entries and ${FIXTURES.errors} error entries`);
  expect(first.output()).toContain(`serving on http://localhost:${port}`);
  const categories = await getJson(`http://127.0.0.1:${port}/api/v1/tools/categories`);
  expect(categories.body.totalListings).toBe(FIXTURES.listings);
  expect(await stop(first.child)).toBe(0);
  expect(await tcpState('127.0.0.1', redisPort)).toBe('refused');
  expect(readdirSync(join(work, 'data')).some((f) => f.startsWith('appendonly'))).toBe(true);

  // Second start: the content comes back from the append-only file; nothing is ingested again.
  const second = await start(env);
  expect(second.output()).not.toContain('ingested');
  const again = await getJson(`http://127.0.0.1:${port}/api/v1/tools/openai`);
  expect(again.status).toBe(200);
  await stop(second.child);
  expect(existsSync(join(work, 'data'))).toBe(true);
}, 90_000);
