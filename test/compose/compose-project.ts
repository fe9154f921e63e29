import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** The repository root: docker-compose.yml and the Dockerfile under test. */
export const ROOT = resolve(__dirname, '../..');

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion (no shell), with a deadline: past it the command is killed and the run
 * fails. A non-zero exit fails too, with what the command printed, unless `allowFailure` is set.
 */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number; allowFailure?: boolean },
): Promise<CommandRun> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${command} ${args.join(' ')}: no answer within ${options.timeoutMs / 1000} s\n${tail(stdout)}\n${tail(stderr)}`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { code: code ?? -1, stdout, stderr };
      if (result.code !== 0 && !options.allowFailure) {
        fail(new Error(`${command} ${args.join(' ')} exited with ${result.code}\n${tail(stdout)}\n${tail(stderr)}`));
      } else {
        done(result);
      }
    });
  });
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}

/**
 * One compose project of docker-compose.yml under a name of its own, so it shares the engine with
 * anything else. COMPOSE_COMMAND picks the command (default `docker-compose`, e.g. `docker compose`).
 */
export class ComposeProject {
  readonly name = `apidirtest${randomBytes(4).toString('hex')}`;
  private readonly command: string[] = (process.env.COMPOSE_COMMAND ?? 'docker-compose').split(' ').filter(Boolean);

  constructor(private readonly env: Record<string, string>) {}

  compose(args: string[], timeoutMs = 120_000, allowFailure = false): Promise<CommandRun> {
    const [command, ...prefix] = this.command;
    const env: NodeJS.ProcessEnv = { ...process.env, ...this.env };
    delete env.COMPOSE_PROJECT_NAME;
    delete env.COMPOSE_FILE;
    delete env.COMPOSE_PROFILES;
    return run(
      command,
      [...prefix, '--project-name', this.name, '--project-directory', ROOT, '--file', resolve(ROOT, 'docker-compose.yml'), ...args],
      { env, timeoutMs, allowFailure },
    );
  }

  /** Container ids of a service (running or not), in replica order; asks the engine directly, which is quicker than compose. */
  async containers(service: string): Promise<string[]> {
    const rows = await docker([
      'ps', '--all', '--no-trunc',
      '--filter', `label=com.docker.compose.project=${this.name}`,
      '--filter', `label=com.docker.compose.service=${service}`,
      '--filter', 'label=com.docker.compose.oneoff=False',
      '--format', '{{.ID}} {{.Label "com.docker.compose.container-number"}}',
    ]);
    return rows
      .split('\n')
      .filter(Boolean)
      .map((row) => row.split(' '))
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map(([id]) => id);
  }

  /** The host port a replica's container port is published on. */
  async hostPort(service: string, index: number, containerPort: number): Promise<number> {
    const out = (await this.compose(['port', '--index', String(index), service, String(containerPort)])).stdout.trim();
    const port = Number(out.slice(out.lastIndexOf(':') + 1));
    if (!Number.isInteger(port) || port <= 0) throw new Error(`${service} #${index}: no published port for ${containerPort} (${out})`);
    return port;
  }

  /** redis-cli inside the redis service's container; the reply as plain text, one line per element. */
  async redisCli(...args: string[]): Promise<string> {
    const [redis] = await this.containers('redis');
    if (!redis) throw new Error('no redis container');
    return (await docker(['exec', redis, 'redis-cli', '--raw', ...args])).replace(/\n$/, '');
  }
}

export async function docker(args: string[], timeoutMs = 60_000): Promise<string> {
  return (await run(process.env.DOCKER ?? 'docker', args, { timeoutMs })).stdout.trim();
}

export function inspect(container: string, format: string): Promise<string> {
  return docker(['inspect', '--format', format, container]);
}

/** An error that ends a waitFor at once instead of being retried. */
export class Fatal extends Error {}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs` with the last reason. */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, intervalMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = 'never checked';
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
      last = 'not yet';
    } catch (error) {
      if (error instanceof Fatal) throw error;
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s (last: ${last})`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export async function getJson(url: string) {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, etag: response.headers.get('etag'), contentType: response.headers.get('content-type'), body, text };
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '0.0.0.0', () => server.close(() => done(true)));
  });
}

/** `count` consecutive host ports that nothing listens on now, as `first-last` (a compose port range). */
export async function freePortRange(count: number): Promise<{ first: number; last: number; spec: string }> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 12_000);
    const ports = Array.from({ length: count }, (_, i) => first + i);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) {
      const last = first + count - 1;
      return { first, last, spec: `${first}-${last}` };
    }
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

/** Runs one phase of the test, printing how long it took, and records it for the summary. */
export class PhaseClock {
  readonly phases: { name: string; seconds: number; ok: boolean }[] = [];

  private lastMark = Date.now();

  /** Prints how long the current phase's last step took (not counted in the summary). */
  mark(step: string): void {
    const now = Date.now();
    process.stderr.write(`[compose]   ${step}: ${((now - this.lastMark) / 1000).toFixed(1)} s\n`);
    this.lastMark = now;
  }

  async time<T>(name: string, action: () => Promise<T>): Promise<T> {
    const started = Date.now();
    this.lastMark = started;
    let ok = false;
    try {
      const result = await action();
      ok = true;
      return result;
    } finally {
      const seconds = (Date.now() - started) / 1000;
      this.phases.push({ name, seconds, ok });
      process.stderr.write(`[compose] ${name}: ${seconds.toFixed(1)} s${ok ? '' : ' (failed)'}\n`);
    }
  }

  summary(): string {
    const total = this.phases.reduce((sum, p) => sum + p.seconds, 0);
    const width = Math.max(...this.phases.map((p) => p.name.length), 5);
    const rows = this.phases.map((p) => `  ${p.name.padEnd(width)}  ${p.seconds.toFixed(1).padStart(6)} s${p.ok ? '' : '  FAILED'}`);
    return [`[compose] phases:`, ...rows, `  ${'total'.padEnd(width)}  ${total.toFixed(1).padStart(6)} s`].join('\n');
  }
}
