import { ChildProcess, spawn } from 'node:child_process';
import { freePort } from './harness';

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote (stdout and stderr) so far. */
  output(): string;
  /** Resolves once the output matches `pattern`; rejects if the process exits first or after `timeoutMs`. */
  logged(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** The built service (`node dist/src/main.js`) as a process of its own, started (not waited for). */
export async function spawnServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], { env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1' } });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logged = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`did not log ${pattern} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const check = () => pattern.test(output) && finish();
      const finish = (error?: Error) => {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        if (error) reject(error);
        else resolve();
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      void exited.then((code) => finish(new Error(`exited with ${code} before logging ${pattern}:\n${output}`)));
      check();
    });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, logged, exited };
}

/** The built service (`node dist/src/main.js`) as a process of its own, once it says it is serving. */
export async function startServiceProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const service = await spawnServiceProcess(env);
  await service.logged(/serving on/, timeoutMs);
  return service;
}

/** Log lines at level error or above (pino levels 50, 60), and any stack trace. */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => /"level":(50|60)/.test(line) || /\n?\s+at .+\(.+:\d+:\d+\)/.test(line) || /\\n\s+at /.test(line));
}
