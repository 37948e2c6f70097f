// Vitest global setup of the API suite on PGlite: one database prepared as every start prepares it
// (migrations, then the shipped catalogue), dumped once; each test database starts from a copy of it
// (about 1 s) instead of running initdb, the migrations and the seed again (about 7 s).
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { prepareDatabase } from '../prepare-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The prepared PGlite database as a tarball (see test-app.ts). */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const database = openDatabase({ dataDir: 'memory://' });
  await prepareDatabase(database);
  const file = join(tmpdir(), `provee-pglite-template-${randomBytes(6).toString('hex')}.tar`);
  if (!database.dump) throw new Error('the embedded database cannot be dumped');
  await writeFile(file, await database.dump());
  await database.close();
  project.provide('pgliteTemplate', file);
  return () => rm(file, { force: true });
}
