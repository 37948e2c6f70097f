// Issue 13, suite 5: load. N simulated shopkeepers (default 200) go through the whole API journey
// (phone proof to password) all at once, on a freshly started BUILT server with the simulators at
// zero latency: on PGlite, and on a throw-away PostgreSQL database when DATABASE_URL is set.
// Prints per database: journeys completed, journeys per second, wall time, p50/p95/p99 per step,
// the error rate (errors by status), the server's memory (peak, right after, and after 12 s idle),
// and the records check: the database read directly after the run (PGlite: server stopped, data
// dir opened) — one user per acknowledged journey with its tax info, address, business, consent,
// bureau query, decision and password, nothing missing, no duplicates. Exits non-zero on any error
// or lost record, or when the PGlite server holds more than 300 MB once idle after the journeys
// (issue 14's goal; docs/PERFORMANCE.md).
//
//   npm run load [-- --journeys N]
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  assertBuilt,
  cedula,
  client,
  freePort,
  HttpError,
  journey,
  journeyRecords,
  journeySetup,
  JOURNEY_ENV,
  peakRssMiB,
  rssMiB,
  percentile,
  REGISTRATION_STEPS,
  startServer,
  stopServer,
  tally,
  throwAwayPostgres,
  waitReady,
} from './harness.mjs';

const { values: args } = parseArgs({ options: { journeys: { type: 'string', default: '200' } } });
const JOURNEYS = Number(args.journeys);
if (!Number.isInteger(JOURNEYS) || JOURNEYS < 1 || JOURNEYS > 99_999)
  throw new Error('--journeys must be a whole number from 1 to 99999');

/** Two of the server's idle checks (apps/api/src/idle-gc.ts, every 5 s) and a margin. */
const IDLE_MS = 12_000;
/** Issue 14: RSS ≤ 300 MB (in MiB, as /proc reports it) after the journeys, on PGlite, once idle. */
const RSS_GOAL_MIB = 300e6 / 2 ** 20;

const STEPS = ['sms_send', 'outbox_read', 'sms_confirm', ...REGISTRATION_STEPS, 'waiting', 'password'];

/** When the bureau answer comes after BUREAU_SYNC_WAIT_MS, the journey polls as /waiting does (every 1 s here). */
const WAITING = { intervalMs: 1000, maxTries: 120 };

/** Zero-latency simulators; the workers' own timers stay as configured. */
const LOAD_ENV = { ...JOURNEY_ENV, BUREAU_LATENCY_MS: '0', IDENTITY_SIMULATOR_DELAY_MS: '0' };

const phoneOf = (index) => `8095${String(index).padStart(6, '0')}`;
const taxIdOf = (index) => cedula(`41${String(index).padStart(8, '0')}`);

/** A client that records every request's status (or 'network') and duration by step. */
function recordingClient(baseUrl, record) {
  const call = client(baseUrl);
  return async (method, path, options) => {
    try {
      const answer = await call(method, path, options);
      record.statuses.push(200);
      return answer;
    } catch (error) {
      record.statuses.push(error instanceof HttpError ? error.status : 'network');
      throw error;
    }
  };
}

