import { Injectable } from '@nestjs/common';
import type { Server } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';
import { AppConfig } from '../config/app-config';
import { inFlight } from '../http/framework-errors';
import { clientKey, trustedProxy } from './client-address';
import { Metrics } from './metrics';

/** How often a stopping process looks at its connections. */
const SWEEP_MS = 50;

/**
 * How long a kept-alive connection must have been idle before a stopping process closes it. A client
 * under load sends its next request on a connection as soon as it has the answer before: closed in that
 * instant, the request meets a closed connection (ECONNRESET). Within this time such a request arrives,
 * and is answered with `Connection: close`.
 */
export const IDLE_GRACE_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The connections this process holds: at most MAX_CONNECTIONS, and at most MAX_CONNECTIONS_PER_CLIENT
 * from one client (its address, an IPv6 one by /64, as the rate limits count), so that one client
 * holding connections cannot take those others need; and a stop that lets each end cleanly. A trusted
 * proxy (TRUST_PROXY) is no client: the connections of everyone behind it come from its address.
 * Work is per connection (when it opens and closes), never per request.
 */
@Injectable()
export class Connections {
  private readonly open = new Set<Socket>();
  /** Client key -> connections it holds now. */
  private readonly perClient = new Map<string, number>();
  private readonly limit: number;
  private readonly isProxy: (peer: string) => boolean;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.limit = config.maxConnectionsPerClient;
    this.isProxy = trustedProxy(config.trustProxy);
  }

  /** Starts counting the server's connections (before it listens). */
  watch(server: Server): void {
    server.maxConnections = this.config.maxConnections;
    // Node closes a connection beyond maxConnections before anyone sees it; it says so with 'drop'.
    server.on('drop', () => this.metrics.connectionRefused('process'));
    server.on('connection', (socket: Socket) => {
      const peer = socket.remoteAddress ?? '';
      const client = this.limit > 0 && !this.isProxy(peer) ? clientKey(peer) : null;
      if (client !== null) {
        const held = this.perClient.get(client) ?? 0;
        if (held >= this.limit) {
          this.metrics.connectionRefused('per-client');
          socket.destroy();
          return;
        }
        this.perClient.set(client, held + 1);
      }
      this.open.add(socket);
      socket.once('close', () => {
        this.open.delete(socket);
        if (client === null) return;
        const left = this.perClient.get(client)! - 1;
        if (left === 0) this.perClient.delete(client);
        else this.perClient.set(client, left);
      });
    });
  }

  /**
   * Stops the service's connections cleanly: accepts no more (a client that reconnects is refused at
   * once, and goes to another instance), answers what is in flight with `Connection: close` (the client
   * will not send on that connection again), and closes each kept-alive connection once it has been idle
   * for `idleGraceMs`. At `timeoutMs` whatever is left is cut. Resolves with whether every connection
   * ended before that.
   */
  async drain(server: Server, timeoutMs: number, idleGraceMs = IDLE_GRACE_MS): Promise<boolean> {
    // net's close, not http's: http's also closes idle connections at once, the instant a busy client
    // may be sending its next request on one.
    if (server.listening) NetServer.prototype.close.call(server);
    for (const socket of this.open) {
      const answer = inFlight(socket);
      if (answer && !answer.headersSent) answer.setHeader('connection', 'close');
    }
    const deadline = Date.now() + timeoutMs;
    const idle = new Map<Socket, { since: number; bytesRead: number }>();
    while (this.open.size > 0) {
      const now = Date.now();
      if (now >= deadline) {
        for (const socket of this.open) socket.destroy();
        return false;
      }
      for (const socket of this.open) {
        const answer = inFlight(socket);
        const seen = idle.get(socket);
        // Busy: an answer under way, or bytes of a next request arriving.
        if ((answer && !answer.writableFinished) || (seen && seen.bytesRead !== socket.bytesRead)) idle.delete(socket);
        else if (!seen) idle.set(socket, { since: now, bytesRead: socket.bytesRead });
        else if (now - seen.since >= idleGraceMs) socket.destroy();
      }
      await sleep(Math.min(SWEEP_MS, Math.max(0, deadline - now)));
    }
    return true;
  }
}
