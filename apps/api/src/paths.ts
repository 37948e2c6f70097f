import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/api, found from this file whether it runs from src/ (tests) or dist/ (the built server). */
function findApiRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json of apps/api not found');
    dir = parent;
  }
  return dir;
}

export const API_ROOT = findApiRoot();
export const MIGRATIONS_DIR = join(API_ROOT, 'src/db/migrations');
export const DEFAULT_WEB_DIST_DIR = resolve(API_ROOT, '../web/dist');
/** The Dominican catalogue shipped with the product (generated; see modules/catalog/do-catalog.ts). */
export const DO_CATALOG_FILE = join(API_ROOT, 'src/modules/catalog/seed/do-catalog.json.gz');

/**
 * The API, operations, partner API and development paths (a URL or a path); everything else is the
 * SPA and its files (the guarantor's screens live under /partner/SK/…, the partner API under /partner/v1).
 */
export const API_PATH = /^\/(api|ops|dev|partner\/v\d+)(\/|\?|$)/;

/** The partner API's paths: their own limits (modules/partner/partner-auth.ts), not the global guard's. */
export const PARTNER_API_PATH = /^\/partner\/v\d+(\/|\?|$)/;
