// Where a read's time per request goes: the BUILT server (or bare Fastify) on core 0 under
// `node --cpu-prof`, autocannon on core 1, and the samples taken during the measured run sorted into
// the parts of a request (HTTP, routing, hooks, log line, token check, Drizzle, the database hop,
// serialisation…), printed as µs of CPU per request. Every thread of the process is counted
// (PGlite's database thread shares core 0 with the main one).
//
//   node scripts/bench/profile.mjs --endpoint "user detail" [--db pglite|postgres] [--seconds 10]
//   node scripts/bench/profile.mjs --endpoint config (or cities, states) [--fresh]
//     (a public read is profiled after a shopkeeper's journey, as in `npm run bench`; --fresh: on a
//     server that has served nothing else)
//   node scripts/bench/profile.mjs --bare [--log]     (bare Fastify, without / with its log line)
//
// Needs a build (`npm run build`); --db postgres needs DATABASE_URL (a throw-away database on it).
// Sampling costs the server some throughput: read the parts' shares, not the req/s.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { pinDatabaseBackends } from './pin-database.mjs';
import { PUBLIC_READS } from './public-reads.mjs';
import {
  assertBuilt,
  cedula,
  client,
  freePort,
  journey,
  journeySetup,
  JOURNEY_ENV,
  SERVER_JS,
  stopServer,
  throwAwayPostgres,
  waitReady,
} from '../reliability/harness.mjs';

