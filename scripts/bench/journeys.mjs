// 100 concurrent journeys through the real API of the BUILT server (phone proof to password), and
// meanwhile the server's event-loop delay and a static file's latency. PostgreSQL when DATABASE_URL
// is set. Two runs, each on a freshly started server:
// - 'people': the 100 journeys start within RAMP_S seconds and pause THINK_S between steps, as people
//   do (faster than anyone: real people take 10 to 60 s a screen), so all 100 are under way at once.
//   The targets apply here.
// - 'flat out': the 100 journeys with no pause at all: what the machine can do (requests a second);
//   every request then waits behind the 99 other journeys', so its latencies measure the queue.
// Prints the tables; exits non-zero when a target is missed or a journey fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const ROOT = join(import.meta.dirname, '../..');
const SERVER_JS = join(ROOT, 'apps/api/dist/server.js');
const JOURNEYS = Number(process.env.BENCH_JOURNEYS ?? 100);
const TARGETS = { passwordP95: 500, loopDelayP99: 20, staticP99: 50 };
const RAMP_S = 5;
const THINK_S = [2, 6];

const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

function cedula(firstTen) {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const product = Number(firstTen[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return `${firstTen}${(10 - (sum % 10)) % 10}`;
}

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A throw-away database on the configured PostgreSQL server; dropped at the end. */
async function throwAwayPostgres(url) {
  const { default: postgres } = await import('postgres');
  const name = `provee_bench_${process.pid}_${Date.now()}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

function startServer(env, loopFile) {
  const child = spawn(process.execPath, ['--import', join(import.meta.dirname, 'loop-delay.mjs'), SERVER_JS], {
    env: { ...env, BENCH_LOOP_DELAY_FILE: loopFile },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

async function waitReady(baseUrl, child) {
  for (let i = 0; i < 600 && child.exitCode === null; i++) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`the built server did not answer ${baseUrl}/api/health`);
}

async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function client(baseUrl) {
  return async function call(method, path, { token, body } = {}) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json().catch(() => undefined);
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** The served address: Distrito Nacional / Santo Domingo de Guzmán and its neighbourhoods (may be none). */
async function servedAddress(call) {
  const states = (await call('GET', '/api/v1/states')).data;
  const state = states.find((item) => item.name === 'Distrito Nacional');
  if (!state) throw new Error('Distrito Nacional is not in the catalogue');
  const city = (await call('GET', `/api/v1/states/${state.id}/cities`)).data.find(
    (item) => item.name === 'Santo Domingo de Guzmán',
  );
  if (!city) throw new Error('Santo Domingo de Guzmán is not in the catalogue');
  const neighborhoods = (await call('GET', `/api/v1/cities/${city.id}/neighborhoods`)).data;
  return { state: state.name, city: city.name, neighborhoods };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function journey(call, index, setup, paced) {
  const timings = {};
  const think = () => (paced ? sleep(1000 * (THINK_S[0] + Math.random() * (THINK_S[1] - THINK_S[0]))) : undefined);
  const timed = async (step, run) => {
    if (step !== 'sms_send') await think();
    const started = performance.now();
    try {
      return await run();
    } finally {
      timings[step] = performance.now() - started;
    }
  };
  const phone = `8095${String(setup.salt).padStart(3, '0')}${String(index).padStart(3, '0')}`;
  const taxId = cedula(`40${String(setup.salt).padStart(4, '0')}${String(index).padStart(4, '0')}`);
  const place = setup.address.neighborhoods[index % setup.address.neighborhoods.length];

  if (paced) await sleep(Math.random() * RAMP_S * 1000);
  setup.inFlight.now += 1;
  setup.inFlight.peak = Math.max(setup.inFlight.peak, setup.inFlight.now);
  await timed('sms_send', () => call('POST', '/api/v1/users/code', { body: { phone_number: phone } }));
  const sms = (await call('GET', `/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`)).messages[0]?.body ?? '';
  const code = /\b(\d{6})\b/.exec(sms)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}`);
  const proof = await timed('sms_confirm', () =>
    call('PUT', '/api/v1/users/code', { body: { phone_number: phone, code } }),
  );
  const registered = await timed('personal_data', () =>
    call('POST', '/api/v2/users', {
      token: proof.data.authentication.access_token,
      body: {
        account_type_id: 'SK',
        name: 'María José',
        lastname: 'Peña',
        maternal_lastname: 'Núñez',
        dob: '1985-02-28',
        length_of_residency_in_years: 4,
        marital_status: 'MARRIED',
        phone_number: phone,
      },
    }),
  );
  const { user_id: id, authentication } = registered.data;
  const token = authentication.access_token;
  const step = (name, method, path, body) =>
    timed(name, () => call(method, `/api/v1/users/${id}/SK${path}`, { token, body }));
  await step('tax_id', 'POST', '/tax_info', { tax_payer_id: taxId });
  await step('address', 'POST', '/businesses/address', {
    zip_code: place.zip_code ?? '00000',
    state: setup.address.state,
    city: setup.address.city,
    neighborhood: place.name,
    street_name: 'Calle Respaldo Los Robles',
    street_number: String(index + 1),
    apartment_number: '',
  });
  await step('business', 'POST', '/businesses', {
    name: `Colmado ${index}`,
    business_type: setup.businessType,
    sales_average_range_id: setup.salesRange,
    business_age: 3,
  });
  const sent = await step('nip_send', 'POST', '/nip');
  const nip = sent.data.default_nip;
  if (!nip) throw new Error('no default_nip: the bench runs with NIP_PREFILL=true');
  const confirmed = await step('nip_confirm', 'PUT', '/nip', { nip });
  if (confirmed.data.next_step !== 'PASSWORD') throw new Error(`after the NIP: ${JSON.stringify(confirmed.data)}`);
  const done = await step('password', 'PUT', '/password', { password: '583920', password_confirmation: '583920' });
  if (done.data.next_step !== 'INVENTORY') throw new Error(`after the password: ${JSON.stringify(done.data)}`);
  setup.inFlight.now -= 1;
  return timings;
}

/** One run on a freshly started server: the journeys, the static probe and the loop delay. */
async function run(env, { paced, salt }) {
  const loopFile = join(env.DATA_DIR, `loop-delay-${salt}.json`);
  const server = startServer(env, loopFile);
  const baseUrl = `http://${env.HOST}:${env.PORT}`;
  try {
    await waitReady(baseUrl, server);
    const call = client(baseUrl);
    const address = await servedAddress(call);
    if (address.neighborhoods.length === 0)
      throw new Error('no neighbourhood in Santo Domingo de Guzmán on a fresh start');
    const businessType = (await call('GET', '/api/v1/business-types')).data[0];
    const salesRange = (await call('GET', '/api/v1/sales-ranges')).data.ranges.at(-1).id;
    const html = await (await fetch(`${baseUrl}/`)).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
    if (!asset) throw new Error('no /assets/*.js in the served index.html');
    const setup = { salt, address, businessType, salesRange, inFlight: { now: 0, peak: 0 } };

    server.kill('SIGUSR2'); // the loop-delay window starts with the journeys
    const probe = new Worker(join(import.meta.dirname, 'static-probe.mjs'), {
      workerData: { url: `${baseUrl}${asset}`, everyMs: 50 },
    });
    const probed = new Promise((resolve, reject) => {
      probe.once('message', resolve);
      probe.once('error', reject);
    });
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: JOURNEYS }, (_, index) => journey(call, index, setup, paced)),
    );
    const wallSeconds = (performance.now() - started) / 1000;
    probe.postMessage('stop');
    const staticLatencies = await probed;
    await probe.terminate();
    await stopServer(server);
    const loop = JSON.parse(readFileSync(loopFile, 'utf8'));
    return { asset, results, wallSeconds, staticLatencies, loop, peak: setup.inFlight.peak };
  } finally {
    await stopServer(server);
  }
}

