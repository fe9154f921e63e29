import { ChildProcess, spawn } from 'node:child_process';
import { freePort } from './harness';

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote (stdout and stderr) so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** The built service (`node dist/src/main.js`) as a process of its own, once it says it is serving. */
export async function startServiceProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], { env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1' } });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      if (!output.includes('serving on')) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before serving:\n${output}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** Log lines at level error or above (pino levels 50, 60), and any stack trace. */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => /"level":(50|60)/.test(line) || /\n?\s+at .+\(.+:\d+:\d+\)/.test(line) || /\\n\s+at /.test(line));
}
