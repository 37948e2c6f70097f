// Issue 13, suite 6: scale-out and faults. Two BUILT server processes on one PostgreSQL database
// behind a small round-robin proxy (below, test-only: each simulated client's requests alternate
// between the two processes, and its fake IP goes in X-Forwarded-For, which the servers trust with
// TRUST_PROXY=loopback, the proxy's addresses). PostgreSQL only (DATABASE_URL); part e also needs root and PostgreSQL 15's
// binaries, for a private cluster it can stop (never the machine's main cluster).
//
//   a. (every part) two processes started together on one database, the proxy in front;
//   b. journeys whose requests alternate between the processes complete, records in the database;
//   c. every business limit holds across the two (per-IP SMS cap, code attempts, resend cooldown and
//      hourly cap, consent PIN attempts); the flood guard is per process by design (decision 003);
//   d. the bureau retries (jobs of the queue) run in both and never query twice (the servers' logs and the
//      database);
//   e. PostgreSQL stopped in the middle of a load run (fast, then immediate): 503 envelopes while it
//      is down, recovery without a restart, every write acknowledged with a 2xx in the database.
//
//   npm run scale-test [-- --journeys 50 --only b,c,d,e]
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  assertBuilt,
  businessAddress,
  businessData,
  cedula,
  freePort,
  HttpError,
  journey,
  JOURNEY_ENV,
  journeyRecords,
  journeySetup,
  percentile,
  personalData,
  privatePostgres,
  sleep,
  startServer,
  tally,
  throwAwayPostgres,
  waitReady,
} from './harness.mjs';

const { values: args } = parseArgs({
  options: { journeys: { type: 'string', default: '50' }, only: { type: 'string', default: 'b,c,d,e' } },
});
const JOURNEYS = Number(args.journeys);
const PARTS = new Set(args.only.split(','));

/** Every request of the script is answered within this, or it counts as a hang. */
const ANSWER_BOUND_MS = 10_000;
/** While the database is down, a request must be answered (503) within this: the servers' connect timeout (5 s) and a margin. */
const DOWN_ANSWER_BOUND_MS = 6_000;

const BASE_ENV = {
  ...JOURNEY_ENV,
  // One root secret for every replica (README: required in production and shared), as a deployment sets it.
  APP_SECRET: randomBytes(32).toString('base64url'),
  // The proxy below, on this machine: the one hop whose X-Forwarded-For is believed.
  TRUST_PROXY: 'loopback',
  BUREAU_LATENCY_MS: '0',
  IDENTITY_SIMULATOR_DELAY_MS: '0',
};

const pad = (value, width) => String(value).padStart(width, '0');
const fakeIp = (part, index) => `10.${part}.${Math.floor(index / 250)}.${(index % 250) + 1}`;
const ms = (value) => (Number.isFinite(value) ? `${value.toFixed(0)} ms` : '—');
const failures = [];
const check = (ok, what) => {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
  return ok;
};

// ---- the round-robin proxy ------------------------------------------------------------------

/**
 * Forwards each request to the next server in turn for its client (the `x-test-client` header:
 * the simulated client's IP, sent on as X-Forwarded-For), so every client's requests alternate
 * between the processes. Answers carry `x-backend` (which process answered).
 */
async function startProxy(servers) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const turns = new Map();
  const served = Object.fromEntries(servers.map((server) => [server.name, 0]));
  const proxy = http.createServer((req, res) => {
    const given = req.headers['x-test-client'];
    const client = typeof given === 'string' ? given : req.socket.remoteAddress;
    const turn = turns.get(client) ?? 0;
    turns.set(client, turn + 1);
    const target = servers[turn % servers.length];
    served[target.name] += 1;
    const headers = { ...req.headers, host: `127.0.0.1:${target.port}`, 'x-forwarded-for': client };
    delete headers['x-test-client'];
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-backend': target.name });
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'application/json', 'x-backend': target.name });
      res.end(JSON.stringify({ code: 'PROXY_UPSTREAM_ERROR', message: error.message }));
    });
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        proxy.closeAllConnections();
        proxy.close(resolve);
      }),
  };
}

/**
 * A client of `baseUrl` as the simulated client `ip`: `call(method, path, { token, body, headers })`
 * → JSON, throws HttpError on a non-2xx; every request goes to `record` (status, backend, times).
 */
function clientAs(baseUrl, ip, record = () => {}) {
  return async function call(method, path, { token, body, headers = {} } = {}) {
    const entry = { method, path, client: ip, sentAt: Date.now() };
    let response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(ip ? { 'x-test-client': ip } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(ANSWER_BOUND_MS * 3),
      });
    } catch (error) {
      record({ ...entry, status: 'network', answeredAt: Date.now(), error: String(error?.cause ?? error) });
      throw error;
    }
    const json = await response.json().catch(() => undefined);
    record({
      ...entry,
      status: response.status,
      backend: response.headers.get('x-backend'),
      answeredAt: Date.now(),
      body: json,
    });
    if (!response.ok) throw new HttpError(method, path, response.status, json);
    return json;
  };
}

/** The status of a call that may fail (for hammering): 200, 429… */
const statusOf = (promise) =>
  promise.then(
    () => 200,
    (error) => (error instanceof HttpError ? error.status : 'network'),
  );

