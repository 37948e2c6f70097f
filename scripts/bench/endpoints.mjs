// npm run bench: the API's reads and the phone proof under load, next to their limits, on PGlite
// and (when DATABASE_URL is set) PostgreSQL in the same run. Needs a build (`npm run build`).
//
// For each database, on a freshly started BUILT server with its default logging (info, one line
// per request, to a sink), after a warm-up, autocannon for --seconds (default 20) per endpoint:
// - the product: user detail with a valid token, the public config, catalogue reads, the address
//   search, code start and code confirm;
// - the limits (issue 35: what the same work costs with the tool alone, run as the product runs
//   it): bare Fastify answering a constant JSON without a logger (bare-fastify.mjs), and the raw
//   driver running each read's main query (raw-driver.mjs) with as many queries in flight as the
//   product's pool on PostgreSQL, as the prepared statement the product's database thread runs on
//   PGlite. The limits before issue 35 are printed beside them: bare Fastify logging each request,
//   the raw driver with one query in flight (PostgreSQL) or through PGlite's unprepared `query()`;
// - each read's ratio to min(bare Fastify, raw driver), next to its goal (READ_GOALS), the ratio to
//   the old limits, and the server's CPU per request (/proc, every thread);
// - "with the parts": the most a read could reach with the product's parts from their libraries
//   (product-parts.mjs: bare Fastify with them and a logger that writes no line, measured too).
// Config and bare Fastify's three variants are measured in turn, in --rounds rounds (the median
// round of each), so that the machine's drift falls on all of them alike, each round on new processes.
// The server and each limit run on core 0, the load generator on core 1 (taskset, when present);
// PostgreSQL's backends of the bench database join the load generator on core 1 before each measured
// run, when the database is on this machine and may be moved (pin-database.mjs).
// Prints one table per database; exits non-zero when a read is below its goal (a goal declared out
// of reach on one core, OUT_OF_REACH, fails only below its guard), a request fails or the address
// search's p99 at 50 connections is above 50 ms.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { databaseCpu, pinDatabaseBackends } from './pin-database.mjs';
import {
  assertBuilt,
  cedula,
  cpuTime,
  client,
  databasesToRun,
  DB_OPTION,
  exitIfBelowGoal,
  freePort,
  journey,
  journeySetup,
  JOURNEY_ENV,
  ROOT,
  SERVER_JS,
  stopServer,
  SERVER_POOL_SIZE,
  throwAwayPostgres,
  waitReady,
} from '../reliability/harness.mjs';
import { ALL_FEATURES } from './product-parts.mjs';
import { PUBLIC_READS } from './public-reads.mjs';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    // Config and bare Fastify's anchors are measured in turn, in this many rounds (inTurn).
    rounds: { type: 'string', default: '5' },
    db: DB_OPTION,
    only: { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const GOALS = { searchP99Ms: 50, searchConnections: 50, coldStartMs: 3000 };
/** Each read's goal: its share of min(bare Fastify, raw driver) on each database (issue 35). */
const READ_GOALS = {
  'user detail': { pglite: 0.8, postgres: 0.6 },
  config: { pglite: 0.7, postgres: 0.7 },
  cities: { pglite: 0.7, postgres: 0.7 },
  states: { pglite: 0.7, postgres: 0.7 },
};
/**
 * Goals out of reach on one core, by the profile of where a request's time goes
 * (scripts/bench/profile.mjs, docs/PERFORMANCE.md): reported with their reason instead of failing
 * the run, which fails instead below their guard, the goal before issue 35 (70% of the old limit),
 * so that a read that gets slower still fails.
 */
const OUT_OF_REACH = {
  // PGlite runs on its own thread, and here that thread shares core 0 with the server's: a request
  // costs the query (the limit's whole time) plus its two trips between the threads plus the
  // server's HTTP on the one core. 80% leaves a quarter of the query's time, ~20 µs, for the hop and
  // the whole request: bare Fastify's request alone takes ~14 µs, the hop and the log line more than
  // the rest (docs/PERFORMANCE.md, "Where a request's time goes").
  'pglite user detail': {
    guard: 0.7,
    reason:
      "the prepared query, its hop between the two threads and the request's HTTP share one core: 80% leaves ~20 µs for hop and request, bare Fastify alone takes ~14 µs (docs/PERFORMANCE.md)",
  },
};
/** Code starts per run: one new phone each, under the per-IP hourly ceiling the server allows. */
const CODE_STARTS = 8000;
/** The server's default country (catalogue rows are keyed by it, in lower case). */
const COUNTRY = 'do';

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const pinned = (command, args, core) =>
  hasTaskset ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
// The load generator (this process, all its threads) on core 1.
if (hasTaskset) execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });

