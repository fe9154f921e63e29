import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { Connections, IDLE_GRACE_MS } from './connections';
import { Draining } from './draining';

/**
 * Stops the service: accepts no more connections, lets the requests in flight finish with
 * `Connection: close` for at most `timeoutMs`, closes kept-alive connections once idle for `idleGraceMs`
 * (see Connections.drain), then cuts what is left; then Nest's shutdown hooks stop the projection
 * runner, which releases its lease so that another process takes over at once, and close Redis.
 * Resolves with whether every request in flight finished in time.
 */
export async function drainAndClose(app: NestFastifyApplication, timeoutMs: number, idleGraceMs = IDLE_GRACE_MS): Promise<boolean> {
  app.get(Draining).active = true;
  const finished = await app.get(Connections).drain(app.getHttpServer() as Server, timeoutMs, idleGraceMs);
  await app.close();
  return finished;
}