// ---- two server processes -------------------------------------------------------------------

const cleanups = [];

/** Two built servers on `env`'s database (started together), their logs in files, and the proxy. */
async function startPair(label, env, workDir) {
  const servers = [];
  for (const name of ['A', 'B']) {
    const port = await freePort();
    const logFile = join(workDir, `${label}-${name}.log`);
    const fd = openSync(logFile, 'w');
    const child = startServer(
      { ...env, PORT: String(port), DATA_DIR: join(workDir, `data-${label}-${name}`) },
      { stdio: ['ignore', fd, fd] },
    );
    closeSync(fd);
    servers.push({ name, port, url: `http://127.0.0.1:${port}`, child, logFile, pid: child.pid });
  }
  const pair = {
    servers,
    proxy: undefined,
    /** Graceful stop of both (SIGTERM); returns how long each took (a hang is killed after 20 s). */
    async stop() {
      await pair.proxy?.close();
      return Promise.all(servers.map((server) => stopTimed(server.child)));
    },
  };
  cleanups.push(() => pair.stop());
  const started = Date.now();
  await Promise.all(servers.map((server) => waitReady(server.url, server.child)));
  pair.proxy = await startProxy(servers);
  console.log(
    `  a. two server processes (pids ${servers.map((server) => server.pid).join(', ')}) started together on one database, ready in ${((Date.now() - started) / 1000).toFixed(1)} s; round-robin proxy at ${pair.proxy.url}, X-Forwarded-For trusted from it (TRUST_PROXY=loopback)`,
  );
  return pair;
}

async function stopTimed(child, limitMs = 20_000) {
  if (child.exitCode !== null || child.signalCode !== null) return { ms: 0, code: child.exitCode ?? child.signalCode };
  const started = Date.now();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(limitMs).then(() => 'hung')]);
  if (code === 'hung') {
    child.kill('SIGKILL');
    await exited;
  }
  return { ms: Date.now() - started, code };
}

const logLines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined;
      }
    })
    .filter(Boolean);

// ---- b. journeys alternating between the two processes ---------------------------------------

