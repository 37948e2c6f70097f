// npm run perf:backoffice:pglite: the applications CSV on the embedded database (issue 35), against
// PGlite's own limit. PGlite has no COPY stream to a client: the product writes the CSV as keyset
// pages of ready lines (apps/api/src/modules/backoffice/exports.store.ts, pageOfRows). Its limit is
// the same rows written by PGlite's own `COPY (select …) TO '/dev/blob' (FORMAT csv)` in this
// process, with the product's database thread's engine settings (V8's baseline compiler only,
// shared_buffers 16 MB: pglite-worker.ts).
//
// The BUILT server migrates a throw-away data directory and stops; this script opens that directory
// with PGlite, seeds --applications applications (default 100,000) with perf:backoffice's SQL (without
// their audit events: the export reads applications), takes the limit (best of 3) and closes it; the
// server starts again on it, and an analyst downloads the CSV of the year three times per encoding
// (plain, gzip, brotli). Goal ≤ 2× the limit. Exits 1 when a goal is missed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { freePort, JOURNEY_ENV, SERVER_JS, startServer, stopServer, waitReady } from '../reliability/harness.mjs';
import { staffLogin } from '../staff-login.mjs';
import { csvSelect, day, goalRecorder, measureCsv, SEED } from './backoffice-data.mjs';
import { createStaffAccount, fetchJson } from './server.mjs';

// As the product's database thread (pglite-worker.ts): set before PGlite compiles PostgreSQL.
setFlagsFromString('--liftoff-only');
const { PGlite } = await import('@electric-sql/pglite');
const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');

const { values: args } = parseArgs({ options: { applications: { type: 'string', default: '100000' } } });
const APPLICATIONS = Number(args.applications);
const CSV_RATIO_GOAL = 2;
const ANALYST = {
  email: 'analista.pglite@prestamista.example',
  role: 'analyst',
  name: 'Analista PGlite',
  password: 'perf-backoffice-pglite-analyst-password',
};

if (!existsSync(SERVER_JS))
  throw new Error('The API is not built: run `npm run perf:backoffice:pglite` (it builds it first).');
const dir = mkdtempSync(join(tmpdir(), 'provee-perf-backoffice-pglite-'));
const env = { ...JOURNEY_ENV, DATA_DIR: join(dir, 'data'), COUNTRY: 'do' };
const { record, report } = goalRecorder();

let server = null;
async function serve() {
  const port = await freePort();
  server = startServer({ ...env, PORT: String(port) }, { stdio: ['ignore', 'ignore', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(baseUrl, server);
  return baseUrl;
}

const [from, to] = [day(365), day(0)];
let seedMs;
let limits;
let bytes;
try {
  // The schema, as a fresh start makes it; the analyst while no server holds the directory.
  await serve();
  await stopServer(server);
  createStaffAccount(env, ANALYST);

  const pg = new PGlite(join(env.DATA_DIR, 'pglite'), {
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
    extensions: { pg_trgm },
  });
  try {
    let started = performance.now();
    await pg.transaction(async (tx) => {
      for (const statement of SEED({ count: APPLICATIONS, first: 1, fromDays: 365, toDays: 0, events: false }))
        await tx.exec(statement);
    });
    await pg.exec('vacuum analyze users, businesses, bureau_consents, application_milestones');
    seedMs = performance.now() - started;
    console.error(`seeded ${APPLICATIONS} applications in ${(seedMs / 1000).toFixed(1)} s`);
    limits = [];
    for (let i = 0; i < 3; i++) {
      started = performance.now();
      const { blob } = await pg.query(`copy (${csvSelect(from, to)}) to '/dev/blob' with (format csv)`);
      limits.push(performance.now() - started);
      bytes = blob.size;
    }
  } finally {
    await pg.close();
  }

  const baseUrl = await serve();
  const cookie = await staffLogin(ANALYST)(fetchJson(baseUrl));
  await measureCsv({
    baseUrl,
    path: `/api/backoffice/exports/applications.csv?from=${from}&to=${to}`,
    cookie,
    limitMs: Math.min(...limits),
    limitName: `PGlite's COPY to /dev/blob (${(bytes / 1e6).toFixed(1)} MB; of 3: ${limits.map((l) => Math.round(l)).join(', ')})`,
    record,
    goalRatio: CSV_RATIO_GOAL,
  });
} finally {
  if (server) await stopServer(server);
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\nThe back office on PGlite: ${APPLICATIONS.toLocaleString('en-US')} applications seeded in ${(seedMs / 1000).toFixed(1)} s`,
);
report(`npm run perf:backoffice:pglite -- --applications ${APPLICATIONS}`);
