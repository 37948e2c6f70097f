// npm run perf:policy: the policy lab's backtest (issue 33) at 100,000 decisions on PostgreSQL. A
// throw-away database on the server of DATABASE_URL (else postgres://postgres@127.0.0.1:5432/postgres);
// the BUILT server (`npm run perf:policy` builds the API first) migrates it and seeds policy version 1;
// SQL (generate_series) then adds --decisions shopkeepers (default 100,000), each with a consent and a
// decision of the live version over the last 30 days, their inputs varied (a thin file in ~15 %), a
// campaign source on 40 %. An analyst (the built staff:create, then password + authenticator code)
// drafts v2 with min_business_age_years raised by one and backtests it over the 30 days through the
// API, as the back office does: (a) in the request (POLICY_BACKTEST_INLINE_MAX=200000, or more with
// --decisions): the request's wall time; (b) as a job (the default inline maximum, 20,000): from the
// POST to the poll (every 100 ms) that sees DONE; and the duration the server measured for each; also,
// for information, (a) with utm_source=facebook (20 %). Goal: under 10 s for (a) and (b). Exits 1 when
// either takes 10 s or more, or the counts are wrong. --explain: after the runs, the page query read
// directly, page by page (its time, the plans of the first, slowest and last page).
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  exitIfBelowGoal,
  freePort,
  JOURNEY_ENV,
  SERVER_JS,
  sleep,
  startServer,
  stopServer,
  throwAwayPostgres,
  waitReady,
} from '../reliability/harness.mjs';
import { staffLogin } from '../staff-login.mjs';
import { createStaffAccount, fetchJson, table } from './server.mjs';

const { values: args } = parseArgs({
  options: {
    decisions: { type: 'string', default: '100000' },
    explain: { type: 'boolean', default: false },
  },
});
const DECISIONS = Number(args.decisions);
const GOAL_MS = 10_000;
const POLL_MS = 100;
const DAYS = 30;
const TIME_ZONE = 'America/Santo_Domingo';
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const ANALYST = {
  email: 'analista.backtest@prestamista.example',
  role: 'analyst',
  name: 'Analista Backtest',
  password: 'perf-policy-backtest-analyst-password',
};

if (!existsSync(SERVER_JS)) throw new Error('The API is not built: run `npm run perf:policy` (it builds it first).');

/**
 * The shopkeepers, their consents and decisions, in one transaction: a temporary table of draws,
 * then one insert per table. The rules and the result are the live version's on those inputs
 * (its thresholds read from its document), the amount its base for the sales range. The instants
 * are whole milliseconds, as the API writes them (JavaScript dates).
 */
