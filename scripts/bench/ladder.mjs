// Config's request path, part by part (issue 35): bare Fastify without a logger (the bench's limit),
// then the product's parts added one at a time, each with the library and the options the product
// uses (bare-fastify.mjs, BARE_FEATURES), then the product's own GET /api/v1/config, with every read's
// request line and as shipped (a share of the reads' lines, decision 044). Each step on core
// 0, autocannon on core 1 offering every step the same rate (below the product's saturation, so each
// step's CPU per request is taken at the same batching of requests per turn of the event loop);
// rounds interleave the steps so that the machine's drift falls on all of them. Prints the median
// CPU per request (/proc) of each step, what it adds, and the limit's share of it.
//
//   npm run bench:ladder [-- --rounds 5 --seconds 5 --rate 8000 --steps 0,8,9]   (--rate 0: saturation)
//
// Needs a build (`npm run build`). Prints; fails only if a step's requests fail.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ALL_FEATURES, PRODUCT_PARTS } from './product-parts.mjs';
import { PUBLIC_READS } from './public-reads.mjs';
import {
  assertBuilt,
  cpuTime,
  freePort,
  JOURNEY_ENV,
  SERVER_JS,
  stopServer,
  waitReady,
} from '../reliability/harness.mjs';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    rate: { type: 'string', default: '8000' },
    warmup: { type: 'string', default: '3' },
    // Step numbers (as printed in a full run) to run besides the limit (step 0), comma-separated: an
    // A/B of a few steps with more rounds.
    steps: { type: 'string' },
  },
});
assertBuilt();

let pinned = true;
try {
  execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  pinned = false;
}
const onCore0 = (script) =>
  pinned ? ['taskset', ['-c', '0', process.execPath, script]] : [process.execPath, [script]];

const BARE = join(import.meta.dirname, 'bare-fastify.mjs');
/** Each step: bare Fastify's features and log level, each step keeping the ones before it. */
const STEPS = [
  { name: 'bare Fastify, no logger (the limit)', features: [], log: 'off' },
  ...PRODUCT_PARTS.map(([name], index) => ({
    name: `+ ${name}`,
    features: ALL_FEATURES.slice(0, index + 1),
    log: 'off',
  })),
  { name: '+ a logger, no request line (pino at warn)', features: ALL_FEATURES, log: 'warn' },
  { name: '+ a log line per request (pino)', features: ALL_FEATURES, log: 'info' },
  { name: 'the product, every read logged (LOG_READ_SAMPLE=1)', product: { LOG_READ_SAMPLE: '1' } },
  { name: 'the product as shipped: GET /api/v1/config', product: {} },
  // The limit (step 0) always runs: every share is of it.
].filter((_step, index) => !args.steps || index === 0 || args.steps.split(',').map(Number).includes(index));

async function start(step, body, dataDir) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = step.product
    ? {
        ...JOURNEY_ENV,
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_MINUTE: '100000000',
        PORT: String(port),
        DATA_DIR: dataDir,
        ...step.product,
      }
    : { PORT: String(port), LOG_LEVEL: step.log, BARE_BODY: body, BARE_FEATURES: step.features.join(',') };
  const child = spawn(...onCore0(step.product ? SERVER_JS : BARE), {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const path = step.product ? PUBLIC_READS.config : '/constant';
  await waitReady(baseUrl, child, { path });
  return { child, url: `${baseUrl}${path}` };
}

async function measure(step, body, dataDir) {
  const { child, url } = await start(step, body, dataDir);
  try {
    // --rate 0: no rate offered, every connection sends its next request once answered (saturation).
    const offered = { url, connections: 10, ...(Number(args.rate) > 0 && { overallRate: Number(args.rate) }) };
    await autocannon({ ...offered, duration: Number(args.warmup) });
    const before = cpuTime(child.pid);
    const result = await autocannon({ ...offered, duration: Number(args.seconds) });
    const failed = result.non2xx + result.errors + result.timeouts;
    return { rps: result.requests.average, us: (cpuTime(child.pid) - before) / result.requests.total, failed };
  } finally {
    await stopServer(child);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'provee-ladder-'));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
try {
  // The product's config answer, so that bare Fastify answers the same bytes.
  const product = await start({ product: {} }, '', dataDir);
  const body = await fetch(product.url).then((r) => r.text());
  await stopServer(product.child);

  const loadBefore = loadavg();
  const runs = STEPS.map(() => []);
  for (let round = 0; round < Number(args.rounds); round++)
    for (const [index, step] of STEPS.entries()) runs[index].push(await measure(step, body, dataDir));

  const medians = runs.map((stepRuns) => ({
    us: median(stepRuns.map((run) => run.us)),
    rps: median(stepRuns.map((run) => run.rps)),
  }));
  const limit = medians[0].us;
  const rows = STEPS.map((step, index) => ({
    step: step.name,
    'req/s': Math.round(medians[index].rps),
    'µs CPU/req': Number(medians[index].us.toFixed(1)),
    'µs added': index === 0 ? '' : Number((medians[index].us - medians[index - 1].us).toFixed(1)),
    'limit / step': `${((100 * limit) / medians[index].us).toFixed(0)}%`,
    failed: runs[index].reduce((sum, run) => sum + run.failed, 0),
  }));
  const load = (values) => values.map((value) => value.toFixed(1)).join(' / ');
  console.log(
    `config's request path, part by part: ${args.rate} req/s offered, ${args.rounds} rounds, medians; server on core 0, load on core 1; load average ${load(loadBefore)} before, ${load(loadavg())} after`,
  );
  console.table(rows);
  if (rows.some((row) => row.failed > 0)) process.exitCode = 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
