import { Redis } from 'ioredis';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_SCRIPT, runCli } from './support/cli';
import { freePort, getJson, uniqueNamespace } from './support/harness';
import { makeCertificates, RedisServer, startRedisServer } from './support/redis-server';
import { errorLines, ServiceProcess, spawnServiceProcess, startServiceProcess } from './support/service-process';
import { FIXTURES } from './support/fixtures';

/**
 * `npm start` (the built service, as the Docker image runs it) and the ingest command line against real
 * Redis servers as operators run them: with a password, with an ACL user, over TLS with certificates of
 * the test's own, stopped (SIGSTOP), and still loading its data. A local redis-server is started only
 * when nothing at all listens at a plain loopback URL without credentials. No password is ever printed.
 */

const PASSWORD = 'pw-Zq81x-secret';
const work = mkdtempSync(join(tmpdir(), 'redis-start-'));
const servers: RedisServer[] = [];
const services: ServiceProcess[] = [];

afterAll(async () => {
  for (const service of services) service.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(work, { recursive: true, force: true });
});

async function redisServer(name: string, args: string[], options: { port?: number; ready?: RegExp } = {}): Promise<RedisServer> {
  const server = await startRedisServer(join(work, name), args, options);
  servers.push(server);
  return server;
}

/** The service against `env`, in a namespace of its own, with its data folder in the test's. */
function serviceEnv(env: Record<string, string>): Record<string, string> {
  return { REDIS_NAMESPACE: uniqueNamespace('redis-start'), DATA_DIR: join(work, 'data'), ...env };
}

async function serve(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await startServiceProcess(serviceEnv(env));
  services.push(service);
  return service;
}

async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await spawnServiceProcess(serviceEnv(env));
  services.push(service);
  return service;
}

/** Stops a service and checks what it printed: no password, no error, no stack. */
async function stopAndCheck(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  expect(await service.exited).toBe(0);
  expect(service.output()).not.toContain(PASSWORD);
  expect(errorLines(service.output())).toEqual([]);
}

/** What a process that cannot start prints: the non-empty lines of its output, once it has exited. */
async function failedStart(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const service = await spawnService(env);
  const code = await service.exited;
  return { code, lines: service.output().split('\n').filter((line) => line.trim() !== '' && !/"level":30/.test(line)) };
}

async function servesTheDirectory(service: ServiceProcess): Promise<void> {
  expect((await getJson(`${service.url}/readyz`)).status).toBe(200);
  expect((await getJson(`${service.url}/api/v1/tools/categories`)).body.totalListings).toBe(FIXTURES.listings);
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  expect(metrics).not.toContain(PASSWORD);
}

describe('a Redis with a password (requirepass)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await redisServer('requirepass', ['--requirepass', PASSWORD]);
  });

  it('npm start serves it, and never prints the password', async () => {
    const service = await serve({ REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${redis.port}` });
    await servesTheDirectory(service);
    expect(service.output()).not.toContain('starting redis-server');
    await stopAndCheck(service);
  }, 90_000);

  it('the ingest command line works against it', async () => {
    const run = await runCli(uniqueNamespace('redis-start-cli'), ['ingest', '--dry-run', 'fixtures'], { REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${redis.port}` });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/would be published listing openai/);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  }, 60_000);

  it('a wrong password stops the start with one line naming the setting, without the password', async () => {
    const { code, lines } = await failedStart({ REDIS_URL: `redis://:${PASSWORD}-wrong@127.0.0.1:${redis.port}` });
    expect(code).toBe(1);
    expect(lines).toEqual([`cannot start: Redis at redis://:***@127.0.0.1:${redis.port}: refused the user or password of REDIS_URL`]);
  }, 60_000);

  it('no password at all: one line saying where to put it, and no redis-server of its own on that port', async () => {
    const { code, lines } = await failedStart({ REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    expect(code).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^cannot start: Redis at redis:\/\/127\.0\.0\.1:\d+: asks for a password: put it in REDIS_URL/)]);
  }, 60_000);

  it('a settings error never prints the password of a malformed REDIS_URL', async () => {
    const { code, lines } = await failedStart({ REDIS_URL: `redis//app:${PASSWORD}@127.0.0.1:${redis.port}` });
    expect(code).toBe(1);
    expect(lines.join('\n')).toContain(`REDIS_URL: must be a redis:// or rediss:// URL, got 'redis//app:***@127.0.0.1:${redis.port}'`);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  }, 60_000);
});