const { values: args } = parseArgs({
  options: {
    endpoint: { type: 'string', default: 'user detail' },
    db: { type: 'string', default: 'pglite' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    // A fixed request rate (autocannon's overallRate): the same rate for the product and an anchor
    // compares their CPU per request at the same batching; unset, as fast as the server answers.
    rate: { type: 'string' },
    bare: { type: 'boolean', default: false },
    // A public read on a server that has served nothing else (no journey first).
    fresh: { type: 'boolean', default: false },
    log: { type: 'boolean', default: false },
    // Sampling interval in µs (V8's default is 1,000).
    interval: { type: 'string', default: '250' },
    top: { type: 'string', default: '0' },
    // A part whose samples are listed by their leaf function.
    detail: { type: 'string' },
  },
});

let hasTaskset = true;
try {
  execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  hasTaskset = false;
}
const pinned = (nodeArgs, env) =>
  spawn(...(hasTaskset ? ['taskset', ['-c', '0', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs]), {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

/** What each part of a request is, by the source file (through the build's source map) or function. */
const PARTS = [
  // Parts that own everything they call (the stack is searched from the root).
  {
    part: 'log line',
    claims: true,
    match: (f) =>
      /node_modules\/(pino|sonic-boom|thread-stream)\//.test(f.file) ||
      f.name === 'requestCompleted' ||
      /src\/logger\.ts$/.test(f.file),
  },
  { part: 'token check', claims: true, match: (f) => /src\/modules\/auth\//.test(f.file) },
  {
    part: 'metrics (onResponse)',
    claims: true,
    match: (f) => /node_modules\/prom-client\/|src\/plugins\/app\/metrics\.ts$/.test(f.file),
  },
  {
    part: 'statement watch (db metrics)',
    claims: true,
    match: (f) => /src\/db\/observed-statements\.ts$|src\/observability\//.test(f.file),
  },
  {
    part: 'serialisation (response schema)',
    claims: true,
    match: (f) =>
      /node_modules\/(fast-json-stringify|fastify-type-provider-zod)\//.test(f.file) ||
      (/fastify\/lib\/reply\.js$/.test(f.file) && f.name === 'serialize'),
  },
  { part: 'postgres.js driver and socket', claims: true, match: (f) => /node_modules\/postgres\//.test(f.file) },
  {
    part: 'PGlite thread: hop (messages)',
    claims: true,
    match: (f) => /src\/db\/pglite-(thread|worker)\.ts$/.test(f.file) && f.thread === 'main',
  },
  // Parts by the frame nearest to the sample's leaf.
  { part: 'Drizzle', match: (f) => /node_modules\/drizzle-orm\//.test(f.file) },
  { part: 'validation (zod)', match: (f) => /node_modules\/zod\//.test(f.file) },
  { part: 'routing (find-my-way)', match: (f) => /node_modules\/find-my-way\//.test(f.file) },
  {
    part: 'hooks: security headers, compression, guard, load shedding',
    match: (f) =>
      /src\/plugins\/external\/|src\/input-guard\.ts$|node_modules\/@fastify\/(under-pressure|rate-limit)\//.test(
        f.file,
      ),
  },
  {
    part: 'request id (genReqId)',
    match: (f) => f.name === 'genReqId' || /node_modules\/@opentelemetry\//.test(f.file),
  },
  {
    part: 'handler (route code)',
    match: (f) => /src\/modules\/|src\/contract\/|src\/phone\.ts$|packages\/domain\//.test(f.file),
  },
  {
    part: 'Fastify core (request, reply, hooks runner)',
    match: (f) => /node_modules\/(fastify|light-my-request|avvio|fastq)\//.test(f.file),
  },
  {
    part: 'HTTP: parse, request and response objects',
    match: (f) => /^node:_http_(server|common|incoming)$/.test(f.file),
  },
  {
    part: 'HTTP: write to the socket',
    match: (f) => /^node:(_http_outgoing|net|internal\/stream_base_commons|internal\/streams\/writable)$/.test(f.file),
  },
  {
    part: 'PGlite thread: PostgreSQL (WebAssembly)',
    match: (f) => f.thread === 'worker' && (f.file === 'wasm' || /postgres\.wasm|pglite\.wasm/.test(f.file)),
  },
  { part: 'PGlite thread: JS (protocol, parsing, messages)', match: (f) => f.thread === 'worker' },
];

const sourceMaps = new Map();
const details = new Map();
/** The source map of the API's build (dist/*.js): its frames are named by their source file. */
function sourceOf(url) {
  if (!url.startsWith('file://') || !url.includes('/apps/api/dist/')) return undefined;
  if (!sourceMaps.has(url)) {
    let map;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
    } catch {
      map = null;
    }
    sourceMaps.set(url, map);
  }
  return sourceMaps.get(url);
}

/** One frame: its function name and its file (the original source for the build's bundle). */
function frameOf(callFrame, thread) {
  const { url, functionName, lineNumber, columnNumber } = callFrame;
  let file = url.replace(/^file:\/\//, '');
  const map = sourceOf(url);
  if (map) {
    const entry = map.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource) file = entry.originalSource;
  }
  if (url.startsWith('wasm://')) file = 'wasm';
  return { name: functionName, file, thread };
}

function partOf(stack) {
  // stack: root → leaf
  for (const rule of PARTS.filter((r) => r.claims)) if (stack.some((f) => rule.match(f))) return rule.part;
  for (let i = stack.length - 1; i >= 0; i--) {
    const rule = PARTS.find((r) => !r.claims && r.match(stack[i]));
    if (rule) return rule.part;
  }
  const leaf = stack.at(-1);
  if (leaf.name === '(garbage collector)') return 'garbage collection';
  if (leaf.name === '(program)') return 'native: event loop, syscalls, HTTP parser (C++)';
  return `other: ${stack.findLast((f) => f.file)?.file ?? leaf.name}`;
}

/** Time (µs) by part of the samples between `from` and `to` (V8's monotonic clock, µs). */
function readProfile(path, from, to, thread, into) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partById = new Map();
  const part = (id) => {
    if (!partById.has(id)) {
      const stack = [];
      for (let at = id; at !== undefined; at = parent.get(at)) stack.unshift(frameOf(byId.get(at).callFrame, thread));
      const leaf = byId.get(id).callFrame.functionName;
      const found = leaf === '(idle)' ? 'idle' : partOf(stack.slice(1));
      const top = stack.at(-1);
      partById.set(id, found);
      leafById.set(id, `${top.name || '(anonymous)'} ${top.file.replace(/^.*node_modules\//, '')}`);
    }
    return partById.get(id);
  };
  const leafById = new Map();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i];
    time += delta;
    if (time < from || time > to) continue;
    const next = profile.timeDeltas[i + 1] ?? 0;
    const key = part(profile.samples[i]);
    into.set(key, (into.get(key) ?? 0) + next);
    if (args.detail && key === args.detail) {
      const leaf = `  ${leafById.get(profile.samples[i])}`;
      details.set(leaf, (details.get(leaf) ?? 0) + next);
    }
  }
}

/** CPU time (µs, user and system) of /proc/<path>/stat: utime and stime, fields 14 and 15 of proc(5), in ticks of 10 ms. */
function ticks(path) {
  try {
    const fields = readFileSync(`/proc/${path}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** CPU time (µs) the process `pid` has used: in all, and by thread. */
function cpuTime(pid) {
  const threads = new Map();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      let name = tid;
      try {
        name = `${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()} ${tid}`;
      } catch {
        // ended
      }
      threads.set(name, ticks(`${pid}/task/${tid}`));
    }
  } catch {
    // not Linux
  }
  return { total: ticks(pid), threads };
}

/** The CPU (µs) each thread used between two cpuTime readings, the main one first, the busiest after it. */
function threadsBetween(pid, before, after) {
  return [...after.threads]
    .map(([tid, us]) => ({ tid, main: tid.endsWith(` ${pid}`), us: us - (before.threads.get(tid) ?? 0) }))
    .sort((a, b) => Number(b.main) - Number(a.main) || b.us - a.us);
}

async function loadFor(url, headers, pid) {
  const base = {
    url,
    connections: Number(args.connections),
    headers,
    ...(args.rate ? { overallRate: Number(args.rate) } : {}),
  };
  await autocannon({ ...base, duration: Number(args.warmup) });
  const from = Number(process.hrtime.bigint() / 1000n);
  const cpuFrom = cpuTime(pid);
  const result = await autocannon({ ...base, duration: Number(args.seconds) });
  const cpuTo = cpuTime(pid);
  const threads = threadsBetween(pid, cpuFrom, cpuTo);
  // The profiler's own threads (V8's event processors) are left out: the server without them.
  const profiler = threads.filter((thread) => thread.tid.startsWith('v8:ProfEvntProc'));
  const cpu = cpuTo.total - cpuFrom.total - profiler.reduce((sum, thread) => sum + thread.us, 0);
  const to = Number(process.hrtime.bigint() / 1000n);
  return {
    from,
    to,
    cpu,
    threads,
    total: result.requests.total,
    rps: result.requests.average,
    failed: result.non2xx + result.errors,
  };
}

assertBuilt();
const profileDir = mkdtempSync(join(tmpdir(), 'provee-profile-'));
const dataDir = mkdtempSync(join(tmpdir(), 'provee-profile-data-'));
const cpuProf = ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', args.interval];
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
let pg;
let measured;
let label;
try {
  if (args.bare) {
    label = `bare Fastify ${args.log ? 'with' : 'without'} its log line`;
    const configBody = JSON.stringify({ data: { appName: 'x'.repeat(400) } });
    const server = pinned([...cpuProf, join(import.meta.dirname, 'bare-fastify.mjs')], {
      PORT: String(port),
      LOG_LEVEL: args.log ? 'info' : 'off',
      BARE_BODY: configBody,
    });
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${baseUrl}/constant`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      measured = await loadFor(`${baseUrl}/constant`, {}, server.pid);
    } finally {
      await stopServer(server);
    }
  } else {
    label = `${args.endpoint} on ${args.db}`;
    pg = args.db === 'postgres' ? await throwAwayPostgres(process.env.DATABASE_URL, 'provee_profile') : undefined;
    const env = {
      ...JOURNEY_ENV,
      LOG_LEVEL: 'info',
      PORT: String(port),
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '100000000',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    };
    const server = pinned([...cpuProf, SERVER_JS], env);
    const pinClient = pg && hasTaskset ? pg.connect() : undefined;
    try {
      await waitReady(baseUrl, server);
      const call = client(baseUrl);
      const user =
        args.fresh && PUBLIC_READS[args.endpoint]
          ? undefined
          : await journey({ call, setup: await journeySetup(call), phone: '8095550001', taxId: cedula('4020000001') });
      // A public read by its name (public-reads.mjs); any other name is the user detail.
      const [path, headers] = PUBLIC_READS[args.endpoint]
        ? [PUBLIC_READS[args.endpoint], {}]
        : [`/api/v1/users/${user.id}/SK`, { authorization: `Bearer ${user.token}` }];
      // PostgreSQL's backends off the server's core, as in `npm run bench`.
      if (pinClient) await pinDatabaseBackends(pinClient, 1);
      measured = await loadFor(`${baseUrl}${path}`, headers, server.pid);
    } finally {
      await pinClient?.end();
      await stopServer(server);
    }
  }
  const parts = new Map();
  const files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  // CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile: thread 0 is the main one.
  for (const name of files)
    readProfile(
      join(profileDir, name),
      measured.from,
      measured.to,
      name.split('.').at(-3) === '0' ? 'main' : 'worker',
      parts,
    );
  const busy = [...parts].filter(([key]) => key !== 'idle').reduce((sum, [, us]) => sum + us, 0);
  const perRequest = (us) => us / measured.total;
  console.log(
    `\n${label}: ${Math.round(measured.rps)} req/s under the profiler (${measured.total} requests, ${measured.failed} failed), ${args.connections} connections, ${args.seconds} s; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')}`,
  );
  console.log(
    `CPU per request (/proc: user + system, every thread but the profiler's): ${perRequest(measured.cpu).toFixed(1)} µs. Samples: ${perRequest(busy).toFixed(1)} µs busy, ${perRequest(parts.get('idle') ?? 0).toFixed(1)} µs idle (${files.length} thread(s), every ${args.interval} µs; wall time: a sample also counts the time the thread waited for the core)\n`,
  );
  const busiest = measured.threads.filter((thread) => thread.us > 0).slice(0, 5);
  console.log(
    `by thread (/proc): ${busiest.map((thread) => `${thread.main ? 'main' : thread.tid} ${perRequest(thread.us).toFixed(1)} µs`).join(', ')}\n`,
  );
  const rows = [...parts].filter(([key]) => key !== 'idle').sort((a, b) => b[1] - a[1]);
  const others = rows.filter(([key]) => key.startsWith('other: '));
  const shown = rows.filter(([key]) => !key.startsWith('other: '));
  const otherTotal = others.reduce((sum, [, us]) => sum + us, 0);
  console.table(
    [...shown, ['other (below)', otherTotal]].map(([part, us]) => ({
      part,
      share: `${((100 * us) / busy).toFixed(1)}%`,
      // The part's share of the samples times the CPU per request (/proc).
      'µs CPU/request': Number(((perRequest(measured.cpu) * us) / busy).toFixed(1)),
    })),
  );
  const top = Number(args.top) || 8;
  console.log('largest "other" files:');
  const cpuOf = (us) => ((perRequest(measured.cpu) * us) / busy).toFixed(2);
  for (const [key, us] of others.slice(0, top)) console.log(`  ${cpuOf(us)} µs  ${key.slice(7)}`);
  if (args.detail) {
    console.log(`"${args.detail}" by leaf function:`);
    for (const [key, us] of [...details].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`  ${cpuOf(us)} µs ${key}`);
  }
} finally {
  await pg?.drop();
  rmSync(profileDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
