import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The compiled script of a worker thread, given the folder of the module that starts it (`__dirname`) and
 * the script's name. Run from TypeScript sources (the test runner), this is the build's copy under dist/,
 * which `npm test` compiles first.
 */
export function workerScript(moduleDir: string, name: string): string {
  const beside = join(moduleDir, `${name}.js`);
  if (existsSync(beside)) return beside;
  const root = resolve(__dirname, '../..');
  const compiled = join(root, 'dist', relative(root, moduleDir), `${name}.js`);
  if (existsSync(compiled)) return compiled;
  throw new Error(`worker script ${name} not found (${beside}); run npm run build`);
}
