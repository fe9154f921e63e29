import { spawn } from 'node:child_process';
import { REDIS_URL } from './harness';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built ingest CLI (`node dist/ingest/main.js`) as editors do, in a namespace of its own. */
export function runCli(namespace: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/ingest/main.js', ...args], {
      env: { ...process.env, REDIS_URL, REDIS_NAMESPACE: namespace, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
