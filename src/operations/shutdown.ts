import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { Draining } from './draining';

/** How often connections that went idle while stopping are closed (a kept-alive one would wait for its timeout). */
const IDLE_SWEEP_MS = 50;

/**
 * Stops the service: accepts no more connections, lets the requests in flight finish (their connections
 * close as they go idle) for at most `timeoutMs`, then cuts what is left; then Nest's shutdown hooks stop
 * the projection runner, which releases its lease so that another process takes over at once, and close
 * Redis. Resolves with whether every request in flight finished in time.
 */
export async function drainAndClose(app: NestFastifyApplication, timeoutMs: number): Promise<boolean> {
  const server = app.getHttpServer() as Server;
  app.get(Draining).active = true;
  let finished = true;
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => {
    finished = false;
    server.closeAllConnections();
  }, timeoutMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
  return finished;
}
