import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { storedBody, StoredBody } from '../http/stored-body';

/**
 * The pages' own static files: one stylesheet, one script (copy buttons, search as you type) and the
 * icon. They sit beside this file in `assets/` (the build copies them to `dist/`), are read once, and are
 * sent like every body: ETag, 304, compression.
 */
export const PAGE_ASSETS: Record<string, string> = {
  'site.css': 'text/css; charset=utf-8',
  'site.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

const loaded = new Map<string, StoredBody>();

export function pageAsset(name: string): StoredBody | null {
  if (!Object.hasOwn(PAGE_ASSETS, name)) return null;
  let asset = loaded.get(name);
  if (!asset) {
    asset = storedBody(readFileSync(join(__dirname, 'assets', name), 'utf8'));
    loaded.set(name, asset);
  }
  return asset;
}
