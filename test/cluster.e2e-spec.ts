import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { createApp } from '../src/bootstrap';
import { AppConfig } from '../src/config/app-config';
import { EventStore } from '../src/event-store/event-store.service';
import { ImportCatalogCommand } from '../src/catalog/import/import-catalog.command';
import { ProjectionRunner } from '../src/projections/projection-runner.service';
import { ProjectionState } from '../src/projections/projection-state';
import { freePort, getJson } from './support/harness';
import { FIXTURES } from './support/fixtures';

/**
 * The whole service on a three-master Redis Cluster started by the test: every Lua script and
 * transaction must stay within one slot, and reads, search, ingest and rebuild must work as on one node.
 */
const dir = mkdtempSync(join(tmpdir(), 'cluster-'));
const nodes: ChildProcess[] = [];
let ports: number[] = [];
let app: NestFastifyApplication;
let url: string;

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  ports = [await freePort(), await freePort(), await freePort()];
  for (const port of ports) {
    const node = spawn('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
      '--dir', dir, '--save', '', '--appendonly', 'no',
    ], { stdio: 'ignore' });
    nodes.push(node);
  }
  const ping = (port: number) => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'ping']).toString().trim() === 'PONG';
    } catch {
      return false;
    }
  };
  await until(() => ports.every(ping), 10_000);
  execFileSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { stdio: 'ignore' });
  const clusterOk = () => ports.every((p) => execFileSync('redis-cli', ['-p', String(p), 'cluster', 'info']).toString().includes('cluster_state:ok'));
  await until(clusterOk, 20_000);

  const config = new AppConfig({ REDIS_CLUSTER_NODES: ports.map((p) => `127.0.0.1:${p}`).join(','), LOG_LEVEL: 'warn', PROJECTOR_LEASE_MS: '5000' });
  app = await createApp(config);
  await app.init();
  await app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  nodes.forEach((node) => node.kill('SIGKILL'));
  rmSync(dir, { recursive: true, force: true });
});

it('spreads the directory over the cluster nodes', async () => {
  const report = await app.get(CommandBus).execute(new ImportCatalogCommand(['fixtures'], 'cluster-test'));
  expect(report.problems).toEqual([]);
  expect(report.projection).toBe('applied-by-service');
  const keysPerNode = ports.map((p) => Number(execFileSync('redis-cli', ['-p', String(p), 'dbsize']).toString().trim()));
  expect(keysPerNode.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
}, 60_000);

it('serves every operation from the cluster', async () => {
  expect((await getJson(`${url}/api/v1/tools/categories`)).body.totalListings).toBe(FIXTURES.listings);
  expect((await getJson(`${url}/api/v1/tools/search?q=antropic`)).body.results[0].slug).toBe('anthropic');
  expect((await getJson(`${url}/api/v1/tools/search?q=${encodeURIComponent('向量数据库')}&category=vector-db`)).body.total).toBeGreaterThan(2);
  expect((await getJson(`${url}/api/v1/tools/stripe`)).body.tool.errors[0].status).toBe(429);
  expect((await getJson(`${url}/api/v1/tools/compare?ids=openai,anthropic,nope`)).body.notFound).toEqual(['nope']);
  expect((await getJson(`${url}/api/v1/errors?provider=openai`)).body.total).toBe(5);
  // The export reads the stored details in transactions with the generation's checkpoint: one slot each.
  const documentsRead = jest.spyOn(app.get(EventStore), 'documentsAt');
  const exported = await getJson(`${url}/api/v1/export`);
  expect(exported.status).toBe(200);
  expect(documentsRead).not.toHaveBeenCalled();
  documentsRead.mockRestore();
  expect(exported.body.total).toBe(FIXTURES.listings);
  expect(exported.body.tools.find((tool: { slug: string }) => tool.slug === 'stripe').errors[0].status).toBe(429);
});

it('rebuilds and switches generations on the cluster', async () => {
  const report = await app.get(ProjectionRunner).rebuild();
  expect(report.events).toBe(FIXTURES.documents);
  // The switch reached this process's readers (told at once, or at their next check).
  await until(() => app.get(ProjectionState).status().generation === report.generation, 10_000);
  expect((await getJson(`${url}/api/v1/tools/categories`)).body.totalListings).toBe(FIXTURES.listings);
  const ready = await getJson(`${url}/readyz`);
  expect(ready.status).toBe(200);
  expect(app.get(ProjectionState).status().generation).toBe(report.generation);
}, 60_000);
