// The back office's data for its measuring scripts (perf:backoffice on PostgreSQL, its --pglite
// part on the embedded database): the applications seeded by SQL, the CSV's rows as SQL (the export's
// limit), and the CSV download measured as it comes over the wire.
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { exitIfBelowGoal } from '../reliability/harness.mjs';
import { table } from './server.mjs';

const FIRST_NAMES = [
  'María',
  'José',
  'Juan',
  'Ana',
  'Luis',
  'Carmen',
  'Pedro',
  'Rosa',
  'Miguel',
  'Juana',
  'Ramón',
  'Francisca',
  'Rafael',
  'Altagracia',
  'Manuel',
  'Mercedes',
  'Carlos',
  'Yolanda',
  'Jorge',
  'Dulce',
];
const LAST_NAMES = [
  'Rodríguez',
  'Pérez',
  'García',
  'Martínez',
  'Sánchez',
  'Gómez',
  'Díaz',
  'Reyes',
  'Santos',
  'Hernández',
  'Ramírez',
  'Castillo',
  'Núñez',
  'Jiménez',
  'Peña',
  'Almonte',
  'Vásquez',
  'Féliz',
  'Polanco',
  'Tavárez',
];
const sqlArray = (items) => `(array[${items.map((item) => `'${item}'`).join(', ')}])`;

/** The steps an application reached, in order (the funnel's), and where it stands after the last. */
export const STAGES = [
  { transition: 'tax-id', step: 'BUSINESS_ADDRESS', milestone: 'tax_id_at' },
  { transition: 'address', step: 'ABOUT_STORE', milestone: 'business_address_at' },
  { transition: 'business', step: 'ACCOUNT_NIP', milestone: 'business_at' },
  { transition: 'nip-sent', step: 'ACCOUNT_BUREAU', milestone: 'nip_sent_at' },
  { transition: 'consent', step: 'ACCOUNT_BUREAU', status: 'WAITING', milestone: 'consent_at' },
  { transition: 'decision', step: 'PASSWORD', milestone: 'pre_approved_at' },
  { transition: 'password', step: 'INVENTORY', milestone: 'password_at' },
];

/**
 * `count` applications started between `fromDays` and `toDays` days ago, numbered from `first`:
 * users (names drawn from common Dominican ones, every fifth with a maternal last name), how far
 * each got (0–7 steps, a minute apart), a business past that step, a consent past that one, their
 * audit events (the phone proof and each move; hashes not chained: only the detail's chain is read
 * for its validity, and it is made apart) and their milestones.
 */
export const SEED = ({ count, first, fromDays, toDays, events = true }) => [
  `create temporary table seed on commit drop as
   select g, gen_random_uuid() as user_id,
     date_trunc('milliseconds', now() - interval '1 hour' - (${toDays} + random() * ${fromDays - toDays}) * interval '1 day') as at,
     floor(power(random(), 0.7) * 8)::int as reached,
     ${sqlArray(FIRST_NAMES)}[1 + floor(random() * ${FIRST_NAMES.length})::int] as name,
     ${sqlArray(LAST_NAMES)}[1 + floor(random() * ${LAST_NAMES.length})::int] as lastname,
     case when g % 5 = 0 then ${sqlArray(LAST_NAMES)}[1 + floor(random() * ${LAST_NAMES.length})::int] end as maternal_lastname,
     case g % 10 when 0 then 'facebook' when 1 then 'facebook' when 2 then 'google' when 3 then 'referido' end as utm_source
   from generate_series(${first}, ${first + count - 1}) g`,
  `insert into users (id, phone_e164, next_step, status, name, lastname, maternal_lastname, utm_source, created_at, updated_at)
   select user_id, '+1849' || lpad(g::text, 7, '0'),
     (array['TAX_ACCOUNT', ${STAGES.map((s) => `'${s.step}'`).join(', ')}])[reached + 1],
     case when reached = 5 then 'WAITING' else 'IN_PROGRESS' end,
     name, lastname, maternal_lastname, utm_source, at, at + reached * interval '1 minute'
   from seed`,
  `insert into businesses (user_id, name, business_type, sales_range_id, business_age_years)
   select user_id, 'Colmado ' || lastname || ' ' || g, 'COLMADO', 1 + g % 5, 1 + g % 4 from seed where reached >= 3`,
  `insert into bureau_consents (user_id, person_type, consent_text, consent_text_sha256, consent_version,
     created_at, ip, user_agent, pin_verified, bureau_folio, authorized_until)
   select user_id, 'titular', 'Autorizo la consulta (prueba de rendimiento).',
     encode(sha256('Autorizo la consulta (prueba de rendimiento).'::bytea), 'hex'), 'bench',
     at + interval '5 minutes', '127.0.0.1', 'perf-backoffice', true, 'BO-' || g, at + interval '3 years'
   from seed where reached >= 5`,
  ...(events
    ? [
        `insert into audit_events (application_id, actor, type, payload, created_at, prev_hash, hash)
         select user_id::text, case when n = 0 then 'system' else 'user:' || user_id end,
           case when n = 0 then 'phone.proven' else 'step.saved' end,
           case when n = 0 then '{}'::jsonb else jsonb_build_object('transition', (${sqlArray(STAGES.map((s) => s.transition))})[n],
             'step', 'seeded', 'to', jsonb_build_object('step', (${sqlArray(STAGES.map((s) => s.step))})[n],
             'status', case when n = 5 then 'WAITING' else 'IN_PROGRESS' end)) end,
           at + n * interval '1 minute', case when n > 0 then md5(user_id::text || (n - 1)) end, md5(user_id::text || n)
         from seed, generate_series(0, 7) n where n <= reached`,
      ]
    : []),
  `insert into application_milestones (application_id, started_at, utm_source, ${STAGES.map((s) => s.milestone).join(', ')})
   select user_id, at, utm_source, ${STAGES.map((_, i) => `case when reached >= ${i + 1} then at + ${i + 1} * interval '1 minute' end`).join(', ')}
   from seed where reached >= 1`,
];

