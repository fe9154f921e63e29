import { spawn } from 'node:child_process';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../src/bootstrap';
import { AppConfig } from '../src/config/app-config';
import { freePort, getJson } from './support/harness';

/** The service with no Redis behind it: reads answer 503 problem documents, liveness stays up. */
let app: NestFastifyApplication;
let url: string;

beforeAll(async () => {
  const port = await freePort();
  app = await createApp(new AppConfig({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_NAMESPACE: 'unreachable', LOG_LEVEL: 'fatal' }));
  await app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
});
afterAll(() => app?.close());

it.each(['/api/v1/tools/openai', '/api/v1/tools/search?q=gpu', '/api/v1/tools/categories', '/api/v1/tools/compare?ids=a,b'])(
  '%s answers 503 with a problem document when Redis is unreachable',
  async (path) => {
    const { status, headers, body } = await getJson(`${url}${path}`);
    expect(status).toBe(503);
    expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({ success: false, status: 503, title: 'Service unavailable' });
  },
);

it('stays alive (healthz) but not ready (readyz)', async () => {
  expect((await getJson(`${url}/healthz`)).status).toBe(200);
  expect((await getJson(`${url}/readyz`)).status).toBe(503);
});

it('a process that closes the service while Redis is unreachable exits at once', async () => {
  // The build's service in a process of its own: what keeps it alive after close is what matters here.
  const port = await freePort();
  const script = `
    require('reflect-metadata');
    const { createApp } = require('./dist/src/bootstrap');
    const { AppConfig } = require('./dist/src/config/app-config');
    (async () => {
      const app = await createApp(new AppConfig({ REDIS_URL: 'redis://127.0.0.1:${port}', REDIS_NAMESPACE: 'unreachable', LOG_LEVEL: 'fatal' }));
      await app.listen(0, '127.0.0.1');
      await app.close();
      console.log('closed');
      // Says so if anything still keeps the process alive 1.5 s after the close (this timer does not).
      setTimeout(() => console.log('still alive'), 1500).unref();
    })();`;
  const child = spawn(process.execPath, ['-e', script]);
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(0);
  expect(output).toContain('closed');
  // ioredis kept a 2 s timer for a connection still trying to open (it is told to give up after 200 ms).
  expect(output).not.toContain('still alive');
}, 30_000);
