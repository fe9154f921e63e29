import { Redis } from 'ioredis';
import { RateBudgets } from '../src/operations/rate-budgets';
import { RedisConnection } from '../src/redis/redis-connection';
import { commandsDuring, dropNamespace, REDIS_URL, testConfig, uniqueNamespace } from './support/harness';

/**
 * The budgets on a real Redis, as two API processes see them: never more than the budget in a window,
 * whichever process lets a request through, and far fewer Redis calls than requests while the budget is
 * large (each process takes a share of what is left).
 */
const namespace = uniqueNamespace('budgets');
const connections = [new RedisConnection(testConfig(namespace)), new RedisConnection(testConfig(namespace))];
const [first, second] = connections.map((connection) => new RateBudgets(connection));
const redis = new Redis(REDIS_URL);

beforeAll(() => Promise.all(connections.map((c) => c.onModuleInit())));
afterAll(async () => {
  await Promise.all(connections.map((c) => c.onApplicationShutdown()));
  await dropNamespace(namespace);
  await redis.quit();
});

async function spendUntilRefused(budgets: RateBudgets[], key: string, limit: number): Promise<number> {
  for (let allowed = 0; ; allowed++) {
    const state = await budgets[allowed % budgets.length].spend(key, () => key, limit);
    if (!state!.allowed) return allowed;
    expect(state!.limit).toBe(limit);
    expect(state!.resetSeconds).toBeGreaterThanOrEqual(1);
  }
}

it('lets exactly the budget through in one process, asking Redis for a share at a time', async () => {
  const key = connections[0].keys.requestBudget('192.0.2.1');
  const { result: allowed, commands } = await commandsDuring(connections[0].client as Redis, () => spendUntilRefused([first], key, 600));
  expect(allowed).toBe(600);
  expect(Number(await redis.get(key))).toBe(600);
  const calls = commands.filter(([name]) => /^eval/i.test(name)).length;
  // A sixteenth of what is left at a time: about 80 calls for 600 requests (one each for the last 31).
  expect(calls).toBeLessThan(100);
  expect(calls).toBeGreaterThan(0);
  // Refused from now on, without asking Redis again.
  const { result: refused, commands: after } = await commandsDuring(connections[0].client as Redis, () => first.spend(key, () => key, 600));
  expect(refused!.allowed).toBe(false);
  expect(after).toEqual([]);
});

it('never lets more than the budget through across processes, and not much less', async () => {
  const key = connections[0].keys.requestBudget('192.0.2.2');
  const allowed = await spendUntilRefused([first, second], key, 600);
  expect(allowed).toBeLessThanOrEqual(600);
  // At most what the other process holds is lost: a sixteenth of the budget.
  expect(allowed).toBeGreaterThanOrEqual(600 - 600 / 16);
  expect(Number(await redis.get(key))).toBe(600);
});

it('counts every request when the budget is small (the shares are down to one)', async () => {
  const key = connections[0].keys.searchBudget('192.0.2.3');
  expect(await spendUntilRefused([first, second], key, 20)).toBe(20);
});

it('lets a burst of one client\'s requests at once through while its budget lasts, and exactly the budget', async () => {
  const key = connections[0].keys.requestBudget('192.0.2.4');
  // 100 requests at once, then 600 more at once: the first 600 of them pass, whichever grant answered them.
  const burst = await Promise.all(Array.from({ length: 100 }, () => first.spend(key, () => key, 600)));
  expect(burst.filter((state) => state!.allowed)).toHaveLength(100);
  const rest = await Promise.all(Array.from({ length: 600 }, () => first.spend(key, () => key, 600)));
  expect(rest.filter((state) => state!.allowed)).toHaveLength(500);
  expect(Number(await redis.get(key))).toBe(600);
});