async function runOnce(label, env) {
  const baseUrl = `http://${env.HOST}:${env.PORT}`;
  const server = startServer(env);
  const record = { statuses: [] };
  let peakRss;
  try {
    await waitReady(baseUrl, server);
    const setup = await journeySetup(client(baseUrl));
    const startupRss = peakRssMiB(server.pid);
    const call = recordingClient(baseUrl, record);
    const timings = Object.fromEntries(STEPS.map((step) => [step, []]));
    const timed = async (name, run) => {
      const started = performance.now();
      const answer = await run();
      timings[name].push(performance.now() - started);
      return answer;
    };
    // The outbox read is timed too (it is a request of every journey, not a product step).
    const timedCall = (method, path, options) =>
      path.startsWith('/dev/outbox')
        ? timed('outbox_read', () => call(method, path, options))
        : call(method, path, options);

    const started = performance.now();
    const finished = [];
    const results = await Promise.allSettled(
      Array.from({ length: JOURNEYS }, async (_, index) => {
        const done = await journey({
          call: timedCall,
          setup,
          index,
          step: timed,
          waiting: WAITING,
          phone: phoneOf(index),
          taxId: taxIdOf(index),
        });
        finished.push(performance.now());
        return { ...done, index };
      }),
    );
    const wallSeconds = (Math.max(...finished, performance.now()) - started) / 1000;
    const acknowledged = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
    const failures = results.filter((result) => result.status === 'rejected').map((result) => result.reason);

    // Every acknowledged application's audit chain, through the operations API, before stopping.
    const ops = client(baseUrl);
    let brokenChains = 0;
    for (const { id } of acknowledged) {
      const audit = await ops('GET', `/ops/v1/audit/${id}`, {
        headers: { 'x-api-key': 'provee-dev-ops-key-not-for-production' },
      });
      if (!audit.data.chain.valid) brokenChains += 1;
    }
    peakRss = peakRssMiB(server.pid);
    const rssAfter = rssMiB(server.pid);
    // What the idle server keeps: it hands a burst's garbage back once idle (apps/api idle-gc.ts).
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const rssIdle = rssMiB(server.pid);
    await stopServer(server);
    if (server.exitCode !== 0)
      throw new Error(`${label}: the server exited with ${server.exitCode ?? server.signalCode}`);
    return {
      label,
      timings,
      wallSeconds,
      acknowledged,
      failures,
      statuses: record.statuses,
      peakRss,
      rssAfter,
      rssIdle,
      startupRss,
      brokenChains,
    };
  } finally {
    await stopServer(server);
  }
}

/**
 * The records check: every acknowledged journey complete in the database (journeyRecords), one user
 * per phone, and no user the journeys did not acknowledge (the database is fresh).
 */
async function checkRecords(query, acknowledged) {
  const { rows, problems } = await journeyRecords(
    query,
    acknowledged.map(({ id, index }) => ({ id, phoneE164: `+1${phoneOf(index)}`, label: `journey ${index}` })),
  );
  const perPhone = new Map();
  for (const row of rows) perPhone.set(row.phone_e164, (perPhone.get(row.phone_e164) ?? 0) + 1);
  const duplicated = [...perPhone].filter(([, count]) => count > 1);
  if (duplicated.length > 0) problems.push(`${duplicated.length} phones with more than one user`);
  const acknowledgedIds = new Set(acknowledged.map((done) => done.id));
  const unacknowledged = rows.filter((row) => !acknowledgedIds.has(row.id)).length;
  return { users: rows.length, problems, unacknowledged };
}

async function readPglite(dataDir, acknowledged) {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(join(dataDir, 'pglite'));
  try {
    return await checkRecords(async (text) => (await db.query(text)).rows, acknowledged);
  } finally {
    await db.close();
  }
}

async function readPostgres(pg, acknowledged) {
  const sql = pg.connect();
  try {
    return await checkRecords((text) => sql.unsafe(text), acknowledged);
  } finally {
    await sql.end();
  }
}

const ms = (value) => (Number.isFinite(value) ? value.toFixed(0) : '—').padStart(8);