/** A day `daysAgo` days before today, as YYYY-MM-DD (UTC). */
export const day = (daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

/** The applications CSV's columns and rows of a range of start days, as the export writes them (its limit's query). */
export function csvSelect(from, to) {
  return `select u.id::text, u.phone_e164, u.name, u.lastname, u.maternal_lastname, u.next_step, u.status,
    u.utm_source, u.utm_medium, u.utm_name,
    to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    to_char(u.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    from users u where u.created_at >= '${from}T00:00:00Z' and u.created_at < ('${to}'::date + 1)::timestamptz
    order by u.created_at, u.id`;
}

/**
 * A download read to its end as it comes over the wire: its bytes and duration. Not decompressed:
 * that is the analyst's computer's work, not the server's (fetch would do it here, on the server's
 * two cores, inside the time measured).
 */
export function download(baseUrl, path, cookie, encoding = 'identity') {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(`${baseUrl}${path}`, { headers: { cookie, 'accept-encoding': encoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => (bytes += chunk.length));
      response.on('error', reject);
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`${path}: ${response.statusCode}`));
        const sent = response.headers['content-encoding'] ?? 'identity';
        if (sent !== encoding) reject(new Error(`${path}: asked for ${encoding}, got ${sent}`));
        resolve({ ms: performance.now() - started, bytes });
      });
    }).on('error', reject);
  });
}

/**
 * The CSV of `path` downloaded three times per encoding (plain, gzip, brotli) after one warm-up: the
 * best of each recorded against `limitMs` (goal ≤ 2×).
 */
export async function measureCsv({ baseUrl, path, cookie, limitMs, limitName, record, goalRatio = 2 }) {
  console.error('warm-up download');
  await download(baseUrl, path, cookie);
  for (const encoding of ['identity', 'gzip', 'br']) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await download(baseUrl, path, cookie, encoding));
    const best = Math.min(...runs.map((r) => r.ms));
    const ms = (value) => Math.round(value * 10) / 10;
    record(
      `CSV export, ${encoding} (${(runs[0].bytes / 1e6).toFixed(1)} MB sent)`,
      `${ms(best)} ms (of 3: ${runs.map((r) => ms(r.ms)).join(', ')})`,
      `${limitName} ${ms(limitMs)} ms`,
      `≤ ${goalRatio}× (${(best / limitMs).toFixed(2)}×)`,
      best <= goalRatio * limitMs,
    );
  }
}

/**
 * The figures of a run against their goals: `record` prints each as it comes; `report` prints the
 * table, the load average since the start and the command, and exits 1 when a goal was missed.
 */
export function goalRecorder() {
  const loadBefore = loadavg();
  const rows = [];
  const failures = [];
  return {
    record(figure, value, limit, goal, pass) {
      console.error(`${figure}: ${value}`);
      rows.push([figure, value, limit, goal, pass ? 'pass' : 'FAIL']);
      if (!pass) failures.push(`${figure}: ${value} (goal ${goal})`);
    },
    report(command) {
      console.log(table(['figure', 'measured', 'limit', 'goal', 'result'], rows));
      const load = (values) => values.map((l) => l.toFixed(2)).join(' / ');
      console.log(
        `load average (1/5/15 min): before ${load(loadBefore)}, after ${load(loadavg())}\ncommand: ${command}`,
      );
      exitIfBelowGoal(failures);
    },
  };
}