describe('a Redis with an ACL user (the default user off)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    const acl = join(work, 'users.acl');
    writeFileSync(acl, `user default off\nuser directory on >${PASSWORD} ~* &* +@all\n`);
    redis = await redisServer('acl', ['--aclfile', acl]);
  });

  it('npm start serves it as that user, and the ingest command line works', async () => {
    const url = `redis://directory:${PASSWORD}@127.0.0.1:${redis.port}`;
    const service = await serve({ REDIS_URL: url });
    await servesTheDirectory(service);
    await stopAndCheck(service);
    const run = await runCli(uniqueNamespace('redis-start-cli'), ['ingest', '--dry-run', 'fixtures'], { REDIS_URL: url });
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  }, 90_000);

  it('the command line refuses a wrong password in one line (exit 1: a setting is wrong)', async () => {
    const run = await runCli(uniqueNamespace('redis-start-cli'), ['ingest', '--dry-run', 'fixtures'], { REDIS_URL: `redis://directory:nope@127.0.0.1:${redis.port}` });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(`Redis at redis://directory:***@127.0.0.1:${redis.port}: refused the user or password of REDIS_URL`);
  }, 60_000);
});

describe('a Redis over TLS (rediss://, on its --tls-port)', () => {
  let redis: RedisServer;
  let ca: string;
  beforeAll(async () => {
    const certificates = makeCertificates(join(work, 'tls'));
    ca = certificates.ca;
    const port = await freePort();
    redis = await redisServer('tls', ['--port', '0', '--tls-port', String(port), '--tls-cert-file', certificates.cert, '--tls-key-file', certificates.key, '--tls-ca-cert-file', ca, '--tls-auth-clients', 'no', '--requirepass', PASSWORD], { port });
  });

  it('npm start serves it with REDIS_TLS_CA, and the ingest command line works', async () => {
    const env = { REDIS_URL: `rediss://:${PASSWORD}@localhost:${redis.port}`, REDIS_TLS_CA: ca };
    const service = await serve(env);
    await servesTheDirectory(service);
    await stopAndCheck(service);
    const run = await runCli(uniqueNamespace('redis-start-cli'), ['ingest', '--dry-run', 'fixtures'], env);
    expect(run.code).toBe(0);
  }, 90_000);

  it('without the certificate authority: one line that names REDIS_TLS_CA', async () => {
    const { code, lines } = await failedStart({ REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${redis.port}` });
    expect(code).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^cannot start: Redis at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+: its TLS certificate is not trusted \(.+\): set REDIS_TLS_CA/)]);
  }, 60_000);
});

describe('rediss:// pointed at a plain Redis port', () => {
  it('stops the start with one line saying the port speaks plain Redis, instead of waiting for a handshake for ever', async () => {
    const plain = await redisServer('plain-for-tls', []);
    try {
      const { code, lines } = await failedStart({ REDIS_URL: `rediss://127.0.0.1:${plain.port}` });
      expect(code).toBe(1);
      expect(lines).toEqual([`cannot start: Redis at rediss://127.0.0.1:${plain.port}: speaks plain Redis there, not TLS: use redis:// for this port, or rediss:// with its TLS port`]);
    } finally {
      await plain.stop();
    }
  }, 60_000);
});

describe('a Redis that does not answer, or is still loading its data', () => {
  it('stopped (SIGSTOP): start-up waits and says so; resumed (SIGCONT), it goes on and serves', async () => {
    const redis = await redisServer('stopped', []);
    redis.child.kill('SIGSTOP');
    const service = await spawnService({ REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    await service.logged(/takes connections but does not answer.*; waiting for it/);
    expect(service.output()).not.toContain('serving on');
    expect(service.output()).not.toContain('starting redis-server');
    redis.child.kill('SIGCONT');
    await service.logged(/answers: going on/);
    await service.logged(/serving on/);
    await servesTheDirectory(service);
    await stopAndCheck(service);
  }, 90_000);

  it('loading its data (LOADING): npm start and the command line wait, saying so, and go on once it has loaded', async () => {
    // A data file of 60,000 keys, loaded a millisecond a key (a minute), until the test lets it finish.
    const filler = await redisServer('loading', []);
    const client = new Redis({ port: filler.port });
    await client.eval("for i = 1, 60000 do redis.call('SET', 'filler:' .. i, i) end", 0);
    await client.save();
    await client.quit();
    await filler.stop();
    const loading = async () => {
      const redis = await redisServer('loading', ['--dbfilename', 'dump.rdb', '--key-load-delay', '1000', '--loading-process-events-interval-bytes', '1024'], { port: filler.port, ready: /Loading RDB/ });
      return redis;
    };
    const finishLoading = async () => {
      const admin = new Redis({ port: filler.port, retryStrategy: () => null, enableReadyCheck: false });
      await admin.config('SET', 'key-load-delay', '0');
      admin.disconnect();
    };

    let redis = await loading();
    const service = await spawnService({ REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    await service.logged(/is loading its data into memory; waiting for it/);
    expect(service.output()).not.toContain('serving on');
    await finishLoading();
    await service.logged(/serving on/);
    await servesTheDirectory(service);
    await stopAndCheck(service);
    await redis.stop();

    redis = await loading();
    const cli = spawn(process.execPath, [CLI_SCRIPT, 'ingest', '--dry-run', 'fixtures'], { env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${redis.port}`, REDIS_NAMESPACE: uniqueNamespace('redis-start-cli') } });
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (d) => (stdout += d));
    const cliExited = new Promise<number | null>((resolve) => cli.once('exit', resolve));
    await new Promise<void>((resolve) => {
      cli.stderr.on('data', (d) => {
        stderr += d;
        if (/is loading its data into memory; waiting for it/.test(stderr)) resolve();
      });
    });
    await finishLoading();
    expect(await cliExited).toBe(0);
    expect(stdout).toMatch(/would be published listing openai/);
    await redis.stop();
  }, 120_000);
});

describe('the local redis-server of npm start', () => {
  let other: Server;
  let port: number;
  const accepted = new Set<Socket>();
  beforeAll(async () => {
    // Something that is not Redis takes connections on the port.
    other = createServer((socket) => {
      accepted.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    port = (other.address() as { port: number }).port;
  });
  afterAll(async () => {
    const closed = new Promise<void>((resolve) => other.close(() => resolve()));
    accepted.forEach((socket) => socket.destroy());
    await closed;
  });

  it('is never started when anything answers on the port: the service waits for Redis there instead', async () => {
    const service = await spawnService({ REDIS_URL: `redis://127.0.0.1:${port}` });
    await service.logged(/Redis at redis:\/\/127\.0\.0\.1:\d+ .*; waiting for it/);
    expect(service.output()).not.toContain('starting redis-server');
    service.child.kill('SIGKILL');
  }, 60_000);

  it('is never started for a URL with credentials or TLS, even when nothing listens', async () => {
    const free = await freePort();
    for (const url of [`redis://:${PASSWORD}@127.0.0.1:${free}`, `redis://app:${PASSWORD}@127.0.0.1:${free}`, `rediss://127.0.0.1:${free}`]) {
      const service = await spawnService({ REDIS_URL: url });
      await service.logged(/refuses connections \(nothing listens there yet\); waiting for it/);
      expect(service.output()).not.toContain('starting redis-server');
      expect(service.output()).not.toContain(PASSWORD);
      service.child.kill('SIGKILL');
    }
  }, 60_000);
});
