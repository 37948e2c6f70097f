// npm run perf:scale: do the reads by user stay flat as users grow? On PGlite and (when DATABASE_URL
// is set) PostgreSQL, one shopkeeper goes through the real journey on the BUILT server, then the
// users table is filled in bulk (SQL generate_series, with the server stopped on PGlite) to 1,000
// and then 100,000 users; at each size autocannon measures that shopkeeper's user detail
// (GET /api/v1/users/:id/SK) and the lookup by phone (GET /api/v1/users?phone_number=…) for
// --seconds (default 10) at 10 connections. Goal: p99 at 100,000 within 1.5× of p99 at 1,000.
// Exits non-zero when a p99 grows more, or a request fails. Needs a build (`npm run build`).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  assertBuilt,
  cedula,
  client,
  databasesToRun,
  DB_OPTION,
  exitIfBelowGoal,
  freePort,
  journey,
  journeySetup,
  JOURNEY_ENV,
  startServer,
  stopServer,
  throwAwayPostgres,
  waitReady,
} from '../reliability/harness.mjs';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    db: DB_OPTION,
  },
});
const SIZES = [1_000, 100_000];
const GOAL_GROWTH = 1.5;
/** p99s under this count as this: autocannon measures whole milliseconds, and 1 → 2 ms is noise. */
const FLOOR_MS = 5;
const PHONE = '8095550001';

/** Adds users up to `total` (phones +1849…, at the tax-id step), in one statement. */
const fillUsers = (total) => `
  insert into users (phone_e164, next_step)
  select '+1849' || lpad(g::text, 7, '0'), 'TAX_ACCOUNT'
  from generate_series((select count(*) from users), ${total - 1}) g
  on conflict do nothing`;

async function measure(baseUrl, user) {
  const headers = { authorization: `Bearer ${user.token}` };
  const result = {};
  for (const [name, path] of [
    ['user detail', `/api/v1/users/${user.id}/SK`],
    ['lookup by phone', `/api/v1/users?phone_number=${PHONE}`],
  ]) {
    await autocannon({ url: `${baseUrl}${path}`, headers, connections: 10, duration: 2 });
    const run = await autocannon({
      url: `${baseUrl}${path}`,
      headers,
      connections: 10,
      duration: Number(args.seconds),
    });
    result[name] = {
      rps: run.requests.average,
      p50: run.latency.p50,
      p99: run.latency.p99,
      failed: run.non2xx + run.errors,
    };
  }
  return result;
}

async function scaleDatabase(kind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-scale-'));
  const pg = kind === 'postgres' ? await throwAwayPostgres(process.env.DATABASE_URL, 'provee_scale') : undefined;
  const port = await freePort();
  const env = {
    ...JOURNEY_ENV,
    LOG_LEVEL: 'info',
    // The reads are measured, not the per-IP limit: on PostgreSQL the two reads pass 100,000
    // requests (JOURNEY_ENV's ceiling) within the minute.
    RATE_LIMIT_PER_MINUTE: '100000000',
    PORT: String(port),
    DATA_DIR: dataDir,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const serve = async () => {
    const server = startServer(env, { stdio: ['ignore', 'ignore', 'inherit'] });
    await waitReady(baseUrl, server);
    return server;
  };
  /** Runs `sql` on the database (PGlite: the server must have stopped) and answers the user count. */
  const run = async (sql) => {
    if (pg) {
      const db = pg.connect();
      try {
        await db.unsafe(sql);
        return Number((await db`select count(*)::int as n from users`)[0].n);
      } finally {
        await db.end();
      }
    }
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    // The users' name index is a trigram one (migration 0033): inserting needs the extension.
    const db = new PGlite(join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    try {
      await db.exec(sql);
      return Number((await db.query('select count(*)::int as n from users')).rows[0].n);
    } finally {
      await db.close();
    }
  };
  const results = [];
  try {
    let server = await serve();
    const call = client(baseUrl);
    const user = await journey({ call, setup: await journeySetup(call), phone: PHONE, taxId: cedula('4020000001') });
    for (const size of SIZES) {
      await stopServer(server);
      const users = await run(fillUsers(size));
      server = await serve();
      results.push({ users, ...(await measure(baseUrl, user)) });
    }
    await stopServer(server);
  } finally {
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

assertBuilt();
const failures = [];
for (const kind of databasesToRun(args.db)) {
  const results = await scaleDatabase(kind);
  console.log(
    `\n${kind}: machine load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores, ${args.seconds} s per read`,
  );
  console.table(
    results.flatMap(({ users, ...reads }) =>
      Object.entries(reads).map(([read, r]) => ({
        users,
        read,
        'req/s': Math.round(r.rps),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        failed: r.failed,
      })),
    ),
  );
  const [small, large] = results;
  for (const read of ['user detail', 'lookup by phone']) {
    const growth = Math.max(FLOOR_MS, large[read].p99) / Math.max(FLOOR_MS, small[read].p99);
    console.log(
      `${read}: p99 ${small[read].p99} → ${large[read].p99} ms (${growth.toFixed(2)}×, goal ≤ ${GOAL_GROWTH}×)`,
    );
    if (growth > GOAL_GROWTH) failures.push(`${kind} ${read}: p99 grew ${growth.toFixed(2)}×`);
    for (const r of [small, large])
      if (r[read].failed > 0) failures.push(`${kind} ${read}: ${r[read].failed} failed at ${r.users} users`);
  }
}
exitIfBelowGoal(failures);
console.log('\np99 stays within the goal as users grow');
