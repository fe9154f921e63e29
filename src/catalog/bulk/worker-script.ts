import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGE_ROOT } from '../../config/app-config';

/**
 * The compiled script of a worker thread, given the folder of the module that starts it (`__dirname`) and
 * the script's name. Run from TypeScript sources (the test runner), this is the build's copy under dist/,
 * which `npm test` compiles first.
 */
export function workerScript(moduleDir: string, name: string): string {
  const beside = join(moduleDir, `${name}.js`);
  if (existsSync(beside)) return beside;
  const compiled = join(PACKAGE_ROOT, 'dist', relative(PACKAGE_ROOT, moduleDir), `${name}.js`);
  if (existsSync(compiled)) return compiled;
  throw new Error(`worker script ${name} not found (${beside}); run npm run build`);
}