const fixed = (value) => (typeof value === 'number' ? value.toFixed(1) : String(value));

function report(title, { asset, results, wallSeconds, staticLatencies, loop, peak }, withTargets) {
  const failures = results.filter((result) => result.status === 'rejected');
  const timings = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  const requests = timings.length * 10; // nine steps and the outbox read
  console.log(
    `\n${title}: ${timings.length} of ${JOURNEYS} completed in ${wallSeconds.toFixed(1)} s, ${peak} under way at once at the peak, ${(requests / wallSeconds).toFixed(0)} requests/s`,
  );
  const rows = [];
  for (const step of Object.keys(timings[0] ?? {})) {
    const values = timings.map((timing) => timing[step]);
    rows.push([`${step} (ms)`, values, withTargets && step === 'password' ? `p95 ≤ ${TARGETS.passwordP95}` : '']);
  }
  rows.push([`static ${asset} (ms)`, staticLatencies, withTargets ? `p99 ≤ ${TARGETS.staticP99}` : '']);
  console.log(
    ['measure'.padEnd(44), 'n'.padStart(6), 'p50'.padStart(8), 'p95'.padStart(8), 'p99'.padStart(8), '  target'].join(
      '',
    ),
  );
  const line = (measure, n, p50, p95, p99, target) =>
    console.log(
      [
        measure.padEnd(44),
        String(n).padStart(6),
        ...[p50, p95, p99].map((value) => fixed(value).padStart(8)),
        `  ${target}`,
      ].join(''),
    );
  for (const [measure, values, target] of rows)
    line(measure, values.length, percentile(values, 50), percentile(values, 95), percentile(values, 99), target);
  line(
    'event-loop delay (ms)',
    loop.count,
    loop.p50,
    loop.p95,
    loop.p99,
    `${withTargets ? `p99 ≤ ${TARGETS.loopDelayP99} ` : ''}(max ${loop.max})`,
  );
  for (const failure of failures.slice(0, 5)) console.log(`failed: ${failure.reason?.message ?? failure.reason}`);

  const password = timings.map((timing) => timing.password);
  return [
    failures.length > 0 && `${title}: ${failures.length} of ${JOURNEYS} journeys failed`,
    withTargets &&
      !(percentile(password, 95) <= TARGETS.passwordP95) &&
      `password p95 ${percentile(password, 95).toFixed(0)} ms > ${TARGETS.passwordP95} ms`,
    withTargets &&
      !(loop.p99 <= TARGETS.loopDelayP99) &&
      `event-loop delay p99 ${loop.p99} ms > ${TARGETS.loopDelayP99} ms`,
    withTargets &&
      !(percentile(staticLatencies, 99) <= TARGETS.staticP99) &&
      `static p99 ${percentile(staticLatencies, 99).toFixed(1)} ms > ${TARGETS.staticP99} ms`,
  ].filter(Boolean);
}

