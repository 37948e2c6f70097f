import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { API_ROOT } from '../paths.js';

/**
 * The embedded database as a first start leaves it (migrations, the shipped catalogue), made by
 * `npm run build` (scripts/build.mjs runs dist/initial-database.js): a first start copies these
 * files instead of creating a database (~5 s of initdb and migrations on this machine) and loading
 * the catalogue (~1 s, and a WebAssembly heap that grows for good). The copy is an ordinary start
 * then: pending migrations and a newer shipped catalogue are applied as on any start.
 */
export const INITIAL_DATABASE_DIR = join(API_ROOT, 'dist/initial-database');

/** Where PGlite keeps its files inside a data directory (db/client.ts). */
const pgliteFiles = (dataDir: string) => join(resolve(dataDir), 'pglite');

/**
 * On the first start of `dataDir` (no database in it yet), its database is the built one, copied:
 * into a temporary folder first and renamed, so a start cut off mid-copy leaves no half database.
 * Answers whether it copied; without a built copy the start creates the database as before.
 */
export function copyInitialDatabase(dataDir: string, from = INITIAL_DATABASE_DIR): boolean {
  const target = pgliteFiles(dataDir);
  const source = pgliteFiles(from);
  if (existsSync(join(target, 'PG_VERSION')) || !existsSync(join(source, 'PG_VERSION'))) return false;
  mkdirSync(dirname(target), { recursive: true });
  const copying = `${target}.copying`;
  rmSync(copying, { recursive: true, force: true });
  cpSync(source, copying, { recursive: true });
  rmSync(join(copying, 'postmaster.pid'), { force: true });
  rmSync(target, { recursive: true, force: true });
  renameSync(copying, target);
  return true;
}