function spawnPinned(script, env, core = 0) {
  return spawn(...pinned(process.execPath, [script], core), {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The core of the load generator, where the database's backends go (pin-database.mjs). */
const DATABASE_CORE = 1;

/**
 * autocannon on one endpoint: warm-up, then the measured run; `beforeMeasure` runs between them
 * (PostgreSQL's backends moved, benchDatabase). CPU per request (µs): the server's with `pid`, the
 * database's backends' with `databaseCpu` (PostgreSQL on this machine), and the load generator's.
 */
async function load(
  url,
  options,
  { beforeMeasure = async () => {}, pid, databaseCpu: dbCpu, seconds = SECONDS, warmup = WARMUP } = {},
) {
  const base = { url, connections: CONNECTIONS, ...options };
  if (warmup > 0 && !options.amount) await autocannon({ ...base, duration: warmup });
  await beforeMeasure();
  const cpuBefore = cpuTime(pid);
  const databaseBefore = await dbCpu?.();
  const loadBefore = process.cpuUsage();
  const result = await autocannon({ ...base, ...(options.amount ? {} : { duration: seconds }) });
  const loadCpu = process.cpuUsage(loadBefore);
  const failed = result.non2xx + result.errors + result.timeouts;
  const perRequest = (us) => us / result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed,
    total: result.requests.total,
    cpu: perRequest(cpuTime(pid) - cpuBefore),
    database: dbCpu ? perRequest((await dbCpu()) - databaseBefore) : undefined,
    loadCpu: perRequest(loadCpu.user + loadCpu.system),
  };
}

function rawQueries(user) {
  return [
    {
      // The user detail's one query (users.service.ts findUserDetail).
      name: 'user',
      sql: `select users.id, users.user_type, users.next_step, users.status, users.phone_e164, users.name,
        users.lastname, users.maternal_lastname, users.dob_encrypted,
        coalesce((select json_agg(json_build_object('avalType', a.aval_type, 'phoneE164', a.phone_e164) order by a.created_at)
          from avals a where a.user_id = users.id and a.status <> 'REPLACED'), '[]'::json) as avals,
        (select json_build_object('amount', d.amount, 'currency', d.currency) from credit_decisions d
          where d.user_id = users.id and d.aval_id is null and d.result = 'APPROVED' order by d.created_at desc limit 1) as pre_approval
        from users where users.id = $1 limit 1`,
      params: [user.id],
    },
    {
      name: 'cities',
      sql: `select m.id, m.name, s.name as state, m.allowed from catalog_municipalities m
        join catalog_states s on s.id = m.state_id where s.country = $1 and m.allowed = true order by m.name`,
      params: [COUNTRY],
    },
    {
      name: 'states',
      sql: 'select id, name from catalog_states where country = $1 order by name',
      params: [COUNTRY],
    },
  ];
}

/**
 * Bare Fastify answering `configBody`, started on core 0: `logLevel` 'off' (no logger: the limit),
 * 'info' (as the product logs) or 'warn' (a logger, no request line); `features`, bare-fastify.mjs's
 * BARE_FEATURES. Returns its URL, pid and stop().
 */
async function startBare(configBody, logLevel, features = '') {
  const port = await freePort();
  const child = spawnPinned(join(import.meta.dirname, 'bare-fastify.mjs'), {
    PORT: String(port),
    LOG_LEVEL: logLevel,
    BARE_BODY: configBody,
    BARE_FEATURES: features,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${baseUrl}/constant`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `${baseUrl}/constant`, pid: child.pid, stop: () => stopServer(child) };
}

/**
 * Config and its anchors in turn, ROUNDS rounds of SECONDS / ROUNDS each, so that the machine's
 * drift over the run falls on all of them alike; for each, the median round (by rate). Every round
 * starts each of them anew and warms it up: the same build answers at one of two speeds about 2×
 * apart, and a speed mostly holds for a process's life (bare Fastify 24.5 or 47.9 µs a request in
 * processes minutes apart; docs/PERFORMANCE.md), so the median is over processes, not over one
 * process's rounds. `targets`: { name: start() → { url, pid, stop } }.
 */
async function inTurn(targets) {
  const rounds = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, start] of Object.entries(targets)) {
      const { url, pid, stop } = await start(round);
      try {
        rounds[name].push(await load(url, {}, { pid, seconds: Math.max(2, Math.round(SECONDS / ROUNDS)) }));
      } finally {
        await stop();
      }
    }
  return Object.fromEntries(
    Object.entries(rounds).map(([name, results]) => {
      const sorted = results.toSorted((a, b) => a.rps - b.rps);
      const median = sorted[Math.floor(sorted.length / 2)];
      const failed = results.reduce((sum, result) => sum + result.failed, 0);
      return [name, { ...median, failed, rounds: results.map((result) => Math.round(result.rps)) }];
    }),
  );
}

async function rawDriver(env, queries) {
  const child = spawn(...pinned(process.execPath, [join(import.meta.dirname, 'raw-driver.mjs')], 0), {
    env: {
      PATH: process.env.PATH,
      RAW_QUERIES: JSON.stringify(queries),
      RAW_SECONDS: String(Math.max(5, Math.round(SECONDS / 2))),
      RAW_CONCURRENCY: String(SERVER_POOL_SIZE),
      ...(hasTaskset && env.DATABASE_URL ? { RAW_DATABASE_CORE: String(DATABASE_CORE) } : {}),
      ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : { PGLITE_DIR: join(env.DATA_DIR, 'pglite') }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`raw-driver.mjs exited ${code}`);
  return JSON.parse(out);
}

/** A read of the table: its name, path and headers. */
const read = (name, path, headers = {}) => ({ name, path, headers, read: true });

/**
 * One database: the product's reads on a fresh server; with the server stopped, the limits; then
 * the writes (code start and confirm) on the server started again.
 */
async function benchDatabase(kind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-bench-'));
  const pg = kind === 'postgres' ? await throwAwayPostgres(process.env.DATABASE_URL, 'provee_bench') : undefined;
  // PostgreSQL: where its backends ran during the product's runs (the raw driver moves its own).
  let placement = pg && !hasTaskset ? 'placed by the system (no taskset)' : undefined;
  // Moves the backends (with taskset) and reads their CPU: every backend but its own.
  const pgClient = pg?.connect();
  const placeBackends = async () => {
    if (!pgClient || !hasTaskset) return;
    const { why } = await pinDatabaseBackends(pgClient, DATABASE_CORE);
    placement = why ? `placed by the system (${why})` : `backends on core ${DATABASE_CORE}, with the load`;
  };
  let serverPid;
  const measure = (url, options) =>
    load(url, options, {
      beforeMeasure: placeBackends,
      pid: serverPid,
      databaseCpu: pgClient && (() => databaseCpu(pgClient)),
    });
  const port = await freePort();
  const env = {
    ...JOURNEY_ENV,
    // The product's own logging: info, one line per request (the sink is /dev/null, as for the anchor).
    LOG_LEVEL: 'info',
    PORT: String(port),
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '100000000',
    // Its ceiling; code start sends CODE_STARTS (below it) from this one IP.
    SMS_NUMBERS_PER_IP_PER_HOUR: '10000',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const rows = [];
  const failures = [];
  /** Spawn → first /api/health 200: on a new database (migrations, catalogue seed) and again on it. */
  const starts = {};
  try {
    const started = performance.now();
    const server = spawnPinned(SERVER_JS, env);
    serverPid = server.pid;
    let user;
    let configBody;
    try {
      await waitReady(baseUrl, server);
      starts.first = performance.now() - started;
      const call = client(baseUrl);
      const setup = await journeySetup(call);
      user = await journey({ call, setup, phone: '8095550001', taxId: cedula('4020000001') });
      configBody = await (await fetch(`${baseUrl}${PUBLIC_READS.config}`)).text();
      const endpoints = [
        read('user detail', `/api/v1/users/${user.id}/SK`, { authorization: `Bearer ${user.token}` }),
        ...Object.entries(PUBLIC_READS).map(([name, path]) => read(name, path)),
      ];
      for (const endpoint of endpoints) {
        if ((args.only && !endpoint.name.includes(args.only)) || endpoint.name === 'config') continue;
        rows.push({ ...endpoint, ...(await measure(`${baseUrl}${endpoint.path}`, { headers: endpoint.headers })) });
      }
      if (!args.only || 'address search'.includes(args.only)) {
        const result = await measure(`${baseUrl}/api/v1/addresses/search?q=centro`, {
          connections: GOALS.searchConnections,
        });
        rows.push({ name: `address search (${GOALS.searchConnections} conn.)`, read: true, search: true, ...result });
      }
    } finally {
      await stopServer(server);
    }
    const raw = await rawDriver(env, rawQueries(user));
    // Config against bare Fastify, in turn (inTurn), each round on new processes. The product is
    // started again on its database and first serves a shopkeeper's journey (a new phone each round),
    // as a server that has answered more than one route: the same config then costs ~30% more than on
    // a process that has served nothing else (Fastify's shared code sees many routes' requests).
    const { bare, bareLogged, parts, config } = await inTurn({
      config: async (round) => {
        const product = spawnPinned(SERVER_JS, env);
        await waitReady(baseUrl, product);
        const call = client(baseUrl);
        const digits = String(100 + round).padStart(3, '0');
        await journey({
          call,
          setup: await journeySetup(call),
          phone: `8095551${digits}`,
          taxId: cedula(`4020001${digits}`),
        });
        return { url: `${baseUrl}${PUBLIC_READS.config}`, pid: product.pid, stop: () => stopServer(product) };
      },
      bare: () => startBare(configBody, 'off'),
      bareLogged: () => startBare(configBody, 'info'),
      // Bare Fastify with the product's parts from their libraries and a logger, no line.
      parts: () => startBare(configBody, 'warn', ALL_FEATURES.join(',')),
    });
    if (!args.only || 'config'.includes(args.only))
      rows.splice(1, 0, { ...read('config', PUBLIC_READS.config), ...config });
    // A start on the existing database, unpinned as a server runs (both cores: PGlite has its own thread).
    {
      const begun = performance.now();
      // This process is pinned to core 1 and its children would inherit that: all cores again.
      const [command, commandArgs] = hasTaskset
        ? ['taskset', ['-c', `0-${cpus().length - 1}`, process.execPath, SERVER_JS]]
        : [process.execPath, [SERVER_JS]];
      const server = spawn(command, commandArgs, { env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
      try {
        await waitReady(baseUrl, server);
        starts.again = performance.now() - begun;
      } finally {
        await stopServer(server);
      }
    }
    // The writes last, on the same database restarted (PGlite is one process's): they add rows.
    if (!args.only || 'code'.includes(args.only)) {
      const again = spawnPinned(SERVER_JS, env);
      serverPid = again.pid;
      try {
        await waitReady(baseUrl, again);
        const call = client(baseUrl);
        let next = 0;
        const phones = [];
        const start = await measure(`${baseUrl}/api/v1/users/code`, {
          method: 'POST',
          amount: CODE_STARTS,
          headers: { 'content-type': 'application/json' },
          requests: [
            {
              setupRequest(request) {
                const phone = `809${String(2_000_000 + next++).padStart(7, '0')}`;
                phones.push(phone);
                return { ...request, body: JSON.stringify({ phone_number: phone }) };
              },
            },
          ],
        });
        rows.push({ name: 'code start', ...start });
        // Code confirm: one right code per phone, so a fixed number of requests.
        const codes = [];
        const sample = phones.slice(0, Math.min(phones.length, 3000));
        for (let i = 0; i < sample.length; i += 20) {
          await Promise.all(
            sample.slice(i, i + 20).map(async (phone) => {
              const sms = (await call('GET', `/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`)).messages[0];
              const code = /\b(\d{6})\b/.exec(sms?.body ?? '')?.[1];
              if (code) codes.push({ phone, code });
            }),
          );
        }
        let confirmed = 0;
        const confirm = await measure(`${baseUrl}/api/v1/users/code`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          amount: codes.length,
          requests: [
            {
              setupRequest(request) {
                const { phone, code } = codes[confirmed++ % codes.length];
                return { ...request, body: JSON.stringify({ phone_number: phone, code }) };
              },
            },
          ],
        });
        rows.push({ name: `code confirm (${codes.length})`, ...confirm });
      } finally {
        await stopServer(again);
      }
    }
    // Issue 35's limits: the pool-wide loops on PostgreSQL, the prepared statement on PGlite; before
    // it, one loop on PostgreSQL and PGlite's query() (printed beside them).
    const rawOf = (name) => (kind === 'postgres' ? raw[name].pool : raw[name].prepared);
    const rawNames = { 'user detail': 'user', cities: 'cities', states: 'states' };
    const rawLabel = kind === 'postgres' ? `raw, ${SERVER_POOL_SIZE} in flight` : 'raw, prepared';
    const oldRawLabel = kind === 'postgres' ? 'raw, 1 in flight' : 'raw, query()';
    const limitOf = (bareRps, rawRps, rawText) =>
      rawRps < bareRps
        ? { rps: rawRps, label: `${rawText} ${Math.round(rawRps)}` }
        : { rps: bareRps, label: `bare ${Math.round(bareRps)}` };
    for (const row of rows) {
      if (!row.read) continue;
      if (row.search) {
        if (row.p99 > GOALS.searchP99Ms)
          failures.push(`${kind} ${row.name}: p99 ${row.p99} ms > ${GOALS.searchP99Ms} ms`);
        continue;
      }
      const rawName = rawNames[row.name];
      const limit = limitOf(bare.rps, rawName ? rawOf(rawName).rate : Infinity, rawLabel);
      const old = limitOf(bareLogged.rps, rawName ? raw[rawName].loop.rate : Infinity, oldRawLabel);
      row.limitName = limit.label;
      row.ratio = row.rps / limit.rps;
      row.goal = READ_GOALS[row.name][kind];
      row.old = `${old.label.replace(/^bare/, 'bare, logged')}: ${(100 * (row.rps / old.rps)).toFixed(0)}%`;
      // The most the read could reach if the server spent on a request only bare Fastify's CPU and
      // the raw driver's own CPU for the query (both measured here, on core 0): no log line, token,
      // ORM, hooks, and on PGlite no hop between the server's thread and the database's. The
      // limit's time per query: PGlite's loop is its CPU (one thread, busy throughout); PostgreSQL's
      // pool also waits for the database, so its rate. Without /proc, from the rates alone.
      // "With the parts": the same with the product's parts from their libraries (`parts`: the
      // request id, the security headers, the flood guard, the load shedding, the metrics and a
      // logger without a line) in place of bare Fastify, the most the product can reach while it
      // keeps them; for config, those parts' rate against bare Fastify's. Printed, not a goal.
      const cost = (anchor, rawDriverOf) =>
        Number.isFinite(anchor.cpu + rawDriverOf.cpu)
          ? anchor.cpu + rawDriverOf.cpu
          : 1e6 / anchor.rps + 1e6 / rawDriverOf.rate;
      if (rawName) {
        const driver = rawOf(rawName);
        const perQuery = kind === 'pglite' && Number.isFinite(driver.cpu) ? driver.cpu : 1e6 / limit.rps;
        row.ceiling = Math.min(1, perQuery / cost(bare, driver));
        row.reach = Math.min(1, perQuery / cost(parts, driver));
      } else row.reach = Math.min(1, parts.rps / limit.rps);
      const outOfReach = OUT_OF_REACH[`${kind} ${row.name}`];
      const percent = (ratio) => `${(100 * ratio).toFixed(0)}%`;
      if (row.ratio >= row.goal) continue;
      if (!outOfReach) {
        failures.push(`${kind} ${row.name}: ${percent(row.ratio)} of its limit < ${percent(row.goal)}`);
      } else {
        row.outOfReach = outOfReach.reason;
        const oldRatio = row.rps / old.rps;
        if (oldRatio < outOfReach.guard)
          failures.push(
            `${kind} ${row.name}: ${percent(oldRatio)} of its limit before issue 35 < ${percent(outOfReach.guard)} (its goal of ${percent(row.goal)} of the new limit is out of reach: ${outOfReach.reason})`,
          );
      }
    }
    for (const row of rows) if (row.failed > 0) failures.push(`${kind} ${row.name}: ${row.failed} failed requests`);
    rows.push({ name: 'limit: bare Fastify, no logger', ...bare });
    rows.push({ name: '(before issue 35: bare Fastify, logged)', ...bareLogged });
    rows.push({ name: "(with the parts: bare Fastify, the product's libraries, no line)", ...parts });
    for (const [name, driver] of Object.entries(raw)) {
      const limit = kind === 'postgres' ? driver.pool : driver.prepared;
      rows.push({ name: `limit: ${rawLabel}, ${name}`, rps: limit.rate, cpu: limit.cpu, database: limit.database });
      rows.push({
        name: `(before issue 35: ${oldRawLabel}, ${name})`,
        rps: driver.loop.rate,
        cpu: driver.loop.cpu,
        database: driver.loop.database,
      });
    }
    for (const [which, ms] of [
      ['first start', starts.first],
      ['start on an existing database', starts.again],
    ])
      if (ms > GOALS.coldStartMs) failures.push(`${kind} ${which}: ${Math.round(ms)} ms > ${GOALS.coldStartMs} ms`);
  } finally {
    await pgClient?.end();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { rows, failures, starts, placement };
}

function print(kind, rows, placement) {
  const load = loadavg();
  console.log(
    `\n${kind}: load average ${load.map((n) => n.toFixed(1)).join(' / ')} (1 / 5 / 15 min) on ${cpus().length} cores${load[0] > 1.5 ? ' (busy: figures are noisy)' : ''}`,
  );
  console.log(
    `\n${kind} — ${SECONDS} s per endpoint, ${CONNECTIONS} connections${hasTaskset ? ', server on core 0, load on core 1' : ''}${placement ? `; PostgreSQL ${placement}` : ''}`,
  );
  console.table(
    rows.map((row) => ({
      endpoint: row.name,
      'req/s': Math.round(row.rps),
      'p50 ms': row.p50 ?? '',
      'p99 ms': row.p99 ?? '',
      // CPU per request (µs): the measured process (server, bare Fastify or raw driver) on core 0, the
      // database's backends and the load generator.
      'µs CPU/req': Number.isFinite(row.cpu) ? Number(row.cpu.toFixed(1)) : '',
      ...(kind === 'postgres'
        ? { 'µs DB/req': Number.isFinite(row.database) ? Number(row.database.toFixed(1)) : '' }
        : {}),
      'µs load/req': Number.isFinite(row.loadCpu) ? Number(row.loadCpu.toFixed(1)) : '',
      limit: row.limitName ?? '',
      ratio: row.ratio === undefined ? '' : `${(100 * row.ratio).toFixed(0)}%`,
      goal: row.goal === undefined ? '' : `${(100 * row.goal).toFixed(0)}%${row.outOfReach ? ' (out of reach)' : ''}`,
      'ceiling (HTTP + query)': row.ceiling === undefined ? '' : `${(100 * row.ceiling).toFixed(0)}%`,
      'with the parts': row.reach === undefined ? '' : `${(100 * row.reach).toFixed(0)}%`,
      'before issue 35': row.old ?? '',
      failed: row.failed ?? '',
    })),
  );
  for (const row of rows)
    if (row.rounds) console.log(`${row.name}: ${row.rounds.join(' / ')} req/s in its ${row.rounds.length} rounds`);
  for (const row of rows)
    if (row.outOfReach)
      console.log(`${row.name}: below its goal, declared out of reach on one core: ${row.outOfReach}`);
}

assertBuilt();
if (!existsSync(join(ROOT, 'node_modules/autocannon'))) throw new Error('autocannon is missing: run npm install');
const failures = [];
let outOfReachMissed = 0;
for (const kind of databasesToRun(args.db)) {
  const result = await benchDatabase(kind);
  print(kind, result.rows, result.placement);
  const ms = (value) => (value === undefined ? '—' : `${Math.round(value)} ms`);
  console.log(
    `start to first /api/health 200: first start ${ms(result.starts.first)} (PGlite: the build's prepared copy; PostgreSQL: migrations and catalogue seed), existing database ${ms(result.starts.again)} (goal ≤ ${GOALS.coldStartMs} ms each)`,
  );
  failures.push(...result.failures);
  outOfReachMissed += result.rows.filter((row) => row.outOfReach).length;
}
exitIfBelowGoal(failures);
console.log(
  outOfReachMissed > 0
    ? `\nevery read at or above its goal but ${outOfReachMissed} declared out of reach (above), each above its guard`
    : '\nevery read at or above its goal',
);
