import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { REDIS_URL } from './harness';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI, wherever the test runs it from. */
export const CLI_SCRIPT = resolve(__dirname, '../../dist/ingest/main.js');

/** Runs the built ingest CLI (`node dist/ingest/main.js`) as editors do, in a namespace of its own (from `cwd`, if given). */
export function runCli(namespace: string, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_SCRIPT, ...args], {
      env: { ...process.env, REDIS_URL, REDIS_NAMESPACE: namespace, ...env },
      cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