const SEED = (count) => [
  `create temporary table seed on commit drop as
   with draws as (
     select g, gen_random_uuid() as user_id, gen_random_uuid() as consent_id,
       date_trunc('milliseconds', now() - interval '1 minute' - random() * interval '${DAYS - 1} days 23 hours') as at,
       random() as r_age, random() as r_age2, 1 + floor(random() * 6)::int as city_index,
       1 + floor(random() * 4)::int as business_age_years, 1 + floor(random() * 5)::int as sales_range,
       random() < 0.15 as thin_file, 300 + floor(random() * 551)::int as raw_score, random() as r_delinquencies,
       floor(random() * 30)::int as r_delay, floor(random() * 11)::int as r_accounts,
       floor(power(random(), 2) * 21)::int as recent_inquiries
     from generate_series(1, ${count}) g
   )
   select g, user_id, consent_id, at,
     case when r_age < 0.01 then 17 when r_age < 0.02 then 83 else 19 + floor(r_age2 * 60)::int end as age,
     (array['Santo Domingo de Guzmán', 'Santiago de los Caballeros', 'San Pedro de Macorís', 'La Romana',
       'San Francisco de Macorís', 'Higüey'])[city_index] as city,
     city_index <= 5 as city_allowed,
     business_age_years, sales_range, thin_file,
     case when thin_file then null else raw_score end as score,
     case when thin_file or r_delinquencies < 0.7 then 0 when r_delinquencies < 0.85 then 1
       when r_delinquencies < 0.95 then 2 else 3 end as delinquencies,
     r_delay, case when thin_file then 0 else r_accounts end as open_accounts, recent_inquiries
   from draws`,
  `alter table seed add column inputs jsonb, add column rules jsonb`,
  `update seed set inputs = jsonb_build_object(
     'age', age, 'city', city, 'city_allowed', city_allowed, 'business_age_years', business_age_years,
     'sales_range', sales_range, 'score', score, 'delinquencies', delinquencies,
     'worst_past_due_delay_days', case when thin_file then null when delinquencies = 0 then 0
       else 30 * delinquencies + r_delay end,
     'open_accounts', open_accounts, 'recent_inquiries', recent_inquiries, 'thin_file', thin_file)`,
  `update seed set rules = (
     select jsonb_agg(rule order by n) from (
       select 1 as n, jsonb_build_object('rule', 'min_age', 'passed', age >= (e->>'min_age')::int, 'value', age, 'threshold', (e->'min_age')) as rule
       union all select 2, jsonb_build_object('rule', 'max_age', 'passed', age <= (e->>'max_age')::int, 'value', age, 'threshold', e->'max_age')
       union all select 3, jsonb_build_object('rule', 'allowed_city', 'passed', not (e->>'allowed_cities_only')::boolean or city_allowed, 'value', city, 'threshold', e->'allowed_cities_only')
       union all select 4, jsonb_build_object('rule', 'min_business_age_years', 'passed', business_age_years >= (e->>'min_business_age_years')::int, 'value', business_age_years, 'threshold', e->'min_business_age_years')
       union all select 5, jsonb_build_object('rule', 'min_sales_range', 'passed', sales_range >= (e->>'min_sales_range')::int, 'value', sales_range, 'threshold', e->'min_sales_range')
       union all select 6, case when thin_file
         then jsonb_build_object('rule', 'thin_file', 'passed', e->>'thin_file' = 'approve', 'value', true, 'threshold', e->'thin_file')
         else jsonb_build_object('rule', 'min_score', 'passed', coalesce(score, 0) >= (e->>'min_score')::int, 'value', score, 'threshold', e->'min_score') end
       union all select 7, jsonb_build_object('rule', 'max_delinquencies', 'passed', delinquencies <= (e->>'max_delinquencies')::int, 'value', delinquencies, 'threshold', e->'max_delinquencies')
         where e ? 'max_delinquencies'
       union all select 8, jsonb_build_object('rule', 'max_past_due_delay_days', 'passed', coalesce((inputs->>'worst_past_due_delay_days')::int <= (e->>'max_past_due_delay_days')::int, false), 'value', inputs->'worst_past_due_delay_days', 'threshold', e->'max_past_due_delay_days')
         where e ? 'max_past_due_delay_days'
       union all select 9, jsonb_build_object('rule', 'max_recent_inquiries', 'passed', recent_inquiries <= (e->>'max_recent_inquiries')::int, 'value', recent_inquiries, 'threshold', e->'max_recent_inquiries')
         where e ? 'max_recent_inquiries'
     ) rules)
   from (select p.document->'eligibility' as e from credit_policy_live l join credit_policies p on p.id = l.policy_id
         where l.country = 'do') live`,
  `insert into users (id, phone_e164, next_step, status, name, lastname, utm_source, utm_medium, created_at, updated_at)
   select user_id, '+1849' || lpad(g::text, 7, '0'),
     case when rules @? '$[*] ? (@.passed == false)' then 'ACCOUNT_BUREAU' else 'PASSWORD' end,
     case when rules @? '$[*] ? (@.passed == false)' then 'REJECTED' else 'IN_PROGRESS' end,
     'Cliente', 'Prueba ' || g,
     case g % 10 when 0 then 'facebook' when 1 then 'facebook' when 2 then 'google' when 3 then 'referido' end,
     case when g % 10 < 4 then 'cpc' end,
     at - interval '20 minutes', at
   from seed`,
  `insert into bureau_consents (id, user_id, person_type, consent_text, consent_text_sha256, consent_version,
     created_at, ip, user_agent, pin_verified, bureau_folio, authorized_until)
   select consent_id, user_id, 'titular', 'Autorizo la consulta de mi historial crediticio (prueba de rendimiento).',
     encode(sha256('Autorizo la consulta de mi historial crediticio (prueba de rendimiento).'::bytea), 'hex'), 'bench',
     at - interval '1 minute', '127.0.0.1', 'perf-policy', true, 'BENCH-' || g, at + interval '3 years'
   from seed`,
  `insert into credit_decisions (user_id, consent_id, policy_version, inputs, rules, result, amount, currency, created_at)
   select user_id, consent_id, live.label, inputs, rules,
     case when rules @? '$[*] ? (@.passed == false)' then 'REJECTED' else 'APPROVED' end,
     case when rules @? '$[*] ? (@.passed == false)' then 0
       else least((live.amount->>'cap')::int, (live.amount->'by_sales_range'->>(least(sales_range, jsonb_array_length(live.amount->'by_sales_range')) - 1))::int) end,
     'DOP', at
   from seed, (select p.label, p.document->'amount' as amount from credit_policy_live l
     join credit_policies p on p.id = l.policy_id where l.country = 'do') live`,
];

