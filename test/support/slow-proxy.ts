import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of Redis whose replies can be held back (from `hold()` until `release()`), to make
 * Redis slow for one service without slowing the Redis every other test shares. Order is kept: a reply
 * never overtakes the one before it. `sent(pattern)` resolves when the
 * service sends Redis a command whose bytes match, so a test waits for the request it made to reach
 * Redis rather than for a time; `holdFrom(pattern)` starts holding at that very command, so whatever the
 * service asked Redis before it (a read-model check on the way to the read, say) is still answered.
 */
export class SlowProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** Replies held until release(), in order, with the socket each goes to; null while not holding. */
  private heldReplies: Array<[Socket, Buffer]> | null = null;
  private readonly watchers: Array<{ pattern: RegExp; resolve: () => void; hold: boolean }> = [];

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts listening on a free loopback port; resolves with the Redis URL to give the service. */
  async start(): Promise<string> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      this.sockets.add(client).add(upstream);
      client.on('data', (chunk) => {
        const text = chunk.toString('latin1');
        for (const watcher of [...this.watchers]) {
          if (!watcher.pattern.test(text)) continue;
          this.watchers.splice(this.watchers.indexOf(watcher), 1);
          // Before the command goes on, so its reply (which comes after) is held.
          if (watcher.hold) this.hold();
          watcher.resolve();
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (this.heldReplies) {
          this.heldReplies.push([client, chunk]);
          return;
        }
        if (client.writable) client.write(chunk);
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('close', close).on('error', close);
      upstream.on('close', close).on('error', close);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.server!.address() as { port: number }).port}`;
  }

  /** Holds every reply from now on until release(). */
  hold(): void {
    this.heldReplies ??= [];
  }

  /** Sends the replies held, in order, and stops holding. */
  release(): void {
    const replies = this.heldReplies ?? [];
    this.heldReplies = null;
    for (const [client, chunk] of replies) if (client.writable) client.write(chunk);
  }

  /** Resolves when the service next sends Redis a command whose bytes match `pattern` (a key name, say). */
  sent(pattern: RegExp): Promise<void> {
    return new Promise((resolve) => this.watchers.push({ pattern, resolve, hold: false }));
  }

  /** Holds every reply from the first command matching `pattern` on (its own reply included) until release(). */
  holdFrom(pattern: RegExp): Promise<void> {
    return new Promise((resolve) => this.watchers.push({ pattern, resolve, hold: true }));
  }

  async stop(): Promise<void> {
    this.heldReplies = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The host and port of a redis:// URL. */
export function hostAndPort(url: string): [string, number] {
  const { hostname, port } = new URL(url);
  return [hostname, Number(port || 6379)];
}
