import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { Command, CommandBus } from '@nestjs/cqrs';
import { EventStore } from '../../src/event-store/event-store.service';
import { ProjectionWait } from '../../src/projections/projection-wait';
import { createApp } from '../../src/bootstrap';
import { AppConfig } from '../../src/config/app-config';
import { ImportCatalogCommand, ImportOptions, ImportReport } from '../../src/catalog/import/import-catalog.command';
import { drainAndClose } from '../../src/operations/shutdown';
import { deleteMatching } from '../../src/redis/delete-matching';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A namespace of its own for each test file, so tests share one Redis without seeing each other. */
export function uniqueNamespace(label: string): string {
  return `test-${label}-${randomBytes(4).toString('hex')}`;
}

/**
 * Settings of a service under test. Every request of a test comes from 127.0.0.1, so the rate limits are
 * off unless a test sets them (test/abuse.e2e-spec.ts does).
 */
export function testConfig(namespace: string, overrides: Record<string, string> = {}): AppConfig {
  return new AppConfig({
    REDIS_URL,
    REDIS_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    PROJECTOR_LEASE_MS: '5000',
    RATE_LIMIT_PER_MINUTE: '0',
    SEARCH_RATE_LIMIT_PER_MINUTE: '0',
    ...overrides,
  });
}

/** Deletes every key of a namespace. */
export async function dropNamespace(namespace: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  await deleteMatching(redis, `{${namespace}:*`);
  await redis.quit();
}

export interface RunningService {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  namespace: string;
  ingest(paths: string[], actor?: string, options?: ImportOptions): Promise<ImportReport>;
  /** Sends a command on the service's CommandBus, then waits until its read models show everything appended. */
  command<R>(command: Command<R>): Promise<R>;
  close(): Promise<void>;
}

/** The real service on a free port, over a real Redis, in its own namespace. */
export async function startService(label: string, overrides: Record<string, string> = {}): Promise<RunningService> {
  const namespace = uniqueNamespace(label);
  const config = testConfig(namespace, overrides);
  const app = await createApp(config);
  await app.init();
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    config,
    namespace,
    baseUrl: `http://127.0.0.1:${address.port}`,
    ingest: (paths, actor = 'test', options = {}) => app.get(CommandBus).execute(new ImportCatalogCommand(paths, actor, false, options)),
    command: async (command) => {
      const result = await app.get(CommandBus).execute(command);
      const projected = await app.get(ProjectionWait).waitUntilProjected(await app.get(EventStore).lastPosition(), 30_000);
      if (!projected) throw new Error('the read models did not show the change within 30 s');
      return result;
    },
    close: async () => {
      // As the process stops on SIGTERM, but idle connections are closed at once (the fetch pool a test's
      // client keeps them in is shared by every test file of the run), and a busy one cut after 2 s.
      await drainAndClose(app, 2000, 0);
      await dropNamespace(namespace);
    },
  };
}

/** A loopback port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
}

/**
 * The commands `client`'s connection sends while `action` runs (name and arguments), seen with MONITOR.
 * A marker sent on the same connection afterwards tells when MONITOR has shown everything before it (a
 * fixed wait was too short on a loaded machine); the marker is left out.
 */
export async function commandsDuring<T>(client: Redis, action: () => Promise<T>): Promise<{ result: T; commands: string[][] }> {
  const addr = /addr=(\S+)/.exec(String(await client.client('INFO')))![1];
  // MONITOR on a connection of its own. ioredis marks it monitoring a moment after Redis's OK: lines of
  // other clients' commands that come in the same packet are taken for replies to nothing and reported
  // as an error ("Command queue state error"), which made observer.monitor() fail now and then when other
  // tests used Redis. Those lines precede the action: they are let go.
  const monitor = new Redis(REDIS_URL, { monitor: true });
  monitor.on('error', () => undefined);
  await new Promise((resolve) => monitor.once('monitoring', resolve));
  const commands: string[][] = [];
  let done = false;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== addr) return;
    if (args[0].toLowerCase() === 'echo' && args[1] === 'end of action') done = true;
    else if (!done) commands.push(args.map(String));
  });
  try {
    const result = await action();
    await client.echo('end of action');
    for (let waited = 0; !done && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    return { result, commands };
  } finally {
    monitor.disconnect();
  }
}