/** The page query of apps/api/src/modules/policy-lab/backtest.store.ts (decisionsPage) as Drizzle writes it: the first page, the next ones. */
const SCOPE_SQL = `"credit_decisions"."aval_id" is null and "credit_decisions"."currency" = $1 and "credit_decisions"."created_at" >= $2 and "credit_decisions"."created_at" < $3`;
const SELECT_SQL = `select "id", "user_id", "policy_version", "inputs", "result", "amount", "created_at" from "credit_decisions"`;
const ORDER_SQL = `order by "credit_decisions"."created_at" asc, "credit_decisions"."id" asc`;
const FIRST_PAGE_SQL = `${SELECT_SQL} where (${SCOPE_SQL}) ${ORDER_SQL} limit $4`;
const PAGE_SQL = `${SELECT_SQL} where ((${SCOPE_SQL}) and ("credit_decisions"."created_at", "credit_decisions"."id") > ($4, $5)) ${ORDER_SQL} limit $6`;

/** A day (YYYY-MM-DD) in the country's time zone. */
const localDay = (date) => new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(date);

const expect = (response, status, what) => {
  if (response.status !== status)
    throw new Error(`${what}: ${response.status} (expected ${status}) ${JSON.stringify(response.data)}`);
  return response.data.data;
};

/** Before the run (its own seeding and server then add to it). */
const loadBefore = loadavg();
const dir = mkdtempSync(join(tmpdir(), 'provee-perf-policy-'));
const pg = await throwAwayPostgres(DATABASE_URL, 'provee_bench_policy');
const baseEnv = { ...JOURNEY_ENV, LOG_LEVEL: 'warn', DATA_DIR: join(dir, 'data'), DATABASE_URL: pg.url, COUNTRY: 'do' };
let server = null;
let logFile = null;
// However this process ends (an error, Ctrl-C), the server goes with it; the database is dropped in `finally`.
const onExit = () => server?.kill('SIGKILL');
process.once('exit', onExit);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, async () => {
    server?.kill('SIGKILL');
    await pg.drop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });

/** The built server with `extra` in its environment, on a free port, its output in a log file. */
async function serve(name, extra = {}) {
  const port = await freePort();
  logFile = join(dir, `server-${name}.log`);
  const log = openSync(logFile, 'w');
  server = startServer({ ...baseEnv, PORT: String(port), ...extra }, { stdio: ['ignore', log, log] });
  closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(baseUrl, server);
  return baseUrl;
}

