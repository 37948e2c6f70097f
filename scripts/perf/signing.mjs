// npm run perf:signing: contract signatures under load (issue 35, section 3). The BUILT server
// (`npm run perf:signing` builds the API first) on PGlite in a temporary data dir, or on a throw-away
// database of the PostgreSQL server of DATABASE_URL when it is set. Signers are made ready through
// the real API, as the e2e does: a shopkeeper's journey (phone proof to password), the signing link
// an analyst sends from the back office, the three identity photos, and the identity simulator's
// APPROVED answer. Then PUT …/contract with a phone-sized signature: --alone signatures one after
// another, then --rounds rounds of --concurrency signatures at once (each signer signs once).
// Prints p50/p95 of each; the event loop's delay meanwhile (prom-client's monitorEventLoopDelay
// behind GET /metrics, reset by each read; its resolution is 10 ms, so a free loop reads 10–15 ms);
// the server's CPU per signature by thread (/proc: event loop, PDF threads, the others), from which
// the least time N signatures at once can take on this machine's cores; the load average and the
// command. Goal (issue 35): p95 of the signatures at once ≤ 2 × p95 of one alone; exits 1 when above
// it (or when a signature is refused). --cpu-prof DIR: the server runs with `node --cpu-prof` and
// writes its profiles (event loop and worker threads) to DIR when it stops; the measured stretches
// are printed in the profiles' clock.
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import {
  client,
  exitIfBelowGoal,
  freePort,
  JOURNEY_ENV,
  journey,
  journeySetup,
  percentile,
  ROOT,
  SERVER_JS,
  startServer,
  stopServer,
  throwAwayPostgres,
  waitReady,
} from '../reliability/harness.mjs';
import { staffLogin } from '../staff-login.mjs';
import { cleanTaxId, createStaffAccount, fetchJson, randomPhone, smsWith, table } from './server.mjs';

const { values: args } = parseArgs({
  options: {
    alone: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '10' },
    'cpu-prof': { type: 'string' },
  },
});
const ALONE = Number(args.alone);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
/** Signatures before the measured ones: the worker threads start with their first job. */
const WARM_UP = 2;
/** Signers made ready at once (each a dozen requests and a wait for the simulator). */
const PREPARE_AT_ONCE = 4;
/** The pause after each signature alone and each round: the signed copy's job runs in it, not in the next one. */
const PAUSE_MS = 300;
const GOAL_RATIO = 2;
const GEOLOCATION = JSON.stringify({ latitude: 18.4861, longitude: -69.9312, accuracy: 20 });
const METRICS_TOKEN = 'perf-signing-metrics-token';

const ANALYST = {
  email: 'analista.firma@prestamista.example',
  role: 'analyst',
  name: 'Analista Firmas',
  password: 'perf-signing-analyst-password',
};

if (!existsSync(SERVER_JS)) throw new Error('The API is not built: run `npm run perf:signing` (it builds it first).');
// The signatures and photos are the signing tests' own images (TypeScript sources, through tsx).
register();
const { createJpeg, createPng } = await import(pathToFileURL(join(ROOT, 'apps/api/src/test/test-images.ts')).href);

const loadBefore = loadavg();
const dir = mkdtempSync(join(tmpdir(), 'provee-perf-signing-'));
const postgres = process.env.DATABASE_URL
  ? await throwAwayPostgres(process.env.DATABASE_URL, 'provee_perf_signing')
  : null;
const port = await freePort();
const env = {
  ...JOURNEY_ENV,
  PORT: String(port),
  COUNTRY: 'do',
  CODE_RESEND_SECONDS: '0',
  CODE_MAX_PER_HOUR: '100',
  BUREAU_LATENCY_MS: '0',
  BUREAU_SYNC_WAIT_MS: '4000',
  IDENTITY_SIMULATOR_DELAY_MS: '0',
  METRICS_TOKEN,
  ...(postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: join(dir, 'data') }),
};
const profileDir = args['cpu-prof'] ? resolve(args['cpu-prof']) : null;
createStaffAccount(env, ANALYST);
const logFile = join(dir, 'server.log');
const log = openSync(logFile, 'w');
const server = startServer(env, {
  nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  stdio: ['ignore', log, log],
});
closeSync(log);
const baseUrl = `http://127.0.0.1:${port}`;
const call = client(baseUrl);
// However this process ends (an error, Ctrl-C), the server goes with it.
const onExit = () => server.kill('SIGKILL');
process.once('exit', onExit);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

/** One photo or signature per signer, a few pixels apart, as different people's are. */
const photo = (n, width, height) => createJpeg({ width: width + (n % 97), height: height + (n % 89) });

