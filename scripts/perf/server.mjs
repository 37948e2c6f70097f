// What both performance scripts (issue 14) share: the BUILT app started through the reliability
// harness on a free port, with a throw-away database and the simulators at zero latency, and the
// states a measured page needs (a proven phone, a signing link) made through the real API.
import { staffLogin } from '../staff-login.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertBuilt,
  cedula,
  client,
  freePort,
  JOURNEY_ENV,
  journey,
  journeySetup,
  ROOT,
  startServer,
  stopServer,
  throwAwayPostgres,
  waitReady,
} from '../reliability/harness.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The servers' environment: the journeys' one, with every simulator answering at once. */
const PERF_ENV = {
  ...JOURNEY_ENV,
  LOG_LEVEL: 'warn',
  CODE_RESEND_SECONDS: '0',
  CODE_MAX_PER_HOUR: '100',
  BUREAU_LATENCY_MS: '0',
  BUREAU_SYNC_WAIT_MS: '4000',
  JOB_POLL_INTERVAL_MS: '250',
  IDENTITY_SIMULATOR_DELAY_MS: '0',
};

const ANALYST = {
  email: 'analista.perf@prestamista.example',
  role: 'analyst',
  name: 'Analista Rendimiento',
  password: 'perf-measurement-analyst-password',
};

/** A Dominican mobile number of this run (random, so reruns on one database never collide). */
export function randomPhone() {
  return `809${2 + Math.floor(Math.random() * 8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
}

/** A cédula the bureau and identity simulators approve (any that does not start with 999). */
export function cleanTaxId() {
  return cedula(`4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);
}

/**
 * The built web app copied to a temporary folder, under the build lock (others rebuild while the
 * measurements run): the server serves the same files from start to end.
 */
function snapshotWebDist(into) {
  const target = join(into, 'web-dist');
  execFileSync('flock', ['-s', '/tmp/provee-build.lock', 'cp', '-a', join(ROOT, 'apps/web/dist'), target]);
  return target;
}

/**
 * The built server on a free port: PGlite in a temporary data dir, or a throw-away database on the
 * PostgreSQL server of DATABASE_URL when it is set. With `analyst`, a back-office analyst account
 * made by the built staff:create CLI first. Returns { baseUrl, call, logFile, stop }.
 */
export async function startPerfServer({ analyst = false } = {}) {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'provee-perf-'));
  const postgres = process.env.DATABASE_URL ? await throwAwayPostgres(process.env.DATABASE_URL, 'provee_perf') : null;
  const port = await freePort();
  const env = {
    ...PERF_ENV,
    PORT: String(port),
    WEB_DIST_DIR: snapshotWebDist(dir),
    ...(postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: join(dir, 'data') }),
  };
  if (analyst) createStaffAccount(env);
  const logFile = join(dir, 'server.log');
  const log = openSync(logFile, 'w');
  const child = startServer(env, { stdio: ['ignore', log, log] });
  closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  // However this process ends (an error, Ctrl-C, a closed pipe), the server and its files go with it.
  const onExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
  const stop = async () => {
    process.off('exit', onExit);
    await stopServer(child, 'SIGTERM');
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(baseUrl, child);
  } catch (error) {
    console.error(readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n'));
    await stop();
    throw error;
  }
  return { baseUrl, call: client(baseUrl), logFile, stop };
}

/** As a lender makes its first account: the built CLI, the password on standard input. */
export function createStaffAccount(env, account = ANALYST) {
  try {
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'apps/api/dist/staff-create.js'),
        '--email',
        account.email,
        '--role',
        account.role,
        '--name',
        account.name,
      ],
      // PORT 1: nothing listens there, so the CLI's check for a running embedded-database server passes.
      { env: { PATH: process.env.PATH, ...env, PORT: '1' }, input: `${account.password}\n`, stdio: 'pipe' },
    );
  } catch (error) {
    throw new Error(`staff:create failed: ${error.stderr || error.message}`, { cause: error });
  }
}

/** The newest SMS to `phone` containing `text`, from the dev outbox. */
export async function smsWith(call, phone, text) {
  const { messages } = await call('GET', `/dev/outbox.json?to=${encodeURIComponent(`+1${phone}`)}`);
  const body = messages.find((message) => message.body.includes(text))?.body;
  if (!body) throw new Error(`no SMS with "${text}" to ${phone}`);
  return body;
}

/** Phone proof through the API (code by SMS, read from the dev outbox): the access token. */
export async function provePhone(call, phone) {
  await call('POST', '/api/v1/users/code', { body: { phone_number: phone } });
  const code = /\b(\d{6})\b/.exec(await smsWith(call, phone, 'código'))?.[1];
  if (!code) throw new Error(`no code in the SMS to ${phone}`);
  const proof = await call('PUT', '/api/v1/users/code', { body: { phone_number: phone, code } });
  return proof.data.authentication.access_token;
}

/** The analyst's login per server (its authenticator app, enrolled at the first one, lives here). */
const analystLogins = new Map();

/** A fetch wrapper for scripts/staff-login.mjs (and the calls of a perf script). */
export const fetchJson =
  (baseUrl) =>
  async (method, path, { json, cookie } = {}) => {
    const headers = {};
    if (json) headers['content-type'] = 'application/json';
    if (cookie) headers.cookie = cookie;
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: json && JSON.stringify(json) });
    return {
      ok: response.ok,
      status: response.status,
      data: await response.json().catch(() => null),
      headers: response.headers,
    };
  };

/**
 * A pre-approved shopkeeper (the harness's journey, phone proof to password) whose signing link an
 * analyst sends from the back office, as the crash test does: the link's path and query from the SMS.
 */
export async function signingLinkPath(call, baseUrl) {
  const phone = randomPhone();
  const { id } = await journey({ call, setup: await journeySetup(call), phone, taxId: cleanTaxId() });
  if (!analystLogins.has(baseUrl)) analystLogins.set(baseUrl, staffLogin(ANALYST));
  const cookie = await analystLogins.get(baseUrl)(fetchJson(baseUrl));
  await call('POST', `/api/backoffice/applications/${id}/contract-links`, {
    headers: { cookie },
    body: { person_type: 'titular' },
  });
  const url = /(https?:\/\/\S+)/.exec(await smsWith(call, phone, 'send-contract-sign'))?.[1];
  if (!url) throw new Error('no signing link in the SMS');
  const link = new URL(url);
  return `${link.pathname}${link.search}`;
}

/**
 * The machine's load average against its cores: other work on the machine slows the page's main
 * thread, which Lighthouse multiplies by its 4× CPU slowdown (TBT, LCP) and which delays every step.
 */
export function machineLoad() {
  const [load] = loadavg();
  const cores = availableParallelism();
  const busy = load > cores ? ': busier than its cores, figures that depend on the CPU are inflated' : '';
  return `machine load ${load.toFixed(1)} on ${cores} cores${busy}`;
}

export const median = (values) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A plain-text table: `rows` are arrays of cells; numbers-looking cells are right-aligned. */
export function table(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
  const line = (row) =>
    row
      .map((cell, i) =>
        /^[\d.,≤ -]+( ?(ms|s|KB|%))?$/.test(String(cell))
          ? String(cell).padStart(widths[i])
          : String(cell).padEnd(widths[i]),
      )
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
