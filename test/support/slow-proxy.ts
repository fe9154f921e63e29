import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of Redis whose replies can be held back (`delayMs`), to make Redis slow for one
 * service without slowing the Redis every other test shares. Order is kept: a chunk never overtakes the
 * one before it.
 */
export class SlowProxy {
  delayMs = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly held = new Set<NodeJS.Timeout>();

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts listening on a free loopback port; resolves with the Redis URL to give the service. */
  async start(): Promise<string> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      this.sockets.add(client).add(upstream);
      let last = 0;
      client.on('data', (chunk) => upstream.write(chunk));
      upstream.on('data', (chunk) => {
        const at = Math.max(Date.now() + this.delayMs, last);
        last = at;
        const timer = setTimeout(() => {
          this.held.delete(timer);
          if (client.writable) client.write(chunk);
        }, at - Date.now());
        this.held.add(timer);
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

  async stop(): Promise<void> {
    for (const timer of this.held) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The host and port of a redis:// URL. */
export function hostAndPort(url: string): [string, number] {
  const { hostname, port } = new URL(url);
  return [hostname, Number(port || 6379)];
}
