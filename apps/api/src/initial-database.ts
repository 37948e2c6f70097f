// Build step (scripts/build.mjs): the embedded database a first start copies (db/initial-database.ts),
// prepared exactly as a start prepares one: the migrations, then the shipped catalogue.
import { rmSync } from 'node:fs';
import { openDatabase } from './db/client.js';
import { INITIAL_DATABASE_DIR } from './db/initial-database.js';
import { prepareDatabase } from './prepare-database.js';

rmSync(INITIAL_DATABASE_DIR, { recursive: true, force: true });
const database = openDatabase({ dataDir: INITIAL_DATABASE_DIR });
await prepareDatabase(database);
// A clean close: the files are consistent, nothing to recover when a first start opens the copy.
await database.close();