async function partJourneys(pgServer, workDir) {
  console.log(`\n== b. ${JOURNEYS} journeys through the proxy, each one's requests alternating between A and B ==`);
  const pg = await throwAwayPostgres(pgServer, 'provee_scale_b');
  cleanups.push(() => pg.drop());
  const pair = await startPair('b', { ...BASE_ENV, DATABASE_URL: pg.url }, workDir);
  const setup = await journeySetup(clientAs(pair.proxy.url, '10.66.255.1'));
  const requests = [];
  const started = Date.now();
  const results = await Promise.allSettled(
    Array.from({ length: JOURNEYS }, async (_, index) => {
      const phone = `8096${pad(index, 6)}`;
      const done = await journey({
        call: clientAs(pair.proxy.url, fakeIp(66, index), (entry) => requests.push(entry)),
        setup,
        index,
        phone,
        taxId: cedula(`42${pad(index, 8)}`),
        waiting: { intervalMs: 1000, maxTries: 60 },
      });
      return { ...done, index, phoneE164: `+1${phone}`, label: `journey ${index}` };
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const completed = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  for (const failure of results.filter((result) => result.status === 'rejected').slice(0, 3))
    console.log(`  failed: ${failure.reason?.message ?? failure.reason}`);

  // Per journey: the processes that answered, in order.
  const byClient = new Map();
  for (const entry of [...requests].sort((a, b) => a.sentAt - b.sentAt)) {
    if (!byClient.has(entry.client)) byClient.set(entry.client, []);
    byClient.get(entry.client).push(entry.backend);
  }
  let alternating = 0;
  let bothUsed = 0;
  for (const backends of byClient.values()) {
    if (backends.every((backend, i) => i === 0 || backend !== backends[i - 1])) alternating += 1;
    if (new Set(backends).size === 2) bothUsed += 1;
  }
  const sql = pg.connect();
  const { problems } = await journeyRecords((text) => sql.unsafe(text), completed);
  await sql.end();
  const errors = requests.filter((entry) => !(entry.status >= 200 && entry.status < 300));
  console.log(
    `  ${completed.length} / ${JOURNEYS} completed in ${seconds.toFixed(1)} s; ${requests.length} requests: A ${pair.proxy.served.A}, B ${pair.proxy.served.B}; errors: ${tally(errors.map((entry) => entry.status))}`,
  );
  check(completed.length === JOURNEYS, `every journey completed (${completed.length}/${JOURNEYS})`);
  check(
    alternating === byClient.size && bothUsed === byClient.size,
    `every journey's consecutive requests went to different processes (${alternating}/${byClient.size} alternating, ${bothUsed} used both)`,
  );
  check(errors.length === 0, `no request failed (${errors.length})`);
  check(
    problems.length === 0,
    `records in the database: lost ${problems.length}${problems[0] ? ` (${problems[0]})` : ''}`,
  );
  const stopped = await pair.stop();
  console.log(`  graceful stop: ${stopped.map((s, i) => `${'AB'[i]} ${ms(s.ms)} (exit ${s.code})`).join(', ')}`);
}

// ---- c. limits shared by both processes -----------------------------------------------------

const CAPS = {
  SMS_NUMBERS_PER_IP_PER_HOUR: 5,
  CODE_MAX_ATTEMPTS: 3,
  CODE_RESEND_SECONDS: 2,
  CODE_MAX_PER_HOUR: 3,
  RATE_LIMIT_PER_MINUTE: 60,
};

async function partLimits(pgServer, workDir) {
  console.log(
    `\n== c. every limit through the proxy, requests alternating between A and B (${Object.entries(CAPS)
      .map(([key, value]) => `${key}=${value}`)
      .join(', ')}) ==`,
  );
  const pg = await throwAwayPostgres(pgServer, 'provee_scale_c');
  cleanups.push(() => pg.drop());
  const env = {
    ...BASE_ENV,
    DATABASE_URL: pg.url,
    ENABLE_TEST_FACTORIES: 'true',
    ...Object.fromEntries(Object.entries(CAPS).map(([key, value]) => [key, String(value)])),
  };
  const pair = await startPair('c', env, workDir);
  const url = pair.proxy.url;
  const sql = pg.connect();
  try {
    // 1. Distinct numbers sent an SMS from one IP: 20 numbers at once from 10.67.1.1.
    {
      const ip = '10.67.1.1';
      const call = clientAs(url, ip);
      const phones = Array.from({ length: 20 }, (_, i) => `8097${pad(100 + i, 6)}`);
      const statuses = await Promise.all(
        phones.map((phone) => statusOf(call('POST', '/api/v1/users/code', { body: { phone_number: phone } }))),
      );
      const [{ sms }] =
        await sql`select count(*)::int as sms from sms_outbox where "to" = any(${phones.map((p) => `+1${p}`)})`;
      const [{ numbers }] = await sql`
        select count(distinct phone_e164)::int as numbers from phone_proof_starts where ip = ${ip} and kind = 'sms'`;
      console.log(
        `  SMS per IP: 20 numbers at once from one IP → ${tally(statuses)}; ${sms} SMS, ${numbers} numbers counted`,
      );
      check(
        statuses.filter((s) => s === 200).length === CAPS.SMS_NUMBERS_PER_IP_PER_HOUR &&
          sms === CAPS.SMS_NUMBERS_PER_IP_PER_HOUR &&
          statuses.every((s) => s === 200 || s === 429),
        `exactly ${CAPS.SMS_NUMBERS_PER_IP_PER_HOUR} numbers got an SMS across both processes`,
      );
    }
    // 2. Tries per code: 20 wrong codes at once, then the right one.
    {
      const call = clientAs(url, '10.67.2.1');
      const phone = '8097200001';
      await call('POST', '/api/v1/users/code', { body: { phone_number: phone } });
      const code = /\b(\d{6})\b/.exec((await call('GET', `/dev/outbox.json?to=%2B1${phone}`)).messages[0].body)[1];
      const wrong = code === '000000' ? '111111' : '000000';
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          statusOf(call('PUT', '/api/v1/users/code', { body: { phone_number: phone, code: wrong } })),
        ),
      );
      const right = await statusOf(call('PUT', '/api/v1/users/code', { body: { phone_number: phone, code } }));
      const [{ attempts }] = await sql`
        select max(attempts)::int as attempts from phone_codes where phone_e164 = ${`+1${phone}`} and purpose = 'phone-proof'`;
      console.log(
        `  code tries: 20 wrong codes at once → ${tally(statuses)}; ${attempts} tries recorded; then the right code → ${right}`,
      );
      check(
        statuses.filter((s) => s === 400).length <= CAPS.CODE_MAX_ATTEMPTS &&
          attempts <= CAPS.CODE_MAX_ATTEMPTS &&
          right === 429,
        `at most ${CAPS.CODE_MAX_ATTEMPTS} tries counted across both processes; the right code refused after them`,
      );
    }
    // 3. Resend interval and codes per number per hour: 4 bursts of 10 requests for one number, 2.5 s apart.
    {
      const call = clientAs(url, '10.67.3.1');
      const phone = '8097300001';
      const bursts = [];
      for (let burst = 0; burst < 4; burst++) {
        if (burst > 0) await sleep(CAPS.CODE_RESEND_SECONDS * 1000 + 500);
        bursts.push(
          await Promise.all(
            Array.from({ length: 10 }, () =>
              statusOf(call('POST', '/api/v1/users/code', { body: { phone_number: phone } })),
            ),
          ),
        );
      }
      const codes = await sql`
        select created_at from phone_codes where phone_e164 = ${`+1${phone}`} and purpose = 'phone-proof' order by created_at`;
      const gaps = codes.slice(1).map((row, i) => row.created_at.getTime() - codes[i].created_at.getTime());
      console.log(
        `  resend and hourly cap: 4 bursts of 10 → ${bursts.map((burst) => tally(burst)).join(' | ')}; ${codes.length} codes sent, ${gaps.length ? `closest two ${gaps.reduce((a, b) => Math.min(a, b))} ms apart` : ''}`,
      );
      check(
        codes.length <= CAPS.CODE_MAX_PER_HOUR && gaps.every((gap) => gap >= CAPS.CODE_RESEND_SECONDS * 1000),
        `at most ${CAPS.CODE_MAX_PER_HOUR} codes an hour and none within ${CAPS.CODE_RESEND_SECONDS} s of another, across both processes`,
      );
      check(
        bursts[3].every((s) => s === 429),
        'the 4th burst (hourly cap reached) got only 429',
      );
    }
    // 4. Consent PIN tries: 10 waves of 5 wrong PINs, then the right one.
    {
      const call = clientAs(url, '10.67.4.1');
      const phone = '8097400001';
      const { data } = await call('POST', '/dev/test/users', {
        body: { phone_number: phone, next_step: 'ACCOUNT_NIP', complete: { tax_id: cedula('4270000001') } },
      });
      await call('POST', '/api/v1/users/code', { body: { phone_number: phone } });
      const code = /\b(\d{6})\b/.exec((await call('GET', `/dev/outbox.json?to=%2B1${phone}`)).messages[0].body)[1];
      const proof = await call('PUT', '/api/v1/users/code', { body: { phone_number: phone, code } });
      const token = proof.data.authentication.access_token;
      const pin = (await call('POST', `/api/v1/users/${data.user_id}/SK/nip`, { token })).data.default_nip;
      const wrong = pin === '0000' ? '1111' : '0000';
      const statuses = [];
      for (let wave = 0; wave < 10; wave++)
        statuses.push(
          ...(await Promise.all(
            Array.from({ length: 5 }, () =>
              statusOf(call('PUT', `/api/v1/users/${data.user_id}/SK/nip`, { token, body: { nip: wrong } })),
            ),
          )),
        );
      const right = await statusOf(call('PUT', `/api/v1/users/${data.user_id}/SK/nip`, { token, body: { nip: pin } }));
      const [{ consents }] =
        await sql`select count(*)::int as consents from bureau_consents where user_id = ${data.user_id}`;
      const wrongTries = statuses.filter((s) => s === 400).length;
      console.log(
        `  consent PIN: 50 wrong PINs in waves of 5 → ${tally(statuses)}; then the right PIN → ${right}; ${consents} consents`,
      );
      check(
        wrongTries <= CAPS.CODE_MAX_ATTEMPTS &&
          right === (wrongTries < CAPS.CODE_MAX_ATTEMPTS ? 200 : 429) &&
          consents === (right === 200 ? 1 : 0),
        `at most ${CAPS.CODE_MAX_ATTEMPTS} PIN tries across both processes; the right PIN refused after them, no consent`,
      );
    }
    // 5. The flood guard: per process by design (docs/decisions/003).
    {
      const call = clientAs(url, '10.67.5.1');
      const statuses = [];
      for (let i = 0; i < 200; i += 20)
        statuses.push(
          ...(await Promise.all(Array.from({ length: 20 }, () => statusOf(call('GET', '/api/v1/business-types'))))),
        );
      const allowed = statuses.filter((s) => s === 200).length;
      console.log(
        `  flood guard (RATE_LIMIT_PER_MINUTE=${CAPS.RATE_LIMIT_PER_MINUTE}): 200 requests from one IP → ${tally(statuses)}.` +
          `\n       Per process by design (docs/decisions/003): with 2 processes one IP gets 2 × ${CAPS.RATE_LIMIT_PER_MINUTE} a minute;` +
          ' the business limits above are the ones counted in the database and shared.',
      );
      check(
        allowed === 2 * CAPS.RATE_LIMIT_PER_MINUTE,
        `the flood guard allowed ${allowed} = 2 processes × ${CAPS.RATE_LIMIT_PER_MINUTE} (not shared, as documented)`,
      );
    }
  } finally {
    await sql.end();
  }
  console.log(`  requests answered: A ${pair.proxy.served.A}, B ${pair.proxy.served.B}`);
  await pair.stop();
}

// ---- d. the bureau retries (jobs of the queue) in both processes ---------------------------

const BUREAU_ENV = {
  BUREAU_SLOW_MS: '2500',
  BUREAU_TIMEOUT_MS: '5000',
  BUREAU_SYNC_WAIT_MS: '2000',
  BUREAU_RETRY_BASE_MS: '300',
  BUREAU_RETRY_MAX_MS: '1200',
  JOB_POLL_INTERVAL_MS: '100',
};

async function partBureau(pgServer, workDir) {
  const guarantors = 20;
  console.log(
    `\n== d. bureau retries: ${guarantors} guarantors with the simulator's failing (999-0000005: 3 of 4) and slow (999-0000004: 1 of 4) identities; both processes run the job queue's workers (every ${BUREAU_ENV.JOB_POLL_INTERVAL_MS} ms) ==`,
  );
  const pg = await throwAwayPostgres(pgServer, 'provee_scale_d');
  cleanups.push(() => pg.drop());
  const pair = await startPair('d', { ...BASE_ENV, ...BUREAU_ENV, LOG_LEVEL: 'info', DATABASE_URL: pg.url }, workDir);
  const setup = await journeySetup(clientAs(pair.proxy.url, '10.68.255.1'));
  const failing = cedula('9990000005');
  const slow = cedula('9990000004');
  const started = Date.now();
  const answers = await Promise.allSettled(
    Array.from({ length: guarantors }, async (_, index) => {
      const call = clientAs(pair.proxy.url, fakeIp(68, index));
      const { id, token } = await journey({
        call,
        setup,
        index,
        phone: `8098${pad(index, 6)}`,
        taxId: cedula(`43${pad(index, 8)}`),
        waiting: { intervalMs: 1000, maxTries: 60 },
      });
      const avalPhone = `8298${pad(index, 6)}`;
      // Every journey makes the same requests, so the same step would always land on the same
      // process: one more request for half of them spreads the PIN confirmations (and their first
      // bureau attempt) over both.
      if (index % 2 === 1) await call('GET', `/api/v1/users/${id}/SK`, { token });
      await call('POST', `/api/v1/users/${id}/SK/avals`, {
        token,
        body: {
          aval_type: 'COLLATERAL',
          name: 'Ramona Garante',
          phone_number: avalPhone,
          tax_payer_id: index % 4 === 3 ? slow : failing,
        },
      });
      const pin = (await call('POST', `/api/v1/users/${id}/SK/aval/nip?to=${avalPhone}`, { token })).data.default_nip;
      return (await call('PUT', `/api/v1/users/${id}/SK/aval/nip?to=${avalPhone}`, { token, body: { nip: pin } })).data;
    }),
  );
  for (const failure of answers.filter((answer) => answer.status === 'rejected').slice(0, 3))
    console.log(`  failed: ${failure.reason?.message ?? failure.reason}`);
  check(
    answers.every((answer) => answer.status === 'fulfilled'),
    `${guarantors} shopkeepers named a guarantor who consented (${answers.filter((a) => a.status === 'fulfilled').length})`,
  );

  // Until every guarantor's query is answered (or given up).
  const sql = pg.connect();
  let queries = [];
  for (let i = 0; i < 120; i++) {
    queries = await sql`
      select q.id::text, q.consent_id::text, q.status, q.attempts, c.aval_id is not null as guarantor
      from bureau_queries q join bureau_consents c on c.id = q.consent_id`;
    if (
      queries.filter((q) => q.guarantor).length === guarantors &&
      queries.every((q) => q.status === 'DONE' || q.status === 'FAILED')
    )
      break;
    await sleep(500);
  }
  const seconds = (Date.now() - started) / 1000;
  const consents = await sql`
    select c.id::text, c.aval_id is not null as guarantor,
      (select count(*)::int from bureau_queries q where q.consent_id = c.id) as queries,
      (select count(*)::int from bureau_queries q where q.consent_id = c.id and q.status = 'DONE') as answered,
      (select count(*)::int from credit_decisions d where d.consent_id = c.id) as decisions
    from bureau_consents c`;
  await sql.end();
  const stopped = await pair.stop();

  // Every bureau call, from both servers' logs.
  const attempts = new Map();
  for (const server of pair.servers)
    for (const line of logLines(server.logFile)) {
      if (!line.queryId) continue;
      const kind =
        line.msg === 'bureau attempt started'
          ? 'start'
          : line.msg === 'bureau answered'
            ? 'answered'
            : /^bureau (query failed|attempt failed)/.test(line.msg)
              ? 'failed'
              : undefined;
      if (!kind) continue;
      if (!attempts.has(line.queryId)) attempts.set(line.queryId, []);
      attempts.get(line.queryId).push({ kind, attempt: line.attempt, time: line.time, server: server.name });
    }
  let twice = 0;
  let overlapping = 0;
  let crossed = 0;
  const problems = [];
  const byServer = { A: 0, B: 0 };
  for (const query of queries) {
    const events = attempts.get(query.id) ?? [];
    const starts = events.filter((e) => e.kind === 'start').sort((a, b) => a.time - b.time);
    const answered = events.filter((e) => e.kind === 'answered');
    for (const start of starts) byServer[start.server] += 1;
    const numbers = starts.map((start) => start.attempt);
    if (new Set(numbers).size !== numbers.length || answered.length > 1) twice += 1;
    // Each attempt ends (answer or failure logged) before the next one starts, whichever process runs it.
    for (let i = 1; i < starts.length; i++) {
      const end = events.find((e) => e.kind !== 'start' && e.attempt === starts[i - 1].attempt);
      if (!end || end.time > starts[i].time) overlapping += 1;
    }
    if (new Set(starts.map((start) => start.server)).size > 1) crossed += 1;
    if (query.status !== 'DONE' || answered.length !== 1 || numbers.length !== query.attempts)
      problems.push(
        `${query.id}: ${query.status}, ${query.attempts} attempts in the database, ${numbers.length} in the logs, ${answered.length} answers`,
      );
  }
  const guarantorQueries = queries.filter((query) => query.guarantor);
  const retried = guarantorQueries.filter((query) => query.attempts > 1);
  console.log(
    `  ${queries.length} bureau queries (${guarantorQueries.length} guarantors', ${queries.length - guarantorQueries.length} shopkeepers') settled in ${seconds.toFixed(1)} s;` +
      ` attempts ${tally(queries.map((query) => query.attempts))}; attempts run by A ${byServer.A}, by B ${byServer.B};` +
      ` ${crossed} queries had attempts in both processes`,
  );
  check(
    retried.length === (guarantors * 3) / 4 && crossed > 0,
    `retries happened, in both processes (${retried.length} failing identities retried; ${crossed} crossed processes)`,
  );
  check(twice === 0, `no attempt ran twice and no query was answered twice (${twice})`);
  check(overlapping === 0, `no attempt started before the previous one of its query ended (${overlapping} overlaps)`);
  check(
    problems.length === 0,
    `every query answered once, its attempts in the database = in the logs${problems[0] ? ` (${problems[0]})` : ''}`,
  );
  check(
    consents.every((consent) => consent.queries === 1 && consent.answered === 1 && consent.decisions === 1),
    `each of ${consents.length} consents has exactly one answered bureau query and one decision`,
  );
  console.log(`  graceful stop: ${stopped.map((s, i) => `${'AB'[i]} ${ms(s.ms)} (exit ${s.code})`).join(', ')}`);
}

// ---- e. PostgreSQL restarted in the middle of a load run ------------------------------------

const SPANISH = /[áéíóúñ¿¡]|\b(el|la|de|por|intenta|servicio|momento)\b/i;
const isEnvelope = (body) =>
  body &&
  typeof body.code === 'string' &&
  typeof body.message === 'string' &&
  typeof body.readable_message === 'string' &&
  SPANISH.test(body.readable_message);

/**
 * A shopkeeper who keeps going whatever happens, like a person retrying: it asks where the
 * application stands and does the next step; a 503, a 409 (step moved or claimed) or a refused
 * code means wait a little and look again. Every 2xx write goes to `acks`.
 */
async function resilientJourney({ call, setup, phone, taxId, index, deadline, acks, pause }) {
  let token;
  let id;
  let at = 'start';
  const ack = (kind) => acks.push({ kind, phone, id, index });
  for (;;) {
    if (Date.now() > deadline) throw new Error(`journey ${index} unfinished at ${at}`);
    try {
      await pause();
      if (!token) {
        at = 'phone proof';
        await call('POST', '/api/v1/users/code', { body: { phone_number: phone } });
        ack('sms');
        const messages = (await call('GET', `/dev/outbox.json?to=%2B1${phone}`)).messages;
        const code = messages.map((message) => /\b(\d{6})\b/.exec(message.body)?.[1]).find(Boolean);
        const proof = await call('PUT', '/api/v1/users/code', { body: { phone_number: phone, code } });
        token = proof.data.authentication.access_token;
        continue;
      }
      if (!id) {
        at = 'lookup';
        try {
          id = (await call('GET', `/api/v1/users?phone_number=${phone}`, { token })).data.user_id;
        } catch (error) {
          if (!(error instanceof HttpError && error.status === 404)) throw error;
          at = 'personal data';
          const registered = await call('POST', '/api/v2/users', {
            token,
            body: personalData(phone),
          });
          id = registered.data.user_id;
          ack('registered');
        }
        continue;
      }
      const user = (await call('GET', `/api/v1/users/${id}/SK`, { token })).data;
      at = `${user.next_step}/${user.status}`;
      const step = (method, path, body) => call(method, `/api/v1/users/${id}/SK${path}`, { token, body });
      switch (at) {
        case 'TAX_ACCOUNT/IN_PROGRESS':
          await step('POST', '/tax_info', { tax_payer_id: taxId });
          ack('tax_id');
          break;
        case 'BUSINESS_ADDRESS/IN_PROGRESS':
          await step('POST', '/businesses/address', businessAddress(setup, index));
          ack('address');
          break;
        case 'ABOUT_STORE/IN_PROGRESS':
          await step('POST', '/businesses', businessData(setup, index));
          ack('business');
          break;
        case 'ACCOUNT_NIP/IN_PROGRESS':
        case 'ACCOUNT_BUREAU/IN_PROGRESS': {
          const nip = (await step('POST', '/nip')).data.default_nip;
          ack('sms');
          await step('PUT', '/nip', { nip });
          ack('consent');
          break;
        }
        case 'ACCOUNT_BUREAU/WAITING':
          await sleep(500);
          break;
        case 'PASSWORD/IN_PROGRESS':
          await step('PUT', '/password', { password: '583920', password_confirmation: '583920' });
          ack('password');
          break;
        case 'INVENTORY/IN_PROGRESS':
          return { id, token };
        default:
          throw new Error(`journey ${index}: unexpected state ${at}`);
      }
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 'network';
      // 400/429 in the phone proof: the code was spent or replaced meanwhile; a new one is asked for.
      const retry = [503, 409, 'network'].includes(status) || ([400, 429].includes(status) && at === 'phone proof');
      if (!retry) throw error;
      // A step claimed by a request the outage cut stays claimed for up to 30 s: look again later.
      await sleep(status === 409 ? 1000 : 250);
    }
  }
}

async function partRestart(workDir) {
  console.log('\n== e. PostgreSQL stopped in the middle of a load run (a private cluster: fast, then immediate) ==');
  const cluster = await privatePostgres();
  cleanups.push(() => cluster.remove());
  const admin = (await import('postgres')).default(cluster.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database provee');
  await admin.end();
  const dbUrl = cluster.url.replace(/\/postgres$/, '/provee');
  console.log(`  private cluster on port ${cluster.port} (${cluster.dir})`);
  const env = {
    ...BASE_ENV,
    DATABASE_URL: dbUrl,
    CODE_RESEND_SECONDS: '0',
    CODE_MAX_PER_HOUR: '100',
    // A bureau attempt cut by the outage keeps its claim for the lease (timeout + 5 s), then a job retries.
    BUREAU_TIMEOUT_MS: '5000',
    JOB_POLL_INTERVAL_MS: '500',
  };
  const pair = await startPair('e', env, workDir);
  const pids = pair.servers.map((server) => server.child.pid);
  const requests = [];
  const record = (entry) => requests.push(entry);
  const setup = await journeySetup(clientAs(pair.proxy.url, '10.69.255.1'));

  // Health of each process, straight (not through the proxy), every 200 ms.
  const health = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      await Promise.all(
        pair.servers.map((server) =>
          statusOf(
            clientAs(server.url, undefined, (entry) => health.push({ ...entry, server: server.name }))(
              'GET',
              '/api/health',
            ),
          ),
        ),
      );
      await sleep(200);
    }
  })();

  const count = 60;
  const acks = [];
  const deadline = Date.now() + 240_000;
  const started = Date.now();
  const journeys = Promise.allSettled(
    Array.from({ length: count }, async (_, index) => {
      await sleep(index * 250); // a steady stream: journeys under way before, during and after each outage
      const phone = `8099${pad(index, 6)}`;
      const done = await resilientJourney({
        call: clientAs(pair.proxy.url, fakeIp(69, index), record),
        setup,
        phone,
        taxId: cedula(`44${pad(index, 8)}`),
        index,
        deadline,
        acks,
        pause: () => sleep(100 + Math.random() * 300),
      });
      return { ...done, index, phoneE164: `+1${phone}`, label: `journey ${index}` };
    }),
  );

  const windows = [];
  for (const mode of ['fast', 'immediate']) {
    await sleep(4_000);
    const before = requests.length;
    const stopping = Date.now();
    await cluster.stop(mode);
    const down = Date.now();
    await sleep(6_000);
    const restarting = Date.now();
    await cluster.start();
    const up = Date.now();
    const recovered = {};
    for (const server of pair.servers) {
      for (;;) {
        const ok = await fetch(`${server.url}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (Date.now() - up > 60_000) break;
        await sleep(50);
      }
      recovered[server.name] = Date.now() - up;
    }
    windows.push({ mode, stopping, down, restarting, up, recovered, before });
    console.log(
      `  pg_ctl stop -m ${mode}: took ${ms(down - stopping)}; down ${((restarting - down) / 1000).toFixed(1)} s; pg_ctl start took ${ms(up - restarting)}; health 200 again after start: A ${ms(recovered.A)}, B ${ms(recovered.B)}`,
    );
  }
  const results = await journeys;
  const seconds = (Date.now() - started) / 1000;
  probing = false;
  await probe;
  const completed = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
  for (const failure of results.filter((result) => result.status === 'rejected').slice(0, 3))
    console.log(`  failed: ${failure.reason?.message ?? failure.reason}`);

  const all = [...requests, ...health];
  // Sent while the database was down; answered before it was started again.
  const sentDown = (entry) => windows.some((w) => entry.sentAt >= w.down && entry.sentAt <= w.restarting);
  const inWindow = (entry) => windows.some((w) => entry.sentAt >= w.down && entry.answeredAt <= w.restarting);
  const whileDown = all.filter(inWindow);
  const badDown = whileDown.filter((entry) => entry.status !== 503 || !isEnvelope(entry.body));
  const latencies = all.filter(sentDown).map((entry) => entry.answeredAt - entry.sentAt);
  const slowest = Math.max(0, ...all.map((entry) => entry.answeredAt - entry.sentAt));
  const fiveHundreds = all.filter(
    (entry) => entry.status === 500 || entry.status === 'network' || entry.status === 502,
  );
  const sample = whileDown.find((entry) => entry.path !== '/api/health')?.body;
  console.log(
    `  ${requests.length} journey requests and ${health.length} health checks in ${seconds.toFixed(1)} s; all answers: ${tally(all.map((entry) => entry.status))}`,
  );
  console.log(
    `  while down (sent after the stop, answered before the start): ${whileDown.length} answers: ${tally(whileDown.map((entry) => entry.status))}; latency of every request sent while down: p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(0, ...latencies))}`,
  );
  if (sample) console.log(`  e.g. ${JSON.stringify(sample)}`);
  const phase = (at) => {
    const w = windows.findLast((window) => at >= window.stopping) ?? windows[0];
    return at < w.stopping
      ? `${((at - w.stopping) / 1000).toFixed(1)} s before the ${w.mode} stop`
      : `${((at - w.stopping) / 1000).toFixed(1)} s after the ${w.mode} stop`;
  };
  for (const entry of [...all].sort((a, b) => b.answeredAt - b.sentAt - (a.answeredAt - a.sentAt)).slice(0, 3))
    console.log(
      `  slowest: ${entry.method} ${entry.path.replace(/\/users\/[\w-]{36}/, '/users/:id').replace(/\d{10}/, ':phone')} → ${entry.status} in ${ms(entry.answeredAt - entry.sentAt)}, sent ${phase(entry.sentAt)}`,
    );
  check(whileDown.length > 100, `requests kept coming while the database was down (${whileDown.length})`);
  check(
    badDown.length === 0,
    `every answer while down was a 503 with the envelope and a Spanish readable_message (${badDown.length} others${badDown[0] ? `, e.g. ${badDown[0].status} ${JSON.stringify(badDown[0].body)?.slice(0, 160)}` : ''})`,
  );
  check(
    Math.max(0, ...latencies) <= DOWN_ANSWER_BOUND_MS,
    `every request sent while down was answered within ${DOWN_ANSWER_BOUND_MS} ms (no hang)`,
  );
  check(
    fiveHundreds.length === 0 && slowest <= ANSWER_BOUND_MS,
    `no 500, no dropped connection, no answer slower than ${ANSWER_BOUND_MS} ms in the whole run (${fiveHundreds.length}; slowest ${ms(slowest)})`,
  );
  const healthDown = health.filter(inWindow);
  check(
    healthDown.length > 0 && healthDown.every((entry) => entry.status === 503 && entry.body?.code === 'DB_UNAVAILABLE'),
    `health said 503 DB_UNAVAILABLE while down (${tally(healthDown.map((entry) => entry.status))})`,
  );
  check(
    windows.every((w) => w.recovered.A < 30_000 && w.recovered.B < 30_000),
    'both processes answered health 200 again after the start, without a restart',
  );
  check(
    pair.servers.every((server, i) => server.child.exitCode === null && server.child.pid === pids[i]),
    `the same two server processes ran throughout (pids ${pids.join(', ')})`,
  );
  check(completed.length === count, `journeys resumed and completed: ${completed.length} / ${count}`);

  // Every write acknowledged with a 2xx is in the database.
  const { default: postgres } = await import('postgres');
  const sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const { rows, problems } = await journeyRecords((text) => sql.unsafe(text), completed);
  const outbox = await sql`select "to", count(*)::int as n from sms_outbox group by "to"`;
  await sql.end();
  const sent = new Map(outbox.map((row) => [row.to, row.n]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const lost = [];
  const smsAcks = new Map();
  for (const ack of acks) {
    if (ack.kind === 'sms') {
      smsAcks.set(`+1${ack.phone}`, (smsAcks.get(`+1${ack.phone}`) ?? 0) + 1);
      continue;
    }
    const row = byId.get(ack.id);
    const present =
      row &&
      {
        registered: true,
        tax_id: row.tax_info,
        address: row.addresses === 1,
        business: row.businesses === 1,
        consent: row.consents === 1,
        password: row.password,
      }[ack.kind];
    if (!present) lost.push(`${ack.kind} of journey ${ack.index}`);
  }
  for (const [phone, n] of smsAcks)
    if ((sent.get(phone) ?? 0) < n)
      lost.push(`SMS to ${phone}: ${n} acknowledged, ${sent.get(phone) ?? 0} in the outbox`);
  console.log(
    `  ${acks.length} writes acknowledged with a 2xx (${tally(acks.map((ack) => ack.kind))}); records check: ${problems.length} journeys incomplete, ${lost.length} acknowledged writes missing`,
  );
  check(
    problems.length === 0 && lost.length === 0,
    `nothing acknowledged is lost${[...problems, ...lost][0] ? ` (${[...problems, ...lost][0]})` : ''}`,
  );

  const stopped = await pair.stop();
  console.log(
    `  graceful stop after the outages: ${stopped.map((s, i) => `${'AB'[i]} ${ms(s.ms)} (exit ${s.code})`).join(', ')}`,
  );
  check(
    stopped.every((s) => s.code === 0 && s.ms < 15_000),
    'both processes stopped gracefully (SIGTERM) after the outages',
  );
  const logs = pair.servers.flatMap((server) => logLines(server.logFile));
  console.log(
    `  server logs: ${tally(logs.map((line) => line.msg).filter((msg) => /unavailable|unexpected|failed/.test(msg ?? '')))}`,
  );
  cluster.remove();
}

// ---- main -----------------------------------------------------------------------------------

async function cleanup() {
  while (cleanups.length > 0) {
    try {
      await cleanups.pop()();
    } catch (error) {
      console.error(`cleanup: ${error?.message ?? error}`);
    }
  }
}

async function main() {
  const pgServer = process.env.DATABASE_URL;
  if (!pgServer) {
    console.error(
      'scale-test needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test); PGlite is one process by design.',
    );
    process.exitCode = 1;
    return;
  }
  assertBuilt();
  console.log(
    `Scale-out and faults: 2 server processes behind a round-robin proxy; ${availableParallelism()} cores, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' / ')}`,
  );
  const workDir = mkdtempSync(join(tmpdir(), 'provee-scale-'));
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void cleanup().then(() => process.exit(130));
    });
  try {
    if (PARTS.has('b')) await partJourneys(pgServer, workDir);
    if (PARTS.has('c')) await partLimits(pgServer, workDir);
    if (PARTS.has('d')) await partBureau(pgServer, workDir);
    if (PARTS.has('e')) await partRestart(workDir);
  } catch (error) {
    failures.push(`aborted: ${error?.stack ?? error}`);
    console.error(error);
  } finally {
    await cleanup();
    if (failures.length === 0) rmSync(workDir, { recursive: true, force: true });
    else console.log(`\nserver logs kept in ${workDir}`);
  }
  console.log(
    failures.length === 0 ? '\nScale-out and faults: all checks passed.' : `\nFAILED:\n- ${failures.join('\n- ')}`,
  );
  process.exitCode = failures.length === 0 ? 0 : 1;
}

await main();