const failures = [];
const figures = {};
const login = staffLogin(ANALYST);
try {
  // 1. The schema and policy version 1 (the server's start), then the analyst and the decisions.
  let baseUrl = await serve('inline', { POLICY_BACKTEST_INLINE_MAX: String(Math.max(200_000, DECISIONS)) });
  createStaffAccount(baseEnv, ANALYST);
  const db = pg.connect();
  let range;
  try {
    const seedStarted = performance.now();
    await db.begin(async (tx) => {
      for (const statement of SEED(DECISIONS)) await tx.unsafe(statement);
    });
    await db.unsafe('vacuum analyze users, bureau_consents, credit_decisions');
    figures.seedMs = Math.round(performance.now() - seedStarted);
    const [row] = await db`
      select count(*)::int as decisions, min(created_at) as first, max(created_at) as last,
        count(*) filter (where result = 'APPROVED')::int as approved,
        (select count(*)::int from users where utm_source = 'facebook') as facebook,
        (select label from credit_policy_live l join credit_policies p on p.id = l.policy_id where l.country = 'do') as live
      from credit_decisions where aval_id is null and currency = 'DOP'`;
    if (row.decisions !== DECISIONS) throw new Error(`seeded ${row.decisions} decisions, not ${DECISIONS}`);
    range = { from: localDay(row.first), to: localDay(row.last) };
    figures.seeded = row;
    figures.range = range;
    figures.postgres = (await db`show server_version`)[0].server_version.split(' ')[0];
  } finally {
    await db.end();
  }

  // 2. The analyst drafts v2 from the live version: min_business_age_years one more.
  let call = fetchJson(baseUrl);
  let cookie = await login(call);
  const draft = expect(await call('POST', '/api/backoffice/policies', { cookie, json: {} }), 201, 'draft');
  const { version: _label, ...document } = draft.document;
  document.eligibility = {
    ...document.eligibility,
    min_business_age_years: document.eligibility.min_business_age_years + 1,
  };
  const saved = expect(
    await call('PUT', `/api/backoffice/policies/${draft.id}`, { cookie, json: { revision: draft.revision, document } }),
    200,
    'save draft',
  );
  figures.tested = `${saved.label} (min_business_age_years ${document.eligibility.min_business_age_years}) against ${saved.live_label}`;

  // 3a. In the request.
  let started = performance.now();
  const inline = expect(
    await call('POST', `/api/backoffice/policies/${draft.id}/backtests`, { cookie, json: range }),
    200,
    'inline backtest',
  );
  figures.inline = { wallMs: Math.round(performance.now() - started), view: inline };
  started = performance.now();
  const byCampaign = expect(
    await call('POST', `/api/backoffice/policies/${draft.id}/backtests`, {
      cookie,
      json: { ...range, utm_source: 'facebook' },
    }),
    200,
    'inline backtest, utm_source=facebook',
  );
  figures.campaign = { wallMs: Math.round(performance.now() - started), view: byCampaign };
  await stopServer(server);

  // 3b. As a job (the default inline maximum): POST, then a poll every 100 ms until DONE.
  baseUrl = await serve('job');
  call = fetchJson(baseUrl);
  cookie = await login(call);
  started = performance.now();
  let job = expect(
    await call('POST', `/api/backoffice/policies/${draft.id}/backtests`, { cookie, json: range }),
    202,
    'backtest as a job',
  );
  let polls = 0;
  while (job.status === 'RUNNING') {
    await sleep(POLL_MS);
    polls += 1;
    job = expect(await call('GET', `/api/backoffice/policy-backtests/${job.id}`, { cookie }), 200, 'backtest poll');
    if (performance.now() - started > 10 * 60_000) throw new Error('the backtest job ran for 10 minutes');
  }
  figures.job = { wallMs: Math.round(performance.now() - started), view: job, polls };
  await stopServer(server);
  server = null;

  if (args.explain) figures.explain = await explain(range);
} catch (error) {
  if (logFile && existsSync(logFile)) console.error(readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n'));
  throw error;
} finally {
  if (server) await stopServer(server, 'SIGKILL');
  process.off('exit', onExit);
  await pg.drop();
  rmSync(dir, { recursive: true, force: true });
}

/** The page query's time per page and the plans of the first, the slowest and the last page, on the same database, read directly. */
async function explain(range) {
  const db = pg.connect();
  try {
    const { from, to } = range;
    const midnight = async (day) => (await db`select (${day}::date at time zone ${TIME_ZONE}) as at`)[0].at;
    const start = await midnight(from);
    const end = await midnight(new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10));
    /** Every page of the range, `next(last row)` the query and parameters of a page after the first: each page's ms and plan. */
    const walk = async (next) => {
      const pages = [];
      const plans = [];
      let after = null;
      let rows = 0;
      for (;;) {
        const [sqlText, params] = after ? next(after) : [FIRST_PAGE_SQL, ['DOP', start, end, 5000]];
        const t = performance.now();
        const page = await db.unsafe(sqlText, params);
        pages.push(Math.round(performance.now() - t));
        plans.push((await db.unsafe(`explain (analyze, buffers) ${sqlText}`, params)).map((r) => r['QUERY PLAN']));
        rows += page.length;
        if (page.length < 5000) break;
        after = page.at(-1);
      }
      return { pages, plans, rows };
    };
    const walked = await walk((after) => [PAGE_SQL, ['DOP', start, end, after.created_at, after.id, 5000]]);
    const slowest = walked.pages.indexOf(Math.max(...walked.pages));
    return {
      pages: walked.pages,
      rows: walked.rows,
      plans: {
        first: walked.plans[0],
        [`slowest (page ${slowest + 1})`]: walked.plans[slowest],
        last: walked.plans.at(-1),
      },
    };
  } finally {
    await db.end();
  }
}