/** A pre-approved shopkeeper whose identity the simulator approved: ready to sign. */
async function readySigner(setup, cookie, n) {
  const phone = randomPhone();
  const { id } = await journey({ call, setup, phone, taxId: cleanTaxId(), index: n });
  await call('POST', `/api/backoffice/applications/${id}/contract-links`, {
    headers: { cookie },
    body: { person_type: 'titular' },
  });
  const token = new URL(/(https?:\/\/\S+)/.exec(await smsWith(call, phone, 'send-contract-sign'))[1]).searchParams.get(
    'token',
  );
  const path = `/api/v1/users/SK/${id}`;
  const form = new FormData();
  form.set('person_type', 'titular');
  form.set('verification_type', 'VERIFICATION');
  for (const [kind, bytes] of Object.entries({
    id_front: photo(n, 1280, 800),
    id_back: photo(n, 1280, 800),
    selfie: photo(n, 720, 960),
  }))
    form.set(kind, new Blob([bytes], { type: 'image/jpeg' }), `${kind}.jpg`);
  const sent = await fetch(`${baseUrl}${path}/identity-documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!sent.ok) throw new Error(`identity documents → ${sent.status} ${await sent.text()}`);
  let status = null;
  for (let tries = 0; status === null && tries < 5; tries++)
    ({ status } = (
      await call('GET', `${path}/mati-status?verification_type=VERIFICATION&person_type=titular&wait=20`, { token })
    ).data);
  if (status !== 'APPROVED') throw new Error(`identity check ${status}`);
  // A phone's signature: the SPEC's 300×470 box at ~2.6 device pixels a unit, trimmed to the ink.
  const signature = Buffer.from(createPng({ width: 980 + (n % 40), height: 420 })).toString('base64');
  return { path, token, signature };
}

/** The monotonic clock in µs, as the CPU profiles' timestamps count it (the same clock in every process). */
const now = () => Number(process.hrtime.bigint() / 1000n);

/** The signature's PUT, timed from the client: its wall time in ms, or the refusal. */
async function sign(signer) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${signer.path}/contract`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${signer.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ person_type: 'titular', signature: signer.signature, metadata: GEOLOCATION }),
  });
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`signature → ${response.status} ${body}`);
  return ms;
}

/**
 * CPU time (ms, user and system) the server's threads have used so far, from /proc: the event loop
 * (the main thread), the PDF threads (the worker pool's, at nice +10) and all the others (PGlite's
 * thread, libuv's and libvips's threads, V8's helpers). Clock ticks of 10 ms.
 */
function serverCpuMs() {
  const cpu = { eventLoop: 0, pdf: 0, other: 0 };
  for (const thread of readdirSync(`/proc/${server.pid}/task`)) {
    try {
      // After the command's closing parenthesis: utime, stime and nice are fields 14, 15 and 19 of proc(5).
      const fields = readFileSync(`/proc/${server.pid}/task/${thread}/stat`, 'utf8').split(') ')[1].split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * 10;
      if (Number(thread) === server.pid) cpu.eventLoop += ms;
      else if (Number(fields[16]) > 0) cpu.pdf += ms;
      else cpu.other += ms;
    } catch {
      // the thread ended meanwhile
    }
  }
  return cpu;
}

/** What each kind of thread used between two readings, per signature. */
const cpuPerSignature = (from, to, signatures) =>
  Object.fromEntries(Object.keys(from).map((kind) => [kind, (to[kind] - from[kind]) / signatures]));

/** The main thread's event-loop delay since the last read (prom-client resets its histogram at each), in ms. */
async function eventLoopDelay() {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await response.text();
  const seconds = (name) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(text)?.[1]);
  return {
    p99: seconds('nodejs_eventloop_lag_p99_seconds') * 1000,
    max: seconds('nodejs_eventloop_lag_max_seconds') * 1000,
  };
}

