import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './harness';

/** A redis-server of a test's own, on a free loopback port, for settings the shared one does not have. */
export interface RedisServer {
  port: number;
  child: ChildProcess;
  /** Everything it logged so far. */
  output(): string;
  /** Resolves once its log matches `pattern`. */
  logged(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` with `args` (its log on stdout), in `dir`, without persistence unless the args
 * ask for it; resolves once it logs `ready` (by default, that it accepts connections).
 */
export async function startRedisServer(dir: string, args: string[], options: { port?: number; ready?: RegExp } = {}): Promise<RedisServer> {
  mkdirSync(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--logfile', '', ...args]);
  let output = '';
  const waiting = new Set<{ pattern: RegExp; resolve: () => void }>();
  const onData = (data: Buffer) => {
    output += data;
    for (const wait of waiting) {
      if (wait.pattern.test(output)) {
        waiting.delete(wait);
        wait.resolve();
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logged = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(output)) return resolve();
      waiting.add({ pattern, resolve });
      void exited.then(() => reject(new Error(`redis-server exited before logging ${pattern}:\n${output}`)));
    });
  await logged(options.ready ?? /Ready to accept connections/);
  return {
    port,
    child,
    output: () => output,
    logged,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/**
 * A certificate authority and a server certificate it signed, for 127.0.0.1 and localhost, made with
 * openssl in `dir`. Returns the paths.
 */
export function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('ca.key'), '-out', path('ca.crt'), '-days', '2', '-subj', '/CN=api-directory test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('redis.key'), '-out', path('redis.csr'), '-subj', '/CN=localhost');
  writeFileSync(path('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl('x509', '-req', '-in', path('redis.csr'), '-CA', path('ca.crt'), '-CAkey', path('ca.key'), '-CAcreateserial', '-out', path('redis.crt'), '-days', '2', '-extfile', path('san.ext'));
  return { ca: path('ca.crt'), cert: path('redis.crt'), key: path('redis.key') };
}