function report(run, records, { rssGoal = false } = {}) {
  const completed = run.acknowledged.length;
  const errors = run.statuses.filter((status) => status !== 200);
  console.log(`\n== ${run.label} ==`);
  console.log(
    `journeys completed ${completed} / ${JOURNEYS} in ${run.wallSeconds.toFixed(1)} s wall: ${(completed / run.wallSeconds).toFixed(1)} journeys/s, ${(run.statuses.length / run.wallSeconds).toFixed(0)} requests/s`,
  );
  console.log(
    [
      'step (ms)'.padEnd(16),
      'n'.padStart(6),
      'p50'.padStart(8),
      'p95'.padStart(8),
      'p99'.padStart(8),
      'max'.padStart(8),
    ].join(''),
  );
  for (const step of STEPS) {
    const values = run.timings[step];
    if (step === 'waiting' && values.length === 0) continue;
    console.log(
      [
        step.padEnd(16),
        String(values.length).padStart(6),
        ms(percentile(values, 50)),
        ms(percentile(values, 95)),
        ms(percentile(values, 99)),
        ms(Math.max(...values)),
      ].join(''),
    );
  }
  console.log(
    `${run.timings.waiting.length} journeys went to /waiting (the bureau's answer came after BUREAU_SYNC_WAIT_MS; they polled every ${WAITING.intervalMs} ms)`,
  );
  console.log(
    `error rate ${((100 * errors.length) / Math.max(1, run.statuses.length)).toFixed(2)} % (${errors.length} of ${run.statuses.length} requests; errors by status: ${tally(errors)})`,
  );
  for (const failure of run.failures.slice(0, 5)) console.log(`  failed: ${failure?.message ?? failure}`);
  console.log(
    run.peakRss === undefined
      ? 'server peak RSS unknown'
      : `server peak RSS ${run.peakRss.toFixed(0)} MiB (${run.startupRss.toFixed(0)} MiB already at start-up, before the journeys); RSS after the journeys ${run.rssAfter?.toFixed(0)} MiB, ${run.rssIdle?.toFixed(0)} MiB after ${IDLE_MS / 1000} s idle${rssGoal ? ` (goal ≤ 300 MB = ${RSS_GOAL_MIB.toFixed(0)} MiB once idle)` : ''}`,
  );
  const lost = records.problems.length;
  console.log(
    `records check (database read directly): ${records.users} users, ${completed} acknowledged journeys, lost records ${lost}, users without an acknowledged journey ${records.unacknowledged}, broken audit chains ${run.brokenChains}`,
  );
  for (const problem of records.problems.slice(0, 10)) console.log(`  ${problem}`);
  return [
    errors.length > 0 && `${run.label}: ${errors.length} errors`,
    completed < JOURNEYS && `${run.label}: ${JOURNEYS - completed} journeys did not complete`,
    lost > 0 && `${run.label}: ${lost} lost records`,
    run.brokenChains > 0 && `${run.label}: ${run.brokenChains} broken audit chains`,
    rssGoal &&
      !(run.rssIdle <= RSS_GOAL_MIB) &&
      `${run.label}: RSS ${run.rssIdle?.toFixed(0)} MiB after ${IDLE_MS / 1000} s idle > 300 MB (${RSS_GOAL_MIB.toFixed(0)} MiB)`,
  ].filter(Boolean);
}

async function main() {
  assertBuilt();
  console.log(
    `Load: ${JOURNEYS} journeys at once (phone proof → password), simulators at zero latency; ${availableParallelism()} cores, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' / ')}`,
  );
  const missed = [];

  const dataDir = mkdtempSync(join(tmpdir(), 'provee-load-'));
  try {
    const env = { ...LOAD_ENV, PORT: String(await freePort()), DATA_DIR: dataDir };
    const run = await runOnce('PGlite (embedded, own thread)', env);
    missed.push(...report(run, await readPglite(dataDir, run.acknowledged), { rssGoal: true }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (process.env.DATABASE_URL) {
    const pg = await throwAwayPostgres(process.env.DATABASE_URL, 'provee_load');
    const pgDataDir = mkdtempSync(join(tmpdir(), 'provee-load-pg-'));
    try {
      const env = { ...LOAD_ENV, PORT: String(await freePort()), DATA_DIR: pgDataDir, DATABASE_URL: pg.url };
      const run = await runOnce('PostgreSQL (throw-away database)', env);
      missed.push(...report(run, await readPostgres(pg, run.acknowledged)));
    } finally {
      rmSync(pgDataDir, { recursive: true, force: true });
      await pg.drop();
    }
  } else console.log('\n(DATABASE_URL not set: PostgreSQL skipped)');

  console.log(
    missed.length === 0
      ? '\nLoad: 0 errors, 0 lost records, memory within its goal.'
      : `\nLoad FAILED: ${missed.join('; ')}`,
  );
  process.exitCode = missed.length === 0 ? 0 : 1;
}

await main();