const figures = {};
try {
  await waitReady(baseUrl, server);
  const setup = await journeySetup(call);
  const cookie = await staffLogin(ANALYST)(fetchJson(baseUrl));
  const needed = WARM_UP + ALONE + ROUNDS * CONCURRENCY;
  const signers = [];
  const preparing = performance.now();
  while (signers.length < needed) {
    const batch = Math.min(PREPARE_AT_ONCE, needed - signers.length);
    const from = signers.length;
    signers.push(...(await Promise.all(Array.from({ length: batch }, (_, i) => readySigner(setup, cookie, from + i)))));
  }
  figures.prepareS = (performance.now() - preparing) / 1000;

  for (const signer of signers.splice(0, WARM_UP)) await sign(signer);
  await sleep(PAUSE_MS);
  figures.window = [now()];
  await eventLoopDelay();
  let cpuFrom = serverCpuMs();
  const alone = [];
  for (const signer of signers.splice(0, ALONE)) {
    alone.push(await sign(signer));
    await sleep(PAUSE_MS);
  }
  figures.aloneLoop = await eventLoopDelay();
  figures.aloneCpu = cpuPerSignature(cpuFrom, serverCpuMs(), alone.length);
  figures.alone = alone;
  figures.window.push(now());
  const together = [];
  cpuFrom = serverCpuMs();
  for (let round = 0; round < ROUNDS; round++) {
    together.push(...(await Promise.all(signers.splice(0, CONCURRENCY).map(sign))));
    await sleep(PAUSE_MS);
  }
  figures.togetherLoop = await eventLoopDelay();
  figures.togetherCpu = cpuPerSignature(cpuFrom, serverCpuMs(), together.length);
  figures.together = together;
  figures.window.push(now());
} catch (error) {
  console.error(readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n'));
  throw error;
} finally {
  // SIGTERM: a graceful stop, so that --cpu-prof writes its profiles.
  await stopServer(server);
  process.off('exit', onExit);
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
}

// ---- the report ------------------------------------------------------------------------------------
const ms = (value) => `${value.toFixed(0)} ms`;
const total = (cpu) => cpu.eventLoop + cpu.pdf + cpu.other;
const row = (name, values, loop, cpu) => [
  name,
  values.length,
  ms(percentile(values, 50)),
  ms(percentile(values, 95)),
  ms(Math.max(...values)),
  ms(loop.p99),
  ms(loop.max),
  ms(total(cpu)),
  `${ms(cpu.eventLoop)} / ${ms(cpu.pdf)} / ${ms(cpu.other)}`,
];
const aloneP95 = percentile(figures.alone, 95);
const togetherP95 = percentile(figures.together, 95);
console.log(
  `\nSignatures (PUT …/contract) on ${postgres ? 'PostgreSQL' : 'PGlite'}, ${figures.alone.length} alone then ` +
    `${ROUNDS} rounds of ${CONCURRENCY} at once (${figures.prepareS.toFixed(0)} s to make the signers ready)`,
);
console.log(
  table(
    [
      '',
      'signatures',
      'p50',
      'p95',
      'max',
      'event loop p99',
      'event loop max',
      'CPU each',
      'event loop / PDF / other threads',
    ],
    [
      row('one alone', figures.alone, figures.aloneLoop, figures.aloneCpu),
      row(`${CONCURRENCY} at once`, figures.together, figures.togetherLoop, figures.togetherCpu),
    ],
  ),
);
const ratio = togetherP95 / aloneP95;
console.log(
  `p95 ${CONCURRENCY} at once / p95 alone = ${ratio.toFixed(2)} (goal ≤ ${GOAL_RATIO}); ` +
    `p50 ratio ${(percentile(figures.together, 50) / percentile(figures.alone, 50)).toFixed(2)}`,
);
// However well spread over the threads, the last of N signatures at once waits for N × that CPU / cores.
const cores = availableParallelism();
const cpuEach = total(figures.togetherCpu);
console.log(
  `server CPU per signature at once ${ms(cpuEach)} (every thread, the pauses' background work included): ` +
    `${CONCURRENCY} at once need at least ${ms((CONCURRENCY * cpuEach) / cores)} on ${cores} cores` +
    `${postgres ? ", PostgreSQL's own CPU not counted" : ''}`,
);
const loads = (values) => values.map((load) => load.toFixed(2)).join(' / ');
console.log(
  `load average ${loads(loadBefore)} before, ${loads(loadavg())} after (1 / 5 / 15 min) on ` +
    `${cores} cores; node ${process.version}`,
);
const command = ['node scripts/perf/signing.mjs', ...process.argv.slice(2)].join(' ');
console.log(`command: ${postgres ? 'DATABASE_URL=… ' : ''}${command}`);
if (profileDir)
  console.log(
    `server CPU profiles: ${profileDir}; alone from ${figures.window[0]} µs, at once from ${figures.window[1]} ` +
      `to ${figures.window[2]} µs (the profiles' clock)`,
  );
exitIfBelowGoal(
  ratio > GOAL_RATIO
    ? [`${CONCURRENCY} at once p95 ${ms(togetherP95)} > ${GOAL_RATIO} × alone p95 ${ms(aloneP95)}`]
    : [],
);
console.log(`\n${CONCURRENCY} signatures at once: p95 within ${GOAL_RATIO} × one alone`);