// ---- the report ------------------------------------------------------------------------------------
const { inline, job, campaign } = figures;
const ok = (ms) => (ms < GOAL_MS ? 'pass' : 'FAIL');
console.log(
  `\nPolicy backtest on PostgreSQL ${figures.postgres}, ${DECISIONS.toLocaleString('en-US')} decisions ` +
    `(${figures.range.from} to ${figures.range.to}, seeded in ${(figures.seedMs / 1000).toFixed(1)} s): ${figures.tested}`,
);
console.log(
  table(
    ['', 'decisions', 'wall ms', 'server duration_ms', 'goal', 'result'],
    [
      ['inline (200)', inline],
      [`job (202, ${job.polls} polls)`, job],
      ['inline, utm_source=facebook', campaign],
    ].map(([name, run]) => [
      name,
      run.view.result?.as_decided.decisions ?? run.view.status,
      run.wallMs,
      run.view.result?.duration_ms ?? '-',
      run === campaign ? '(information)' : '< 10,000 ms',
      run === campaign ? '' : ok(run.wallMs),
    ]),
  ),
);
const r = inline.view.result ?? job.view.result;
if (r)
  console.log(
    `as decided ${r.as_decided.approved} approved; live ${r.live.approved}; tested ${r.tested.approved}; ` +
      `approved → rejected ${r.approved_to_rejected}, rejected → approved ${r.rejected_to_approved}`,
  );
const loads = (values) => values.map((load) => load.toFixed(2)).join(' / ');
console.log(
  `load average ${loads(loadBefore)} before, ${loads(loadavg())} after (1 / 5 / 15 min; the run's own seeding and ` +
    `server in the second) on ${availableParallelism()} cores; node ${process.version}`,
);
if (figures.explain) {
  const { pages, rows, plans } = figures.explain;
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  console.log(
    `\npage query read directly (${rows} rows), ms per page of 5,000: ${pages.join(', ')} (sum ${sum(pages)})`,
  );
  for (const [page, plan] of Object.entries(plans)) console.log(`${page} page's plan:\n  ${plan.join('\n  ')}`);
}

for (const [name, run] of [
  ['inline', inline],
  ['job', job],
  ['utm_source=facebook', campaign],
]) {
  const result = run.view.result;
  if (run.view.status !== 'DONE' || !result) {
    failures.push(`${name}: the backtest ended ${run.view.status}`);
    continue;
  }
  const expected = run === campaign ? figures.seeded.facebook : DECISIONS;
  if (run !== campaign && run.wallMs >= GOAL_MS) failures.push(`${name}: ${run.wallMs} ms (goal < ${GOAL_MS} ms)`);
  if (result.as_decided.decisions !== expected)
    failures.push(`${name}: ${result.as_decided.decisions} decisions replayed, not ${expected}`);
  if (run.view.total !== expected) failures.push(`${name}: total ${run.view.total}, not ${expected}`);
  if (result.approved_to_rejected <= 0) failures.push(`${name}: no approval turned into a rejection`);
  if (result.rejected_to_approved !== 0)
    failures.push(`${name}: ${result.rejected_to_approved} rejections turned into approvals (a stricter version)`);
  if (run !== campaign && result.live.approved !== figures.seeded.approved)
    failures.push(
      `${name}: the live version approves ${result.live.approved}, the seed decided ${figures.seeded.approved}`,
    );
}
exitIfBelowGoal(failures);
console.log(
  `\nthe backtest of ${DECISIONS.toLocaleString('en-US')} decisions takes under ${GOAL_MS / 1000} s both ways`,
);
