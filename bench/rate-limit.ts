import rateLimit from '@fastify/rate-limit';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { clientKey } from '../src/operations/client-address';
import { RateBudgets, rateLimitHeaders } from '../src/operations/rate-budgets';
import type { RedisConnection } from '../src/redis/redis-connection';
import { LoadResult, loadResult } from './lib/load';
import { freePort, httpAnswers, start, startRedis, stop, waitFor } from './lib/processes';

/**
 * What the request budget costs a cached read. A bare Fastify server answers a precomputed body of the
 * size of a listing's detail (10 KB), in a process of its own: with no budget; with this service's
 * budgets (`src/operations/rate-budgets.ts`: a process takes a sixteenth of what is left of a client's
 * budget from Redis and lets that many through on its own); and with `@fastify/rate-limit` and its Redis
 * store (one Redis call per request). The load comes from 1,000 clients (X-Forwarded-For, trusted),
 * each within the default budget of 600 a minute, so nothing is refused and every request is counted.
 * A Redis of the benchmark's own; autocannon at 10 and 100 connections.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && node dist/bench/rate-limit.js [seconds]
 */
const VARIANTS = ['none', 'budgets', 'fastify-rate-limit'] as const;
type Variant = (typeof VARIANTS)[number];
const BUDGET = 600;
const CLIENTS = 1000;

async function serve(variant: Variant, port: number, redisUrl: string): Promise<void> {
  const app = Fastify({ trustProxy: true });
  const body = Buffer.from(JSON.stringify({ success: true, tool: { slug: 'openai', description: 'x'.repeat(10_000) } }));
  if (variant === 'fastify-rate-limit') {
    await app.register(rateLimit, { max: BUDGET, timeWindow: 60_000, redis: new Redis(redisUrl), nameSpace: 'bench-rl:', keyGenerator: (request) => clientKey(request.ip) });
  }
  if (variant === 'budgets') {
    const budgets = new RateBudgets({ client: new Redis(redisUrl) } as unknown as RedisConnection);
    app.addHook('onRequest', async (request, reply) => {
      const key = `bench-budgets:${clientKey(request.ip)}`;
      const state = await budgets.spend(key, () => key, BUDGET);
      if (state?.allowed) reply.headers(rateLimitHeaders(state));
      else if (state) return reply.code(429).send();
    });
  }
  app.get('/api/v1/tools/openai', (_request, reply) => reply.type('application/json').send(body));
  await app.listen({ port, host: '127.0.0.1' });
}

async function measure(seconds: number): Promise<void> {
  const redis = await startRedis();
  const rows: Array<{ variant: Variant; connections: number; result: LoadResult }> = [];
  try {
    for (const connections of [10, 100]) {
      for (const variant of VARIANTS) {
        const port = await freePort();
        const server = start(process.execPath, [__filename, 'serve', variant, String(port), redis.url]);
        const url = `http://127.0.0.1:${port}`;
        await waitFor(httpAnswers(`${url}/api/v1/tools/openai`), 20_000, `the ${variant} server`);
        const admin = new Redis(redis.url);
        await admin.flushall();
        await admin.quit();
        const clients = Array.from({ length: CLIENTS }, (_, i) => `198.18.${Math.floor(i / 250)}.${i % 250}`);
        const result = await loadFromClients(url, clients, connections, seconds);
        rows.push({ variant, connections, result });
        await stop(server);
      }
    }
  } finally {
    await stop(redis.child);
  }
  const none = (connections: number) => rows.find((row) => row.variant === 'none' && row.connections === connections)!.result.rps;
  console.log('| budget | conns | rps | of no budget | p99 ms | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const { variant, connections, result } of rows) {
    console.log(`| ${variant} | ${connections} | ${Math.round(result.rps).toLocaleString('en')} | ${(result.rps / none(connections)).toFixed(2)}x | ${result.p99.toFixed(1)} | ${result.non2xx + result.errors} |`);
  }
}

/** autocannon over the clients' requests in turn: each request names its client in X-Forwarded-For. */
async function loadFromClients(url: string, clients: string[], connections: number, seconds: number): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: clients.map((client) => ({ method: 'GET', path: '/api/v1/tools/openai', headers: { 'x-forwarded-for': client } })),
  });
  return loadResult(result);
}

if (process.argv[2] === 'serve') void serve(process.argv[3] as Variant, Number(process.argv[4]), process.argv[5]);
else void measure(Number(process.argv[2] ?? 5));
