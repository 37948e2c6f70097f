// What the reliability scripts and the benchmark share: the BUILT server started as a child process
// (PGlite in a data dir, or a throw-away PostgreSQL database), a small API client, and one
// shopkeeper's journey through the real API (phone proof to password).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
export const SERVER_JS = join(ROOT, 'apps/api/dist/server.js');

export function assertBuilt() {
  if (!existsSync(SERVER_JS) || !existsSync(join(ROOT, 'apps/web/dist/index.html')))
    throw new Error('The app is not built: run `npm run build` first.');
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A valid cédula (JCE check digit) from its first ten digits. */
export function cedula(firstTen) {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const product = Number(firstTen[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return `${firstTen}${(10 - (sum % 10)) % 10}`;
}

export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A throw-away database on the PostgreSQL server of `url`; `drop()` removes it. */
export async function throwAwayPostgres(url, prefix = 'provee_reliability') {
  const { default: postgres } = await import('postgres');
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    /** A client on the throw-away database (end it when done). */
    connect: () => postgres(target.toString(), { max: 2, onnotice: () => {} }),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * The built server as a child process. `env` is its whole environment (PATH is added);
 * `nodeArgs` go before the script (e.g. `--import` a probe).
 */
export function startServer(env, { nodeArgs = [], stdio = ['ignore', 'inherit', 'inherit'] } = {}) {
  return spawn(process.execPath, [...nodeArgs, SERVER_JS], { env: { PATH: process.env.PATH, ...env }, stdio });
}

/** Waits until `child` answers 200 at `path` (the built server's health, by default). */
export async function waitReady(baseUrl, child, { tries = 600, path = '/api/health' } = {}) {
  for (let i = 0; i < tries && child.exitCode === null && child.signalCode === null; i++) {
    try {
      if ((await fetch(`${baseUrl}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`the server did not answer ${baseUrl}${path} (exit ${child.exitCode ?? child.signalCode})`);
}

/** Stops the server with `signal` (SIGTERM: graceful; SIGKILL: a crash) and waits for its exit. */
export async function stopServer(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

export class HttpError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path} → ${status} ${JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

/** `call(method, path, { token, body, headers })` → the JSON answer; a non-2xx answer throws HttpError. */
export function client(baseUrl) {
  return async function call(method, path, { token, body, headers = {} } = {}) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json().catch(() => undefined);
    if (!response.ok) throw new HttpError(method, path, response.status, json);
    return json;
  };
}

/** The served address: Distrito Nacional / Santo Domingo de Guzmán and its neighbourhoods. */
export async function servedAddress(call) {
  const states = (await call('GET', '/api/v1/states')).data;
  const state = states.find((item) => item.name === 'Distrito Nacional');
  if (!state) throw new Error('Distrito Nacional is not in the catalogue');
  const city = (await call('GET', `/api/v1/states/${state.id}/cities`)).data.find(
    (item) => item.name === 'Santo Domingo de Guzmán',
  );
  if (!city) throw new Error('Santo Domingo de Guzmán is not in the catalogue');
  const neighborhoods = (await call('GET', `/api/v1/cities/${city.id}/neighborhoods`)).data;
  if (neighborhoods.length === 0) throw new Error('no neighbourhood in Santo Domingo de Guzmán on a fresh start');
  return { state: state.name, city: city.name, neighborhoods };
}

/** What every journey on one server needs: the address, a business type and a sales range. */
export async function journeySetup(call) {
  return {
    address: await servedAddress(call),
    businessType: (await call('GET', '/api/v1/business-types')).data[0],
    salesRange: (await call('GET', '/api/v1/sales-ranges')).data.ranges.at(-1).id,
  };
}

/** The registration's first step (POST /api/v2/users) for a shopkeeper with this phone. */
export const personalData = (phone) => ({
  account_type_id: 'SK',
  name: 'María José',
  lastname: 'Peña',
  maternal_lastname: 'Núñez',
  dob: '1985-02-28',
  length_of_residency_in_years: 4,
  marital_status: 'MARRIED',
  phone_number: phone,
});

/**
 * The business address of a journey: the `index`th served neighbourhood (taken in turn), street
 * number `streetNumber`.
 */
export function businessAddress(setup, index, streetNumber = index + 1) {
  const place = setup.address.neighborhoods[index % setup.address.neighborhoods.length];
  return {
    zip_code: place.zip_code ?? '00000',
    state: setup.address.state,
    city: setup.address.city,
    neighborhood: place.name,
    street_name: 'Calle Respaldo Los Robles',
    street_number: String(streetNumber),
    apartment_number: '',
  };
}

/** The business of journey `n` (POST …/businesses). */
export const businessData = (setup, n) => ({
  name: `Colmado ${n}`,
  business_type: setup.businessType,
  sales_average_range_id: setup.salesRange,
  business_age: 3,
});

/** The benchmarks' --db option: pglite, postgres or both (the default when DATABASE_URL is set). */
export const DB_OPTION = { type: 'string', default: process.env.DATABASE_URL ? 'both' : 'pglite' };

/** The databases a --db value names, in the order they run; PostgreSQL needs DATABASE_URL. */
export function databasesToRun(db) {
  const kinds = db === 'both' ? ['pglite', 'postgres'] : [db];
  if (kinds.includes('postgres') && !process.env.DATABASE_URL) throw new Error('--db postgres needs DATABASE_URL');
  return kinds;
}

/** Ends a benchmark with exit code 1 and the goals it missed, if it missed any. */
export function exitIfBelowGoal(failures) {
  if (failures.length === 0) return;
  console.error(`\nbelow goal:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}

/** The built server's PostgreSQL pool (apps/api/src/db/client.ts POOL_SIZE), for the scripts that measure against it. */
export const SERVER_POOL_SIZE = 10;

/** The servers' environment for journeys: simulators, limits out of the way, the PIN prefilled. */
export const JOURNEY_ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000',
  SMS_NUMBERS_PER_IP_PER_HOUR: '10000',
  NIP_PREFILL: 'true',
};

/** The registration's steps after the phone proof up to the PIN's confirmation, in order, as journey() names them. */
export const REGISTRATION_STEPS = ['personal_data', 'tax_id', 'address', 'business', 'nip_send', 'nip_confirm'];

/**
 * One shopkeeper from phone proof to password. `phone` is 10 digits, `taxId` a valid cédula;
 * `call` is a `client()` (or one that alternates between servers). `step(name, run)` wraps each
 * request (timings, pacing); the outbox read is not a step. Returns { id, token }.
 * `waiting` ({ intervalMs, maxTries }): when the PIN confirmation answers WAITING (the bureau took
 * longer than BUREAU_SYNC_WAIT_MS), poll the user as the /waiting screen does (step 'waiting') and
 * go on once decided; without it a WAITING answer fails the journey.
 */
export async function journey({
  call,
  setup,
  phone,
  taxId,
  index = 0,
  step = (_name, run) => run(),
  waiting = undefined,
}) {
  await step('sms_send', () => call('POST', '/api/v1/users/code', { body: { phone_number: phone } }));
  const sms = (await call('GET', `/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`)).messages[0]?.body ?? '';
  const code = /\b(\d{6})\b/.exec(sms)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}`);
  const proof = await step('sms_confirm', () =>
    call('PUT', '/api/v1/users/code', { body: { phone_number: phone, code } }),
  );
  const registered = await step('personal_data', () =>
    call('POST', '/api/v2/users', {
      token: proof.data.authentication.access_token,
      body: personalData(phone),
    }),
  );
  const { user_id: id, authentication } = registered.data;
  const token = authentication.access_token;
  const userStep = (name, method, path, body) =>
    step(name, () => call(method, `/api/v1/users/${id}/SK${path}`, { token, body }));
  await userStep('tax_id', 'POST', '/tax_info', { tax_payer_id: taxId });
  await userStep('address', 'POST', '/businesses/address', businessAddress(setup, index));
  await userStep('business', 'POST', '/businesses', businessData(setup, index));
  const sent = await userStep('nip_send', 'POST', '/nip');
  const nip = sent.data.default_nip;
  if (!nip) throw new Error('no default_nip: journeys need NIP_PREFILL=true');
  let confirmed = await userStep('nip_confirm', 'PUT', '/nip', { nip });
  if (waiting && confirmed.data.status === 'WAITING') {
    confirmed = await step('waiting', async () => {
      for (let tries = 0; tries < waiting.maxTries; tries++) {
        await sleep(waiting.intervalMs);
        const user = await call('GET', `/api/v1/users/${id}/SK`, { token });
        if (user.data.status !== 'WAITING') return user;
      }
      throw new Error(`still WAITING after ${waiting.maxTries} checks`);
    });
  }
  if (confirmed.data.next_step !== 'PASSWORD') throw new Error(`after the NIP: ${JSON.stringify(confirmed.data)}`);
  const done = await userStep('password', 'PUT', '/password', {
    password: '583920',
    password_confirmation: '583920',
  });
  if (done.data.next_step !== 'INVENTORY') throw new Error(`after the password: ${JSON.stringify(done.data)}`);
  return { id, token };
}

/** CPU time (µs; user and system, every thread) process `pid` has used so far (Linux /proc; else NaN). */
export function cpuTime(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime (fields 14 and 15 of proc(5)), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}
/** Peak resident memory of a process in MiB (Linux /proc VmHWM), or undefined where unavailable. */
export function peakRssMiB(pid, field = 'VmHWM') {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1];
    return kib ? Number(kib) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process now in MiB (Linux /proc VmRSS), or undefined where unavailable. */
export const rssMiB = (pid) => peakRssMiB(pid, 'VmRSS');

/** "3×200, 1×503" from a list of statuses (or any values). */
export function tally(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${count}×${value}`).join(', ') || 'none';
}

/**
 * A private PostgreSQL 15 cluster in a temporary directory on a free port (never the machine's
 * main cluster), for tests that stop and start the database. Needs root (initdb runs as the
 * `postgres` user). `await stop(mode)` / `await start()` stop and restart it; `remove()` stops it
 * and deletes the directory (call it in a `finally`).
 */
export async function privatePostgres({ bin = '/usr/lib/postgresql/15/bin' } = {}) {
  if (!existsSync(join(bin, 'initdb'))) throw new Error(`no PostgreSQL binaries in ${bin}`);
  if (process.getuid?.() !== 0) throw new Error('a private PostgreSQL cluster needs root (initdb runs as postgres)');
  const dir = mkdtempSync(join(tmpdir(), 'provee-private-pg-'));
  const port = await freePort();
  const command = (name, args) => ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]];
  const run = (name, args) =>
    new Promise((resolve, reject) =>
      execFile(...command(name, args), { timeout: 120_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${name} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
      ),
    );
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  const options = `-p ${port} -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const cluster = {
    dir,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    },
    /** 'fast' (clients are disconnected, 57P01) or 'immediate' (no clean shut-down: recovery at start). */
    async stop(mode = 'fast') {
      await run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    },
    /** Synchronous, so it also works from an exit handler. */
    remove() {
      try {
        if (existsSync(join(data, 'postmaster.pid')))
          execFileSync(...command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await cluster.start();
  } catch (error) {
    cluster.remove();
    throw error;
  }
  return cluster;
}

/**
 * What the database holds for finished journeys, read directly (`query(sql)` → rows, on PGlite or
 * PostgreSQL): for each { id, phoneE164 }, its user at INVENTORY with tax info, one address, one
 * business, one consent, one bureau query (answered), one decision and a password. Returns the
 * rows of every user and the problems found (one line per journey with something missing).
 */
export async function journeyRecords(query, journeys) {
  const rows = await query(`
    select u.id::text as id, u.phone_e164, u.next_step, u.status,
      (u.tax_id_encrypted is not null and u.tax_id_hash is not null) as tax_info,
      (u.password_hash is not null and u.password_set_at is not null) as password,
      (select count(*)::int from business_addresses a where a.user_id = u.id) as addresses,
      (select count(*)::int from businesses b where b.user_id = u.id) as businesses,
      (select count(*)::int from bureau_consents c where c.user_id = u.id and c.aval_id is null) as consents,
      (select count(*)::int from bureau_queries q join bureau_consents c on c.id = q.consent_id
        where q.user_id = u.id and c.aval_id is null) as queries,
      (select count(*)::int from bureau_queries q join bureau_consents c on c.id = q.consent_id
        where q.user_id = u.id and c.aval_id is null and q.status = 'DONE') as queries_done,
      (select count(*)::int from credit_decisions d where d.user_id = u.id and d.aval_id is null) as decisions
    from users u`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const problems = [];
  for (const { id, phoneE164, label = id, step = 'INVENTORY' } of journeys) {
    const row = byId.get(id);
    if (!row) {
      problems.push(`${label}: user ${id} missing`);
      continue;
    }
    const missing = [
      row.phone_e164 !== phoneE164 && 'phone',
      (row.next_step !== step || row.status !== 'IN_PROGRESS') && `state ${row.next_step}/${row.status}`,
      !row.tax_info && 'tax info',
      row.addresses !== 1 && `${row.addresses} addresses`,
      row.businesses !== 1 && `${row.businesses} businesses`,
      row.consents !== 1 && `${row.consents} consents`,
      (row.queries !== 1 || row.queries_done !== 1) && `${row.queries} bureau queries (${row.queries_done} answered)`,
      row.decisions !== 1 && `${row.decisions} decisions`,
      !row.password && 'password',
    ].filter(Boolean);
    if (missing.length > 0) problems.push(`${label}: ${missing.join(', ')}`);
  }
  return { rows, problems };
}