async function main() {
  if (!existsSync(SERVER_JS) || !existsSync(join(ROOT, 'apps/web/dist/index.html')))
    throw new Error('The app is not built: run `npm run build` first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-bench-'));
  const pg = process.env.DATABASE_URL ? await throwAwayPostgres(process.env.DATABASE_URL) : undefined;
  const env = {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
    SMS_NUMBERS_PER_IP_PER_HOUR: '10000',
    NIP_PREFILL: 'true',
    BUREAU_LATENCY_MS: '20',
  };
  try {
    const salt = Math.floor(Math.random() * 500) * 2;
    const people = await run(env, { paced: true, salt });
    const flatOut = await run(env, { paced: false, salt: salt + 1 });
    console.log(
      `\nOn ${pg ? 'PostgreSQL' : 'PGlite (embedded)'}; machine: ${availableParallelism()} cores, load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)`,
    );
    const missed = [
      ...report(
        `${JOURNEYS} journeys at people's pace (start within ${RAMP_S} s, ${THINK_S.join('–')} s between steps)`,
        people,
        true,
      ),
      ...report(`${JOURNEYS} journeys flat out (no pause: capacity; latencies are the queue)`, flatOut, false),
    ];
    console.log(missed.length === 0 ? '\nAll targets met.' : `\nMissed: ${missed.join('; ')}`);
    process.exitCode = missed.length === 0 ? 0 : 1;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await pg?.drop();
  }
}

await main();
