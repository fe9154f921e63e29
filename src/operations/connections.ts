import { Injectable } from '@nestjs/common';
import type { Server } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';
import { AppConfig } from '../config/app-config';
import { inFlight } from '../http/framework-errors';
import { clientKey, trustedProxy } from './client-address';
import { Metrics } from './metrics';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a stopping process looks at its connections. */
const SWEEP_MS = 50;

/**
 * How long a kept-alive connection must have been idle before a stopping process closes it. A client
 * under load sends its next request on a connection as soon as it has the answer before: closed in that
 * instant, the request meets a closed connection (ECONNRESET). Within this time such a request arrives,
 * and is answered with `Connection: close`.
 */
export const IDLE_GRACE_MS = 1000;


/**
 * The connections this process holds: at most MAX_CONNECTIONS, and at most MAX_CONNECTIONS_PER_CLIENT
 * from one client (its address, an IPv6 one by /64, as the rate limits count), so that one client
 * holding connections cannot take those others need; at the cap, a new client is let in by closing an
 * idle connection of the client holding the most; and a stop that lets each end cleanly. A trusted
 * proxy (TRUST_PROXY) is no client: the connections of everyone behind it come from its address.
 * Work is per connection (when it opens and closes), never per request.
 */
@Injectable()
export class Connections {
  private readonly open = new Set<Socket>();
  /** Client key -> the connections it holds now ('' for those of trusted proxies, which have no share). */
  private readonly byClient = new Map<string, Set<Socket>>();
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
    server.on('connection', (socket: Socket) => {
      const peer = socket.remoteAddress ?? '';
      const client = this.limit > 0 && !this.isProxy(peer) ? clientKey(peer) : '';
      const held = this.byClient.get(client);
      if (client !== '' && (held?.size ?? 0) >= this.limit) {
        this.metrics.connectionRefused('per-client');
        socket.destroy();
        return;
      }
      // At the process's cap, an idle connection of the client holding the most makes room (a kept-alive
      // one waiting for a next request, or one that never sent any): many addresses each within their
      // share could otherwise fill the process and lock every new client out. Busy ones are never cut.
      if (this.open.size >= this.config.maxConnections) {
        const idle = this.idleOfHeaviest(client);
        if (!idle) {
          this.metrics.connectionRefused('process');
          socket.destroy();
          return;
        }
        this.metrics.connectionRefused('evicted');
        this.forget(idle.socket, idle.client);
        idle.socket.destroy();
      }
      this.open.add(socket);
      if (held) held.add(socket);
      else this.byClient.set(client, new Set([socket]));
      socket.once('close', () => this.forget(socket, client));
    });
  }

  private forget(socket: Socket, client: string): void {
    if (!this.open.delete(socket)) return;
    const sockets = this.byClient.get(client)!;
    sockets.delete(socket);
    if (sockets.size === 0) this.byClient.delete(client);
  }

  /** An idle connection of the client holding the most (other than `except`), or null when none is idle. */
  private idleOfHeaviest(except: string): { socket: Socket; client: string } | null {
    const holders = [...this.byClient].filter(([client]) => client !== except || except === '').sort(([, a], [, b]) => b.size - a.size);
    for (const [client, sockets] of holders) {
      for (const socket of sockets) {
        const answer = inFlight(socket);
        if (!answer || answer.writableFinished) return { socket, client };
      }
    }
    return null;
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
