// 100 concurrent journeys through the real API of the BUILT server (phone proof to password), and
// meanwhile the server's event-loop delay and a static file's latency. PostgreSQL when DATABASE_URL
// is set. Two runs, each on a freshly started server:
// - 'people': the 100 journeys start within RAMP_S seconds and pause THINK_S between steps, as people
//   do (faster than anyone: real people take 10 to 60 s a screen), so all 100 are under way at once.
//   The targets apply here.
// - 'flat out': the 100 journeys with no pause at all: what the machine can do (requests a second);
//   every request then waits behind the 99 other journeys', so its latencies measure the queue.
// Prints the tables; exits non-zero when a target is missed or a journey fails.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  assertBuilt,
  client,
  freePort,
  journey,
  journeySetup,
  JOURNEY_ENV,
  percentile,
  cedula,
  sleep,
  startServer as startBuiltServer,
  stopServer,
  throwAwayPostgres,
  waitReady,
} from '../reliability/harness.mjs';

const JOURNEYS = Number(process.env.BENCH_JOURNEYS ?? 100);
const TARGETS = { passwordP95: 500, loopDelayP99: 20, staticP99: 50 };
const RAMP_S = 5;
const THINK_S = [2, 6];

function startServer(env, loopFile) {
  return startBuiltServer(
    { ...env, BENCH_LOOP_DELAY_FILE: loopFile },
    { nodeArgs: ['--import', join(import.meta.dirname, 'loop-delay.mjs')] },
  );
}

async function pacedJourney(call, index, setup, paced) {
  const timings = {};
  const think = () => (paced ? sleep(1000 * (THINK_S[0] + Math.random() * (THINK_S[1] - THINK_S[0]))) : undefined);
  const step = async (name, run) => {
    if (name !== 'sms_send') await think();
    const started = performance.now();
    try {
      return await run();
    } finally {
      timings[name] = performance.now() - started;
    }
  };
  if (paced) await sleep(Math.random() * RAMP_S * 1000);
  setup.inFlight.now += 1;
  setup.inFlight.peak = Math.max(setup.inFlight.peak, setup.inFlight.now);
  await journey({
    call,
    setup,
    index,
    step,
    phone: `8095${String(setup.salt).padStart(3, '0')}${String(index).padStart(3, '0')}`,
    taxId: cedula(`40${String(setup.salt).padStart(4, '0')}${String(index).padStart(4, '0')}`),
  });
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
    const html = await (await fetch(`${baseUrl}/`)).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
    if (!asset) throw new Error('no /assets/*.js in the served index.html');
    const setup = { ...(await journeySetup(call)), salt, inFlight: { now: 0, peak: 0 } };

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
      Array.from({ length: JOURNEYS }, (_, index) => pacedJourney(call, index, setup, paced)),
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
  assertBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-bench-'));
  const pg = process.env.DATABASE_URL ? await throwAwayPostgres(process.env.DATABASE_URL) : undefined;
  const env = {
    ...JOURNEY_ENV,
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
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
