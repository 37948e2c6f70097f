import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyInitialDatabase } from './initial-database.js';

const made: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'provee-initial-db-'));
  made.push(dir);
  return dir;
};

/** A built copy: a PGlite folder with its version file and a stale lock file. */
function builtCopy(): string {
  const from = folder();
  mkdirSync(join(from, 'pglite', 'base'), { recursive: true });
  writeFileSync(join(from, 'pglite', 'PG_VERSION'), '17\n');
  writeFileSync(join(from, 'pglite', 'base', 'table'), 'catalogue');
  writeFileSync(join(from, 'pglite', 'postmaster.pid'), '-42');
  return from;
}

describe('the database a first start copies (db/initial-database.ts)', () => {
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('a new data dir gets the built database, without its lock file and with no half copy left', () => {
    const from = builtCopy();
    const dataDir = join(folder(), 'data');
    expect(copyInitialDatabase(dataDir, from)).toBe(true);
    expect(readFileSync(join(dataDir, 'pglite', 'base', 'table'), 'utf8')).toBe('catalogue');
    expect(existsSync(join(dataDir, 'pglite', 'postmaster.pid'))).toBe(false);
    expect(readdirSync(dataDir)).toEqual(['pglite']);
  });

  it('a data dir with a database keeps it: nothing is copied over it', () => {
    const from = builtCopy();
    const dataDir = folder();
    mkdirSync(join(dataDir, 'pglite'));
    writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), '17\n');
    writeFileSync(join(dataDir, 'pglite', 'users'), 'the shopkeepers');
    expect(copyInitialDatabase(dataDir, from)).toBe(false);
    expect(readdirSync(join(dataDir, 'pglite')).sort()).toEqual(['PG_VERSION', 'users']);
  });

  it('a copy cut off before (an empty or half folder) is started over', () => {
    const from = builtCopy();
    const dataDir = folder();
    mkdirSync(join(dataDir, 'pglite'));
    mkdirSync(join(dataDir, 'pglite.copying'));
    writeFileSync(join(dataDir, 'pglite.copying', 'half'), '');
    expect(copyInitialDatabase(dataDir, from)).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['pglite']);
    expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
  });

  it('without a built copy the start creates its database as before', () => {
    expect(copyInitialDatabase(folder(), folder())).toBe(false);
  });
});
