import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, Server as HttpsServer } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness';

/**
 * Local servers standing in for providers, one behaviour per host name, for the prober's tests. They
 * listen on 127.0.0.1 only; the prober reaches them through a table of names (LIVENESS_HOSTS) and an
 * allow-list of 127.0.0.1 (LIVENESS_ALLOW_ADDRESSES), neither of which the default settings have, so no
 * name is looked up and no request leaves the machine.
 *
 * - one HTTPS server with a certificate for *.stand-in.test, signed by an authority made for the run
 *   (trusted through LIVENESS_CA), answering by host name (see BEHAVIOURS);
 * - tls.stand-in.test: an HTTPS server with a self-signed certificate, which nothing trusts;
 * - refused.stand-in.test: a port nothing listens on;
 * - silent.stand-in.test: a server that accepts connections and never answers;
 * - nowhere.stand-in.test: a name the table does not hold (it does not resolve).
 */
export const DOMAIN = 'stand-in.test';

/** What the main server answers for each host name (the part before .stand-in.test). */
const BEHAVIOURS: Record<string, (req: IncomingMessage, res: ServerResponse, standIns: StandIns) => void> = {
  ok: (req, res) => (req.url!.startsWith('/api') || req.url!.endsWith('.json') ? json(res, 200, { ok: true }) : html(res, 200)),
  auth: (_req, res) => json(res, 401, { error: { message: 'missing API key' } }),
  html: (_req, res) => html(res, 200),
  error: (_req, res) => json(res, 503, { error: 'unavailable' }),
  gone: (_req, res) => html(res, 404),
  // A permanent move off the listing's domains.
  moved: (req, res) => redirect(res, 301, `https://elsewhere.example.org${req.url}`),
  // A temporary redirect to another host of the domains, one that resolves to a private address.
  sneaky: (req, res) => redirect(res, 302, `https://private.${DOMAIN}${req.url}`),
  // A redirect to itself, forever.
  loop: (_req, res, standIns) => redirect(res, 302, `https://loop.${DOMAIN}:${standIns.port}/again`),
  // Ten megabytes of JSON, of which the prober reads 64 KB.
  big: (_req, res, standIns) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < 10 * 1024 * 1024) {
        sent += chunk.length;
        standIns.bigBytesSent = sent;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
      res.end();
    };
    res.on('close', () => (standIns.bigClosedEarly = sent < 10 * 1024 * 1024));
    write();
  },
  // 503 until the test makes it answer.
  flaky: (_req, res, standIns) => (standIns.flakyAnswers ? json(res, 200, { ok: true }) : json(res, 503, { error: 'down for now' })),
};

export interface SeenRequest {
  host: string;
  path: string;
  headers: IncomingHttpHeaders;
  at: number;
}

export class StandIns {
  port = 0;
  tlsPort = 0;
  refusedPort = 0;
  silentPort = 0;
  /** Every request the stand-ins answered (the main server's and the self-signed one's handshakes aside). */
  readonly requests: SeenRequest[] = [];
  /** The most requests one host name had in flight at once. */
  maxInFlightPerHost = 0;
  flakyAnswers = false;
  bigBytesSent = 0;
  bigClosedEarly = false;
  /** Connections the silent server took. */
  silentConnections = 0;
  private inFlight = new Map<string, number>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'stand-ins-'));
  private servers: Array<HttpsServer | TcpServer> = [];
  private held: Socket[] = [];

  /** The authority that signed the main server's certificate (a PEM file for LIVENESS_CA). */
  get caFile(): string {
    return join(this.dir, 'ca.pem');
  }

  async start(): Promise<void> {
    this.makeCertificates();
    const read = (name: string) => readFileSync(join(this.dir, name));
    const main = createHttpsServer({ key: read('server.key'), cert: read('server.pem') }, (req, res) => this.answer(req, res));
    const selfSigned = createHttpsServer({ key: read('self.key'), cert: read('self.pem') }, (req, res) => this.answer(req, res));
    const silent = createTcpServer((socket) => {
      this.silentConnections++;
      this.held.push(socket);
      socket.on('error', () => undefined);
    });
    this.port = await listen(main);
    this.tlsPort = await listen(selfSigned);
    this.silentPort = await listen(silent);
    this.refusedPort = await freePort();
    this.servers = [main, selfSigned, silent];
  }

  /** https://<name>.stand-in.test:<its port><path>. */
  url(name: string, path = '/'): string {
    const port = name === 'tls' ? this.tlsPort : name === 'refused' ? this.refusedPort : name === 'silent' ? this.silentPort : this.port;
    return `https://${name}.${DOMAIN}:${port}${path}`;
  }

  /** LIVENESS_HOSTS: every stand-in name to 127.0.0.1 (private.stand-in.test to 10.0.0.1; nowhere.stand-in.test left out). */
  hostTable(): string {
    const names = [...Object.keys(BEHAVIOURS), 'tls', 'refused', 'silent'];
    return [...names.map((name) => `${name}.${DOMAIN}=127.0.0.1`), `private.${DOMAIN}=10.0.0.1`].join(',');
  }

  requestsTo(name: string): SeenRequest[] {
    return this.requests.filter((r) => r.host.startsWith(`${name}.`));
  }

  async stop(): Promise<void> {
    for (const socket of this.held) socket.destroy();
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            (server as HttpsServer).closeAllConnections?.();
            server.close(() => resolve());
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const host = String(req.headers.host ?? '').split(':')[0];
    this.requests.push({ host, path: req.url ?? '', headers: req.headers, at: Date.now() });
    const now = (this.inFlight.get(host) ?? 0) + 1;
    this.inFlight.set(host, now);
    this.maxInFlightPerHost = Math.max(this.maxInFlightPerHost, now);
    res.on('close', () => this.inFlight.set(host, (this.inFlight.get(host) ?? 1) - 1));
    const behaviour = BEHAVIOURS[host.slice(0, host.indexOf('.'))] ?? BEHAVIOURS.ok;
    behaviour(req, res, this);
  }

  private makeCertificates(): void {
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: this.dir, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=liveness stand-ins CA');
    run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${DOMAIN}`);
    writeFileSync(join(this.dir, 'ext.cnf'), `subjectAltName=DNS:*.${DOMAIN},DNS:${DOMAIN}\n`);
    run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext.cnf');
    run('req', '-x509', ...ec, '-keyout', 'self.key', '-out', 'self.pem', '-days', '2', '-subj', `/CN=tls.${DOMAIN}`, '-addext', `subjectAltName=DNS:tls.${DOMAIN}`);
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function html(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><head><title>A page</title></head><body><p>Welcome</p></body></html>');
}

function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location }).end();
}

function listen(server: HttpsServer | TcpServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}
