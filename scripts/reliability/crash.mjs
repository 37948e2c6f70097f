// Reliability suite 4 (issue 13): crash. Concurrent registrations and signings through the BUILT
// server, which is killed with SIGKILL at a random moment every round and started again on the same
// data (PGlite's data dir, or a throw-away PostgreSQL database). Every write answered with a 2xx
// goes into a ledger. After every kill the database is read directly (PGlite: a copy of the data dir
// as the kill left it, opened here, so the server still recovers the original itself; PostgreSQL:
// the database) and checked:
// - every acknowledged write is there;
// - no step is half done (a bureau query without its consent, a signature without its stored hash
//   or its audit event, a state change without its event…);
// - every audit chain verifies (the app's own `verifyAuditChain`);
// - no duplicates (one user per phone, one consent per step, one signature per signer…).
// The interrupted journeys then go on from where they were: the request whose answer was lost is
// sent again (a 409 'already done' is fine, a second row is not). After the last round the server
// runs without kills until every journey has finished, and everything is checked once more.
//
//   npm run crash-test [-- --rounds 20 --db pglite|postgres|both]
//                      [--registrations 4 --signers 2 --concurrency 30]
//
// Each round starts new journeys (registrations from the phone proof, half of them on to the
// signature; and signers the test factory seeds at the PIN) and runs up to `concurrency` of the
// unfinished ones. The kill comes after a random number of the round's writes were acknowledged
// (drawn over the writes its journeys have left), plus a few random milliseconds; every fifth round
// the server is also killed once while it starts (recovery, migrations). Without DATABASE_URL only
// PGlite runs (`--db both` is the default with it).
//
// Prints the figures per database; exits non-zero on any defect.
import { staffLogin } from '../staff-login.mjs';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/esm/api';
import {
  assertBuilt,
  businessAddress,
  businessData,
  cedula,
  client,
  freePort,
  JOURNEY_ENV,
  journeySetup,
  percentile,
  personalData,
  REGISTRATION_STEPS,
  ROOT,
  sleep,
  startServer,
  stopServer,
  throwAwayPostgres,
  waitReady,
} from './harness.mjs';

// The checks use the app's own code (TypeScript sources): its database layer, the audit chain's
// verification, the phone chains' ids and the test images of the signing tests.
register();
const source = (path) => import(pathToFileURL(join(ROOT, 'apps/api/src', path)).href);
const { openDatabase } = await source('db/client.ts');
const { verifyAuditChain, phoneAuditId } = await source('modules/audit/index.ts');
const { createSecrets } = await source('secrets.ts');
const { createFieldCipher } = await source('crypto.ts');
const { createJpeg, createPng } = await source('test/test-images.ts');
const { NEXT_STEPS } = await import('@provee/domain');
const { sql } = await import('drizzle-orm');

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    db: { type: 'string' },
    registrations: { type: 'string', default: '4' },
    signers: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '30' },
  },
});
const ROUNDS = Number(options.rounds);
const NEW_REGISTRATIONS = Number(options.registrations);
const NEW_SIGNERS = Number(options.signers);
const CONCURRENCY = Number(options.concurrency);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds: a whole number of rounds, at least 1');
const DATABASE_URL = process.env.DATABASE_URL;
const wanted = options.db ?? (DATABASE_URL ? 'both' : 'pglite');
if (!['pglite', 'postgres', 'both'].includes(wanted)) throw new Error('--db: pglite, postgres or both');
if (wanted !== 'pglite' && !DATABASE_URL) throw new Error(`--db ${wanted} needs DATABASE_URL (a PostgreSQL server)`);
const DATABASES = wanted === 'both' ? ['pglite', 'postgres'] : [wanted];

/**
 * When the kill comes: once the round's traffic has had a random number of writes acknowledged
 * (uniform over the writes its journeys have left), a random few milliseconds later, so it lands
 * among writes whatever the machine's speed; at the latest after KILL_LATEST_MS.
 */
const KILL_JITTER_MS = 250;
const KILL_LATEST_MS = 20_000;
/** Every few rounds a second kill while the server starts (recovery, migrations, seed). */
const KILL_DURING_START_EVERY = 5;
/** After the last round: how long the journeys get to finish, with no kills. */
const DRAIN_MS = 600_000;

const ANALYST = {
  email: 'analista.crash@prestamista.example',
  role: 'analyst',
  name: 'Analista Crash',
  password: 'crash-test-analyst-password',
};
const GEO = JSON.stringify({ latitude: 18.4861, longitude: -69.9312, accuracy: 20, timestamp: 1795000000000 });
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Servers for this suite: the journeys' environment, fast simulators, test factories. */
const SUITE_ENV = {
  ...JOURNEY_ENV,
  LOG_LEVEL: 'error',
  ENABLE_TEST_FACTORIES: 'true',
  CODE_RESEND_SECONDS: '0',
  CODE_MAX_PER_HOUR: '100',
  BUREAU_LATENCY_MS: '50',
  BUREAU_SYNC_WAIT_MS: '1500',
  BUREAU_TIMEOUT_MS: '2000',
  BUREAU_RETRY_BASE_MS: '500',
  IDENTITY_SIMULATOR_DELAY_MS: '300',
  // The job queue's workers (bureau retries, the simulator's answers, the SMS) look every 250 ms.
  JOB_POLL_INTERVAL_MS: '250',
};

/**
 * The analyst's account, made the way a lender makes its first one: the BUILT staff:create CLI with
 * the password on standard input, before any server holds the embedded database.
 */
function createStaffAccount(env, { email, role, name, password }) {
  // PORT 1: nothing listens there, so the CLI's check for a running embedded-database server passes.
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'apps/api/dist/staff-create.js'), '--email', email, '--role', role, '--name', name],
      { env: { PATH: process.env.PATH, ...env, PORT: '1' }, input: `${password}\n`, stdio: 'pipe', encoding: 'utf8' },
    );
  } catch (error) {
    throw new Error(`staff:create failed: ${error.stderr || error.message}`, { cause: error });
  }
}

// ---------------------------------------------------------------------------------------------
// Requests: a lost answer (the server died) stops the journey until the next round, which sends
// the same request again.
// ---------------------------------------------------------------------------------------------

class ServerGone extends Error {}
class JourneyFailed extends Error {}

/** One request of a journey. A write (anything but GET) answered 2xx counts as acknowledged. */
async function send(run, j, method, path, { token, json, form, cookie } = {}) {
  const headers = { 'user-agent': 'provee-crash-test' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (cookie) headers.cookie = cookie;
  let body;
  if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  if (form) body = form();
  const write = method !== 'GET';
  let response;
  try {
    response = await fetch(`${run.baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw gone(run, j, write, `${method} ${path}`, error);
  }
  let data;
  try {
    data = await response.json();
  } catch (error) {
    if (response.ok && write) run.figures.acknowledgedUnread += 1;
    if (run.killed) throw gone(run, j, write, `${method} ${path}`, error);
  }
  if (write && j?.resending) {
    j.resending = false;
    run.figures.resent.push(`${j.stage} ${response.ok ? '2xx' : response.status}`);
  }
  if (response.ok && write) {
    run.figures.acknowledged += 1;
    run.onAcknowledged?.();
  }
  return { status: response.status, ok: response.ok, data, headers: response.headers };
}

function gone(run, j, write, what, error) {
  if (!run.killed) {
    run.figures.failures.push(`${what}: no answer while the server was up (${error.message})`);
    return new JourneyFailed(`${what}: ${error.message}`);
  }
  if (write && j) {
    j.resending = true;
    run.figures.lostAnswers += 1;
  }
  return new ServerGone(what);
}

const unexpected = (what, r) =>
  new JourneyFailed(`${what} → ${r.status} ${JSON.stringify(r.data)?.slice(0, 300) ?? '(no body)'}`);

// ---------------------------------------------------------------------------------------------
// Journeys: a registration (phone proof to password, half of them on to the signature) or a
// signer (seeded at the PIN by the test factory: PIN, pre-approval, link, identity, signature).
// Each stage is one request (and the reads it needs); the stage changes only on its answer.
// ---------------------------------------------------------------------------------------------

function newJourney(state, kind, sign) {
  const n = (state.serial += 1);
  const photo = (w, h) => createJpeg({ width: w + (n % 97), height: h + (n % 89) });
  return {
    n,
    kind,
    sign,
    phone: `8095${state.phoneTag}${String(n).padStart(5, '0')}`,
    taxId: cedula(`4${state.taxTag}${String(n).padStart(6, '0')}`),
    stage: kind === 'signer' ? 'seed' : 'sms_send',
    // What the identity and signature requests send, fixed per journey so a re-send is the same request.
    photos: { id_front: photo(1280, 800), id_back: photo(1280, 800), selfie: photo(720, 960) },
    png: Buffer.from(createPng({ width: 280 + (n % 50), height: 120 })).toString('base64'),
    done: false,
    resending: false,
  };
}

const userPath = (j, rest) => `/api/v1/users/${j.userId}/SK${rest}`;
const signerPath = (j, rest) => `/api/v1/users/SK/${j.userId}${rest}`;

/** The stages of each journey in order, and those that write. */
const PATHS = {
  registration: ['sms_send', 'sms_confirm', ...REGISTRATION_STEPS, 'wait_decision', 'password'],
  signing: ['link', 'open_link', 'documents', 'wait_verified', 'sign'],
  signer: ['seed', 'sms_send', 'sms_confirm', 'nip_send', 'nip_confirm', 'wait_decision'],
};
const READS = new Set(['seed', 'wait_decision', 'open_link', 'wait_verified']);

/** How many writes a journey has left (about: a lost answer or a spent PIN adds some). */
function writesLeft(j) {
  const path = [...PATHS[j.kind], ...(j.sign ? PATHS.signing : [])];
  return path.slice(Math.max(0, path.indexOf(j.stage))).filter((stage) => !READS.has(stage)).length;
}

/** Where the server says the application stands → the journey's next stage. */
function follow(j, state) {
  const { next_step: step, status } = state;
  if (status === 'REJECTED') throw new JourneyFailed(`rejected at ${step}: the suite's applicants all qualify`);
  const stage = {
    TAX_ACCOUNT: 'tax_id',
    BUSINESS_ADDRESS: 'address',
    ABOUT_STORE: 'business',
    ACCOUNT_NIP: 'nip_send',
    ACCOUNT_BUREAU: status === 'WAITING' ? 'wait_decision' : j.nip ? 'nip_confirm' : 'nip_send',
    PASSWORD: j.kind === 'signer' ? 'link' : 'password',
    INVENTORY: j.sign ? 'link' : 'finished',
  }[step];
  if (!stage) throw new JourneyFailed(`unexpected state ${step}/${status}`);
  if (stage === 'finished') finish(j, 'registered');
  else j.stage = stage;
}

function finish(j, outcome) {
  j.done = true;
  j.outcome = outcome;
}

/** The newest SMS to the journey's phone containing `text` (the outbox is newest first). */
async function sms(run, j, text) {
  const r = await send(run, j, 'GET', `/dev/outbox.json?to=${encodeURIComponent(`+1${j.phone}`)}`);
  if (!r.ok) throw unexpected('outbox', r);
  return r.data.messages.find((message) => message.body.includes(text))?.body;
}

const STAGES = {
  async seed(run, j) {
    // The test factory: before the round's kill is armed (see `round`).
    const r = await send(run, j, 'POST', '/dev/test/users', {
      json: { phone_number: j.phone, next_step: 'ACCOUNT_NIP', complete: { tax_id: j.taxId } },
    });
    if (r.status !== 201) throw unexpected('test factory', r);
    j.userId = r.data.data.user_id;
    run.ledger.push({ kind: 'factory', userId: j.userId, phone: j.phone });
    j.stage = 'sms_send';
  },

  async sms_send(run, j) {
    const r = await send(run, j, 'POST', '/api/v1/users/code', { json: { phone_number: j.phone } });
    if (r.status === 429) return 1000;
    if (!r.ok) throw unexpected('code', r);
    run.ledger.push({ kind: 'sms_send', phone: j.phone });
    j.code = undefined;
    j.stage = 'sms_confirm';
  },

  async sms_confirm(run, j) {
    j.code ??= /\b(\d{6})\b/.exec((await sms(run, j, 'es tu código')) ?? '')?.[1];
    if (!j.code) throw new JourneyFailed('no code in the outbox after an acknowledged code request');
    const r = await send(run, j, 'PUT', '/api/v1/users/code', { json: { phone_number: j.phone, code: j.code } });
    j.code = undefined;
    if (r.status === 400 || r.status === 429) {
      // The code was used by the request whose answer was lost (or replaced): a new one.
      j.stage = 'sms_send';
      return;
    }
    if (!r.ok) throw unexpected('code confirmation', r);
    run.ledger.push({ kind: 'sms_confirm', phone: j.phone });
    j.proofToken = r.data.data.authentication.access_token;
    const found = await send(run, j, 'GET', `/api/v1/users?phone_number=${j.phone}`, { token: j.proofToken });
    if (found.status === 404 && j.kind === 'registration') {
      j.stage = 'personal_data';
      return;
    }
    if (!found.ok) throw unexpected('lookup', found);
    j.userId = found.data.data.user_id;
    j.token = j.proofToken; // the proven phone's token opens its own application's routes
    follow(j, found.data.data);
  },

  async personal_data(run, j) {
    const r = await send(run, j, 'POST', '/api/v2/users', {
      token: j.proofToken,
      json: personalData(j.phone),
    });
    if (r.status === 409 && r.data?.code === 'USER_EXISTS') {
      j.userId = r.data.current.user_id;
      j.token = j.proofToken;
      follow(j, r.data.current);
      return;
    }
    if (r.status === 401) {
      j.stage = 'sms_send';
      return;
    }
    if (r.status !== 201) throw unexpected('personal data', r);
    j.userId = r.data.data.user_id;
    j.token = r.data.data.authentication.access_token;
    run.ledger.push({ kind: 'personal_data', userId: j.userId, phone: j.phone });
    follow(j, r.data.data);
  },

  tax_id: (run, j) => stepWrite(run, j, 'tax-id', 'POST', '/tax_info', { tax_payer_id: j.taxId }),
  address: (run, j) =>
    stepWrite(run, j, 'address', 'POST', '/businesses/address', businessAddress(run.setup, j.n, j.n)),
  business: (run, j) => stepWrite(run, j, 'business', 'POST', '/businesses', businessData(run.setup, j.n)),
  password: (run, j) =>
    stepWrite(run, j, 'password', 'PUT', '/password', { password: '583920', password_confirmation: '583920' }),

  async nip_send(run, j) {
    const r = await send(run, j, 'POST', userPath(j, '/nip'), { token: j.token });
    if (r.status === 429) return 1000;
    if (r.status === 409) return follow(j, r.data.current);
    if (!r.ok) throw unexpected('PIN', r);
    run.ledger.push({ kind: 'nip_send', userId: j.userId, phone: j.phone });
    j.nip = r.data.data.default_nip;
    if (!j.nip) throw new JourneyFailed('no default_nip: the suite needs NIP_PREFILL=true');
    j.stage = 'nip_confirm';
  },

  async nip_confirm(run, j) {
    const r = await send(run, j, 'PUT', userPath(j, '/nip'), { token: j.token, json: { nip: j.nip } });
    if (r.status === 409 && r.data?.code === 'STEP_IN_PROGRESS') return 1000; // a crashed try's claim lapses in 30 s
    if (r.status === 409) {
      j.nip = undefined;
      return follow(j, r.data.current);
    }
    if (r.status === 400 || r.status === 429) {
      // The PIN was spent by the try whose answer was lost: ask for another.
      j.nip = undefined;
      j.stage = 'nip_send';
      return;
    }
    if (!r.ok) throw unexpected('PIN confirmation', r);
    j.nip = undefined;
    run.ledger.push({
      kind: 'consent',
      userId: j.userId,
      decided: r.data.data.next_step === 'PASSWORD' ? r.data.data.status : null,
    });
    follow(j, r.data.data);
  },

  async wait_decision(run, j) {
    const r = await send(run, j, 'GET', userPath(j, ''), { token: j.token });
    if (!r.ok) throw unexpected('user', r);
    if (r.data.data.next_step === 'ACCOUNT_BUREAU' && r.data.data.status === 'WAITING') return 300;
    follow(j, r.data.data);
  },

  async link(run, j) {
    const r = await send(run, j, 'POST', `/api/backoffice/applications/${j.userId}/contract-links`, {
      cookie: run.state.cookie,
      json: { person_type: 'titular' },
    });
    if (r.status === 401) return login(run);
    if (r.status === 409 && r.data?.code === 'SIGNER_SIGNED') return finish(j, 'signed');
    if (!r.ok) throw unexpected('signing link', r);
    run.ledger.push({ kind: 'link', userId: j.userId, linkId: r.data.data.result.link_id });
    j.linkToken = undefined;
    j.stage = 'open_link';
  },

  async open_link(run, j) {
    const url = /(https?:\/\/\S+)/.exec((await sms(run, j, 'send-contract-sign')) ?? '')?.[1];
    if (!url) throw new JourneyFailed('no signing link in the outbox after an acknowledged link');
    j.linkToken = new URL(url).searchParams.get('token');
    const r = await send(run, j, 'GET', signerPath(j, '/contract-link'), { token: j.linkToken });
    if (r.status === 409 && r.data?.code === 'SIGNER_SIGNED') return finish(j, 'signed');
    if (r.status === 409 || r.status === 401) {
      j.stage = 'link'; // replaced or used: the analyst sends a new one
      return;
    }
    if (!r.ok) throw unexpected('signing link view', r);
    const stage = {
      AWAITING_VERIFICATION: 'documents',
      VERIFICATION_REJECTED: 'documents',
      VERIFYING: 'wait_verified',
      VERIFIED: 'sign',
    }[r.data.data.state];
    if (!stage) throw new JourneyFailed(`signer at ${r.data.data.state}`);
    j.stage = stage;
  },

  async documents(run, j) {
    const r = await send(run, j, 'POST', signerPath(j, '/identity-documents'), {
      token: j.linkToken,
      form: () => {
        const form = new FormData();
        form.set('person_type', 'titular');
        form.set('verification_type', 'VERIFICATION');
        for (const [kind, bytes] of Object.entries(j.photos))
          form.set(kind, new Blob([bytes], { type: 'image/jpeg' }), `${kind}.jpg`);
        return form;
      },
    });
    if (r.status === 409 && r.data?.code === 'SIGNER_SIGNED') return finish(j, 'signed');
    if (r.status === 409 && r.data?.code === 'LINK_USED') {
      j.stage = 'link';
      return;
    }
    if (r.status === 409 && r.data?.code === 'SIGNER_NOT_READY') {
      j.stage = 'open_link';
      return;
    }
    if (!r.ok) throw unexpected('identity documents', r);
    run.ledger.push({ kind: 'documents', userId: j.userId, verificationId: r.data.data.verification_id });
    j.stage = 'wait_verified';
  },

  async wait_verified(run, j) {
    const r = await send(
      run,
      j,
      'GET',
      signerPath(j, '/mati-status?verification_type=VERIFICATION&person_type=titular'),
      { token: j.linkToken },
    );
    if (r.status === 401 || r.status === 409) {
      j.stage = 'open_link';
      return;
    }
    if (!r.ok) throw unexpected('verification status', r);
    const { status } = r.data.data;
    if (status === null) return 250;
    if (status !== 'APPROVED') throw new JourneyFailed(`identity check ${status}`);
    j.stage = 'sign';
  },

  async sign(run, j) {
    const r = await send(run, j, 'PUT', signerPath(j, '/contract'), {
      token: j.linkToken,
      json: { person_type: 'titular', signature: j.png, metadata: GEO },
    });
    if (r.status === 409 && r.data?.code === 'SIGNER_SIGNED') return finish(j, 'signed');
    if (r.status === 409 || r.status === 401) {
      j.stage = 'open_link';
      return;
    }
    if (!r.ok) throw unexpected('signature', r);
    // The stored signature is the product's own PNG encoded from the decoded upload (decision 021):
    // its hash is not the upload's; the answer's contract hash binds it (the PDF embeds it).
    run.ledger.push({ kind: 'sign', userId: j.userId, contractSha256: r.data.data.contract_sha256 });
    finish(j, 'signed');
  },
};

/** A registration step: its answer (or the 409's `current`) says where to go next. */
async function stepWrite(run, j, transition, method, path, body) {
  const r = await send(run, j, method, userPath(j, path), { token: j.token, json: body });
  if (r.status === 409 && r.data?.code === 'STEP_IN_PROGRESS') return 1000;
  if (r.status === 409) return follow(j, r.data.current);
  if (!r.ok) throw unexpected(transition, r);
  run.ledger.push({ kind: 'step', transition, userId: j.userId });
  follow(j, r.data.data);
}

/**
 * The analyst's back-office session (writes too: the session rows): the password, then the
 * authenticator app (enrolled at the first login, scripts/staff-login.mjs).
 */
async function login(run) {
  // Per database: each has its own analyst account, and so its own authenticator app.
  run.state.analystLogin ??= staffLogin(ANALYST);
  let cookie;
  try {
    cookie = await run.state.analystLogin((method, path, options) => send(run, null, method, path, options));
  } catch (error) {
    throw new JourneyFailed(`analyst login: ${error.message}`);
  }
  run.state.cookie = cookie;
  const id = decodeURIComponent(cookie.slice('provee_staff='.length));
  run.ledger.push({ kind: 'login', idHash: sha256(id.slice(0, id.lastIndexOf('.'))) });
}

/** Runs a journey's stages until it is done, it fails, or the server is gone. */
async function advance(run, j) {
  while (!j.done && !run.killed && !run.stopping) {
    let wait;
    try {
      wait = await STAGES[j.stage](run, j);
    } catch (error) {
      if (error instanceof ServerGone) return;
      j.failed = `journey ${j.n} (${j.kind}) at ${j.stage}: ${error.message}`;
      run.figures.failures.push(j.failed);
      j.done = true;
      return;
    }
    if (wait) await sleep(wait);
  }
}

// ---------------------------------------------------------------------------------------------
// The checks, on the database itself
// ---------------------------------------------------------------------------------------------

const ONCE = ['tax-id', 'address', 'business', 'nip-sent', 'consent', 'decision', 'password'];
const stepIndex = (step) => NEXT_STEPS.indexOf(step);

/** Everything the checks read, in one pass. */
async function readAll(db) {
  const q = async (text) => {
    const result = await db.execute(sql.raw(text));
    return result.rows ?? [...result];
  };
  return {
    users: await q(`select id::text, phone_e164, next_step, status, tax_id_hash is not null as has_tax_id,
      password_hash is not null as has_password from users`),
    events: await q(`select id::int, application_id, type, payload->>'transition' as transition,
      payload->'to'->>'step' as to_step, payload->'to'->>'status' as to_status,
      case when jsonb_typeof(payload->'to') = 'string' then payload->>'to' end as signer_to,
      payload->>'step' as p_step, payload->>'status' as p_status, payload->>'signer_id' as signer_id,
      payload->>'link_id' as link_id, payload->>'verification_id' as verification_id,
      payload->>'decision_id' as decision_id, payload->>'folio' as folio, payload->>'contract_id' as contract_id,
      payload->>'contract_sha256' as contract_sha256 from audit_events order by id`),
    codes: await q(`select phone_e164, purpose, count(*)::int as n, count(consumed_at)::int as consumed
      from phone_codes group by 1, 2`),
    outbox: await q(`select "to", count(*) filter (where body like '%es tu código%')::int as codes
      from sms_outbox group by 1`),
    addresses: await q(`select user_id::text from business_addresses`),
    businesses: await q(`select user_id::text from businesses`),
    consents: await q(`select id::text, user_id::text, aval_id::text, bureau_folio from bureau_consents`),
    queries: await q(`select id::text, consent_id::text, user_id::text, status from bureau_queries`),
    decisions: await q(`select id::text, user_id::text, consent_id::text, aval_id::text, result from credit_decisions`),
    contracts: await q(`select id::text, user_id::text, unsigned_sha256, unsigned_pdf, signed_sha256, signed_pdf
      from contracts`),
    signers: await q(`select id::text, contract_id::text, user_id::text, person_type, state, signature_sha256,
      signature_png_encrypted is not null as has_png, signed_at is not null as has_signed_at,
      evidence->>'signature_sha256' as evidence_sha256, evidence->>'link_id' as evidence_link,
      current_verification_id::text from contract_signers`),
    links: await q(`select id::text, signer_id::text, purpose, used_at is not null as used,
      revoked_at is not null as revoked from contract_links`),
    checks: await q(`select v.id::text, v.signer_id::text, v.status, v.provider, count(d.id)::int as documents,
      string_agg(d.sha256, ',' order by d.kind) as document_hashes
      from identity_verifications v left join identity_documents d on d.verification_id = v.id group by v.id`),
    sessions: await q(`select id_hash from staff_sessions`),
    chains: (await q(`select distinct application_id from audit_events`)).map((row) => row.application_id),
  };
}

const groupBy = (rows, key) => {
  const map = new Map();
  for (const row of rows) {
    const k = typeof key === 'function' ? key(row) : row[key];
    if (!map.has(k)) map.set(k, []);
    map.get(k).push(row);
  }
  return map;
};
const countOf = (map, key) => map.get(key)?.length ?? 0;

/**
 * Checks the database against the ledger. Returns the defects found (lost writes, half-done steps,
 * chain failures, duplicates) and how many acknowledged writes were checked.
 */
async function check(db, ledger, { phoneChain, openPdf }) {
  const all = await readAll(db);
  for (const contract of all.contracts) {
    contract.unsigned_actual = sha256(openPdf(contract.unsigned_pdf));
    contract.signed_actual = contract.signed_pdf ? sha256(openPdf(contract.signed_pdf)) : null;
  }
  const found = { lost: [], halfDone: [], chains: [], duplicates: [], checked: 0, chainsVerified: 0 };
  const userById = new Map(all.users.map((user) => [user.id, user]));
  const eventsOf = groupBy(all.events, 'application_id');
  const has = (app, test) => (eventsOf.get(app) ?? []).some(test);
  const countEvents = (app, test) => (eventsOf.get(app) ?? []).filter(test).length;
  const codes = new Map(all.codes.map((row) => [`${row.phone_e164}|${row.purpose}`, row]));
  const outbox = new Map(all.outbox.map((row) => [row.to, row]));
  const addresses = new Set(all.addresses.map((row) => row.user_id));
  const businesses = new Set(all.businesses.map((row) => row.user_id));
  const titularConsents = groupBy(
    all.consents.filter((row) => !row.aval_id),
    'user_id',
  );
  const queriesByConsent = groupBy(all.queries, 'consent_id');
  const decisionsByConsent = groupBy(all.decisions, 'consent_id');
  const consentIds = new Set(all.consents.map((row) => row.id));
  const contractsByUser = groupBy(all.contracts, 'user_id');
  const contractById = new Map(all.contracts.map((row) => [row.id, row]));
  const signersByContract = groupBy(all.signers, 'contract_id');
  const linkById = new Map(all.links.map((row) => [row.id, row]));
  const checkById = new Map(all.checks.map((row) => [row.id, row]));
  const sessions = new Set(all.sessions.map((row) => row.id_hash));
  const lost = (entry, what) => found.lost.push(`${entry.kind} ${entry.userId ?? entry.phone ?? ''}: ${what}`);
  const titularSigner = (userId) => {
    const [contract] = contractsByUser.get(userId) ?? [];
    return contract && (signersByContract.get(contract.id) ?? []).find((row) => row.person_type === 'titular');
  };

  // Every acknowledged write is there.
  const perPhone = (kind) =>
    groupBy(
      ledger.filter((entry) => entry.kind === kind),
      'phone',
    );
  for (const [phone, entries] of perPhone('sms_send')) {
    found.checked += entries.length;
    const e164 = `+1${phone}`;
    const rows = codes.get(`${e164}|phone-proof`)?.n ?? 0;
    const messages = outbox.get(e164)?.codes ?? 0;
    if (rows < entries.length || messages < entries.length)
      lost(entries[0], `${entries.length} code requests acknowledged, ${rows} codes and ${messages} SMS stored`);
  }
  for (const [phone, entries] of perPhone('sms_confirm')) {
    found.checked += entries.length;
    const e164 = `+1${phone}`;
    const used = codes.get(`${e164}|phone-proof`)?.consumed ?? 0;
    const proven = countEvents(phoneChain(e164), (event) => event.type === 'phone.proven');
    if (used < entries.length || proven < entries.length)
      lost(entries[0], `${entries.length} proofs acknowledged, ${used} codes used, ${proven} phone.proven events`);
  }
  for (const [phone, entries] of perPhone('nip_send')) {
    found.checked += entries.length;
    const rows = codes.get(`+1${phone}|consent-nip`)?.n ?? 0;
    if (rows < entries.length) lost(entries[0], `${entries.length} PINs acknowledged, ${rows} stored`);
  }
  for (const entry of ledger) {
    if (['sms_send', 'sms_confirm', 'nip_send'].includes(entry.kind)) continue;
    found.checked += 1;
    const user = entry.userId && userById.get(entry.userId);
    const event = (test) => has(entry.userId, test);
    switch (entry.kind) {
      case 'factory':
      case 'personal_data': {
        if (!user || user.phone_e164 !== `+1${entry.phone}`) lost(entry, 'no user row');
        const type = entry.kind === 'factory' ? 'test.seeded' : 'user.registered';
        if (!event((e) => e.type === type)) lost(entry, `no ${type} event`);
        break;
      }
      case 'step': {
        if (!event((e) => e.transition === entry.transition && e.to_step))
          lost(entry, `no audit event of the '${entry.transition}' step`);
        const row = {
          'tax-id': () => user?.has_tax_id,
          address: () => addresses.has(entry.userId),
          business: () => businesses.has(entry.userId),
          password: () => user?.has_password,
        }[entry.transition];
        if (row && !row()) lost(entry, `the '${entry.transition}' step's data is missing`);
        break;
      }
      case 'consent': {
        const [consent] = titularConsents.get(entry.userId) ?? [];
        if (!consent) lost(entry, 'no consent row');
        else if (countOf(queriesByConsent, consent.id) === 0) lost(entry, 'no bureau query');
        if (!event((e) => e.transition === 'consent')) lost(entry, 'no consent event');
        if (entry.decided) {
          if (!consent || countOf(decisionsByConsent, consent.id) === 0) lost(entry, 'no credit decision');
          if (!event((e) => e.transition === 'decision')) lost(entry, 'no decision event');
        }
        break;
      }
      case 'login':
        if (!sessions.has(entry.idHash)) lost(entry, 'the staff session is gone');
        break;
      case 'link':
        if (!linkById.has(entry.linkId)) lost(entry, 'no contract_links row');
        if (!event((e) => e.type === 'contract.link_issued' && e.link_id === entry.linkId))
          lost(entry, 'no contract.link_issued event');
        break;
      case 'documents': {
        const row = checkById.get(entry.verificationId);
        if (!row) lost(entry, 'no identity_verifications row');
        else if (row.documents !== 3) lost(entry, `${row.documents} of 3 documents`);
        if (!event((e) => e.type === 'identity.check_started' && e.verification_id === entry.verificationId))
          lost(entry, 'no identity.check_started event');
        break;
      }
      case 'sign': {
        const signer = titularSigner(entry.userId);
        const [contract] = contractsByUser.get(entry.userId) ?? [];
        if (signer?.state !== 'SIGNED' || !signer.signature_sha256) lost(entry, 'the signature is not recorded');
        if (contract?.signed_sha256 !== entry.contractSha256)
          lost(entry, 'the signed contract is not the one answered');
        if (!event((e) => e.type === 'contract.signed' && e.contract_sha256 === entry.contractSha256))
          lost(entry, 'no contract.signed event');
        break;
      }
      default:
        throw new Error(`unknown ledger entry ${entry.kind}`);
    }
  }

  // No step half done.
  const half = (what) => found.halfDone.push(what);
  for (const query of all.queries)
    if (!consentIds.has(query.consent_id)) half(`bureau query ${query.id} without its consent`);
  for (const decision of all.decisions) {
    if (!consentIds.has(decision.consent_id)) half(`credit decision ${decision.id} without its consent`);
    if (!has(decision.user_id, (e) => e.decision_id === decision.id))
      half(`credit decision ${decision.id} without its audit event`);
  }
  for (const consent of all.consents) {
    if (countOf(queriesByConsent, consent.id) === 0) half(`consent ${consent.id} without its bureau query`);
    if (
      !consent.aval_id &&
      !has(consent.user_id, (e) => e.type === 'consent.given' && e.folio === consent.bureau_folio)
    )
      half(`consent ${consent.id} without its consent.given event`);
  }
  for (const user of all.users) {
    const events = eventsOf.get(user.id) ?? [];
    const created = events.find((e) => e.type === 'user.registered' || e.type === 'test.seeded');
    if (!created) half(`user ${user.id} without the event that created it`);
    const moves = events.filter((e) => e.transition && e.to_step);
    const last = moves.at(-1);
    const expected = last
      ? { step: last.to_step, status: last.to_status }
      : created?.type === 'test.seeded'
        ? { step: created.p_step, status: created.p_status }
        : { step: 'TAX_ACCOUNT', status: 'IN_PROGRESS' };
    if (expected.step !== user.next_step || expected.status !== user.status)
      half(
        `user ${user.id} at ${user.next_step}/${user.status}, its audit trail says ${expected.step}/${expected.status}`,
      );
    const at = stepIndex(user.next_step);
    const needs = (condition, what) => condition && half(`user ${user.id} at ${user.next_step}/${user.status} ${what}`);
    needs(at > stepIndex('TAX_ACCOUNT') && !user.has_tax_id, 'without its tax id');
    needs(at > stepIndex('BUSINESS_ADDRESS') && !addresses.has(user.id), 'without its address');
    needs(at > stepIndex('ABOUT_STORE') && !businesses.has(user.id), 'without its business');
    const consented =
      at > stepIndex('ACCOUNT_BUREAU') || (user.next_step === 'ACCOUNT_BUREAU' && user.status === 'WAITING');
    const consents = titularConsents.get(user.id) ?? [];
    needs(consented && consents.length === 0, 'without its consent');
    needs(
      at >= stepIndex('PASSWORD') && !consents.some((c) => countOf(decisionsByConsent, c.id) > 0),
      'without its credit decision',
    );
    needs(at > stepIndex('PASSWORD') && !user.has_password, 'without its password');
  }
  for (const contract of all.contracts) {
    const signers = signersByContract.get(contract.id) ?? [];
    if (contract.unsigned_actual !== contract.unsigned_sha256) half(`contract ${contract.id}: unsigned PDF ≠ its hash`);
    if (!has(contract.user_id, (e) => e.type === 'contract.drafted' && e.contract_id === contract.id))
      half(`contract ${contract.id} without its contract.drafted event`);
    if (contract.signed_sha256 !== null || contract.signed_actual !== null) {
      if (contract.signed_actual !== contract.signed_sha256) half(`contract ${contract.id}: signed PDF ≠ its hash`);
      if (!signers.some((s) => s.state === 'SIGNED')) half(`contract ${contract.id} signed by nobody`);
      const lastSigned = (eventsOf.get(contract.user_id) ?? [])
        .filter((e) => e.type === 'contract.signed' && e.contract_id === contract.id)
        .at(-1);
      if (lastSigned?.contract_sha256 !== contract.signed_sha256)
        half(`contract ${contract.id}: its hash is not the last contract.signed event's`);
    }
  }
  for (const signer of all.signers) {
    const events = (eventsOf.get(signer.user_id) ?? []).filter((e) => e.signer_id === signer.id);
    if (!events.some((e) => e.type === 'signer.added')) half(`signer ${signer.id} without its signer.added event`);
    const expected = events.filter((e) => e.signer_to).at(-1)?.signer_to ?? 'AWAITING_VERIFICATION';
    if (expected !== signer.state) half(`signer ${signer.id} ${signer.state}, its audit trail says ${expected}`);
    if (signer.current_verification_id && !checkById.has(signer.current_verification_id))
      half(`signer ${signer.id}: its current check does not exist`);
    if (signer.state === 'SIGNED') {
      const contract = contractById.get(signer.contract_id);
      if (!signer.has_png || !signer.signature_sha256 || !signer.has_signed_at)
        half(`signed signer ${signer.id} without its signature, hash or time`);
      if (signer.evidence_sha256 !== signer.signature_sha256) half(`signed signer ${signer.id}: evidence ≠ signature`);
      if (!contract?.signed_sha256) half(`signed signer ${signer.id}: the contract has no signed PDF hash`);
      if (!events.some((e) => e.type === 'contract.signed')) half(`signed signer ${signer.id} without contract.signed`);
      if (!linkById.get(signer.evidence_link)?.used) half(`signed signer ${signer.id}: its link is not marked used`);
    }
  }
  for (const link of all.links) {
    const signer = all.signers.find((s) => s.id === link.signer_id);
    // A signing link, or the signed copy's own link (issue 26: it reads, never signs).
    const issued = link.purpose === 'copy' ? 'contract.copy_link_issued' : 'contract.link_issued';
    if (!has(signer?.user_id, (e) => e.type === issued && e.link_id === link.id))
      half(`link ${link.id} without its ${issued} event`);
  }
  for (const row of all.checks) {
    const signer = all.signers.find((s) => s.id === row.signer_id);
    const events = (eventsOf.get(signer?.user_id) ?? []).filter((e) => e.verification_id === row.id);
    if (!events.some((e) => e.type === 'identity.check_started'))
      half(`identity check ${row.id} without identity.check_started`);
    if (
      row.status !== 'PENDING' &&
      !events.some((e) => /^identity\.(answered|answer_superseded|review_decided)$/.test(e.type))
    )
      half(`identity check ${row.id} answered ${row.status} without its event`);
    if (row.provider === 'simulator' && row.documents !== 3)
      half(`identity check ${row.id} with ${row.documents} documents`);
  }

  // Every audit chain verifies.
  for (const id of all.chains) {
    const chain = await verifyAuditChain(db, id);
    found.chainsVerified += 1;
    if (!chain.valid) found.chains.push(`${id}: ${chain.reason} at event ${chain.brokenAt}`);
  }

  // No duplicates.
  const dup = (what) => found.duplicates.push(what);
  for (const [phone, rows] of groupBy(all.users, 'phone_e164'))
    if (rows.length > 1) dup(`${rows.length} users for ${phone}`);
  for (const user of all.users) {
    const events = eventsOf.get(user.id) ?? [];
    for (const transition of ONCE) {
      const n = events.filter((e) => e.transition === transition && e.to_step).length;
      if (n > 1) dup(`user ${user.id}: the '${transition}' step ${n} times`);
    }
    const created = events.filter((e) => e.type === 'user.registered' || e.type === 'test.seeded').length;
    if (created > 1) dup(`user ${user.id} created ${created} times`);
    const consents = titularConsents.get(user.id)?.length ?? 0;
    if (consents > 1) dup(`user ${user.id}: ${consents} consents`);
    const contracts = contractsByUser.get(user.id)?.length ?? 0;
    if (contracts > 1) dup(`user ${user.id}: ${contracts} contracts`);
  }
  for (const [consent, rows] of queriesByConsent)
    if (rows.length > 1) dup(`consent ${consent}: ${rows.length} queries`);
  for (const [consent, rows] of decisionsByConsent)
    if (rows.length > 1) dup(`consent ${consent}: ${rows.length} decisions`);
  for (const [contract, signers] of signersByContract) {
    const titulars = signers.filter((s) => s.person_type === 'titular').length;
    if (titulars > 1) dup(`contract ${contract}: ${titulars} titular signers`);
  }
  for (const signer of all.signers) {
    const signed = countEvents(signer.user_id, (e) => e.type === 'contract.signed' && e.signer_id === signer.id);
    if (signed > 1) dup(`signer ${signer.id} signed ${signed} times`);
  }
  for (const [signer, links] of groupBy(all.links, 'signer_id')) {
    const live = links.filter((link) => !link.used && !link.revoked).length;
    if (live > 1) dup(`signer ${signer}: ${live} live signing links`);
  }
  for (const [key, rows] of groupBy(all.checks, (row) => `${row.signer_id}|${row.document_hashes}`))
    if (rows.length > 1) dup(`signer ${key.split('|')[0]}: ${rows.length} identity checks of the same photos`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Rounds
// ---------------------------------------------------------------------------------------------

function newFigures() {
  return {
    rounds: 0,
    kills: 0,
    killsDuringStart: 0,
    acknowledged: 0,
    acknowledgedUnread: 0,
    lostAnswers: 0,
    resent: [],
    checks: 0,
    writesChecked: 0,
    lost: [],
    halfDone: [],
    chains: [],
    chainsVerified: 0,
    duplicates: [],
    failures: [],
    restartMs: [],
    killMoments: [],
  };
}

/** Starts the built server; on some rounds kills it once while it starts, then starts it again. */
async function boot(db, figures, killDuringStart) {
  const port = await freePort();
  const env = { ...SUITE_ENV, ...db.env, PORT: String(port) };
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = openSync(db.logPath, 'a');
  const spawnIt = () => startServer(env, { stdio: ['ignore', log, log] });
  try {
    if (killDuringStart) {
      const early = spawnIt();
      await sleep(200 + Math.random() * 1500);
      if (early.exitCode === null) {
        await stopServer(early, 'SIGKILL');
        figures.kills += 1;
        figures.killsDuringStart += 1;
      }
    }
    const started = performance.now();
    const child = spawnIt();
    await waitReady(baseUrl, child, { tries: 1200 });
    figures.restartMs.push(performance.now() - started);
    return { child, baseUrl };
  } finally {
    closeSync(log);
  }
}

/** The database as the kill left it: PGlite from a copy of its data dir (the server recovers the original); PostgreSQL directly. */
async function inspectNow(db, state, label) {
  if (db.kind !== 'pglite') return checkInto(db.postgres.db, db, state, label);
  const copy = mkdtempSync(join(tmpdir(), 'provee-crash-copy-'));
  cpSync(join(db.env.DATA_DIR, 'pglite'), join(copy, 'pglite'), { recursive: true });
  const database = openDatabase({ dataDir: copy });
  try {
    return await checkInto(database.db, db, state, label);
  } finally {
    await database.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The journeys of a round: at most CONCURRENCY, those that waited longest first. */
function pick(state, number) {
  const chosen = state.journeys
    .filter((j) => !j.done)
    .sort((a, b) => (a.lastRound ?? 0) - (b.lastRound ?? 0) || a.n - b.n)
    .slice(0, CONCURRENCY);
  for (const j of chosen) j.lastRound = number;
  return chosen;
}

/** One round: start, seed, traffic, SIGKILL at a random moment, check. */
async function round(db, state, number) {
  const { figures } = state;
  const server = await boot(db, figures, number % KILL_DURING_START_EVERY === 0);
  const run = { ...server, state, figures, ledger: state.ledger, killed: false, stopping: false };
  let selfExit;
  const kill = { acknowledged: 0, ms: 0 };
  server.child.once('exit', (code, signal) => {
    if (!run.killed) selfExit = `the server stopped on its own (${code ?? signal})`;
  });
  try {
    // Set-up, before the kill is armed: the catalogue's choices, the analyst's session, the test
    // factory's applications (test tooling, not the product: its rows are not one transaction).
    run.setup = state.setup ??= await journeySetup(client(server.baseUrl));
    const session = state.cookie
      ? await send(run, null, 'GET', '/api/backoffice/session', { cookie: state.cookie })
      : { ok: false };
    if (!session.ok) await login(run);
    const fresh = [
      ...Array.from({ length: NEW_REGISTRATIONS }, (_, i) => newJourney(state, 'registration', i % 2 === 0)),
      ...Array.from({ length: NEW_SIGNERS }, () => newJourney(state, 'signer', true)),
    ];
    for (const j of fresh.filter((one) => one.kind === 'signer')) await STAGES.seed(run, j);
    state.journeys.push(...fresh);

    const journeys = pick(state, number);
    const left = journeys.reduce((sum, j) => sum + writesLeft(j), 0);
    const target = randomInt(1, Math.max(2, Math.floor(left * 0.95)));
    let due;
    const killDue = new Promise((resolve) => (due = resolve));
    const latest = setTimeout(due, KILL_LATEST_MS);
    let acknowledged = 0;
    run.onAcknowledged = () => {
      acknowledged += 1;
      if (acknowledged === target) setTimeout(due, Math.random() * KILL_JITTER_MS);
    };
    const started = performance.now();
    const traffic = Promise.all(journeys.map((j) => advance(run, j)));
    await Promise.race([traffic, killDue]);
    clearTimeout(latest);
    run.killed = true;
    await stopServer(server.child, 'SIGKILL');
    figures.kills += 1;
    Object.assign(kill, { acknowledged, ms: performance.now() - started, target, left });
    figures.killMoments.push(kill);
    await traffic;
  } finally {
    run.killed = true;
    await stopServer(server.child, 'SIGKILL');
  }
  if (selfExit) figures.failures.push(`round ${number}: ${selfExit}`);
  figures.rounds += 1;
  const found = await inspectNow(db, state, `round ${number}`);
  const defects = found.lost.length + found.halfDone.length + found.chains.length + found.duplicates.length;
  const fresh = found.fresh ? ` (${found.fresh} new)` : '';
  const open = state.journeys.filter((j) => !j.done).length;
  console.log(
    `  round ${String(number).padStart(2)}: SIGKILL ${Math.round(kill.ms)} ms into the traffic, after ${kill.acknowledged} acknowledged writes (drawn: ${kill.target} of ~${kill.left}); ${state.ledger.length} in the ledger, ${found.checked} checked, ${defects} defects${fresh}; ${open} journeys under way`,
  );
}

/** After the last round: no kills until every journey has finished, then a clean stop and the last check. */
async function drain(db, state) {
  const { figures } = state;
  const server = await boot(db, figures, false);
  const run = { ...server, state, figures, ledger: state.ledger, killed: false, stopping: false };
  run.setup = state.setup;
  const deadline = setTimeout(() => (run.stopping = true), DRAIN_MS);
  const queue = state.journeys.filter((j) => !j.done);
  const worker = async () => {
    while (queue.length > 0 && !run.stopping) await advance(run, queue.shift());
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    clearTimeout(deadline);
    await stopServer(server.child, 'SIGTERM');
  }
  for (const j of state.journeys.filter((one) => !one.done))
    figures.failures.push(`journey ${j.n} (${j.kind}) unfinished at ${j.stage} after the last round`);
  if (db.kind === 'pglite') {
    const database = openDatabase({ dataDir: db.env.DATA_DIR });
    try {
      await checkInto(database.db, db, state, 'end');
    } finally {
      await database.close();
    }
  } else {
    await checkInto(db.postgres.db, db, state, 'end');
  }
}

/** Checks now; a defect is counted once, with the check that first saw it. */
async function checkInto(executor, db, state, label) {
  const { figures } = state;
  const found = await check(executor, state.ledger, db);
  figures.checks += 1;
  figures.writesChecked += found.checked;
  figures.chainsVerified += found.chainsVerified;
  found.fresh = 0;
  for (const key of ['lost', 'halfDone', 'chains', 'duplicates'])
    for (const item of found[key]) {
      if (state.seen.has(`${key}|${item}`)) continue;
      state.seen.add(`${key}|${item}`);
      figures[key].push(`${label}: ${item}`);
      found.fresh += 1;
    }
  return found;
}

/**
 * The checks must see a defect when there is one: in a transaction that is rolled back, an
 * acknowledged address is deleted and a second consent is written for a consented user.
 */
async function control(executor, db, state) {
  const address = state.ledger.find((entry) => entry.kind === 'step' && entry.transition === 'address');
  const consent = state.ledger.find((entry) => entry.kind === 'consent');
  if (!address || !consent) return 'skipped (no address or consent acknowledged)';
  const ROLLBACK = new Error('rollback');
  let found;
  await executor
    .transaction(async (tx) => {
      await tx.execute(sql`delete from business_addresses where user_id = ${address.userId}`);
      await tx.execute(sql`insert into bureau_consents (user_id, person_type, consent_text, consent_text_sha256,
        consent_version, created_at, ip, pin_verified, bureau_folio, authorized_until)
        select user_id, person_type, consent_text, consent_text_sha256, consent_version, created_at, ip, pin_verified,
        bureau_folio || '-X', authorized_until from bureau_consents where user_id = ${consent.userId} limit 1`);
      found = await check(tx, state.ledger, db);
      throw ROLLBACK;
    })
    .catch((error) => {
      if (error !== ROLLBACK) throw error;
    });
  const seen = found.lost.length > 0 && found.halfDone.length > 0 && found.duplicates.length > 0;
  if (!seen) state.figures.failures.push('control: the checks did not see planted defects');
  return `${found.lost.length} lost, ${found.halfDone.length} half-done, ${found.duplicates.length} duplicates seen`;
}

async function runOn(kind) {
  const dir = mkdtempSync(join(tmpdir(), `provee-crash-${kind}-`));
  const appSecret = randomBytes(32).toString('base64url');
  const secrets = createSecrets({}, Buffer.from(appSecret, 'utf8'));
  const cipher = createFieldCipher(secrets.key('data-encryption'), secrets.key('lookup-hash'));
  const db = {
    kind,
    env: { DATA_DIR: join(dir, 'data'), APP_SECRET: appSecret },
    logPath: join(dir, 'server.log'),
    phoneChain: (e164) => phoneAuditId({ secrets }, e164),
    openPdf: (stored) => {
      // Stored as rendered, or encrypted at rest like the identity photos (then opened with the app's key).
      const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
      return bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? bytes : cipher.decryptBytes(bytes);
    },
  };
  let pg;
  if (kind === 'postgres') {
    pg = await throwAwayPostgres(DATABASE_URL, 'provee_crash');
    db.env.DATABASE_URL = pg.url;
  }
  const state = {
    figures: newFigures(),
    ledger: [],
    journeys: [],
    seen: new Set(),
    serial: 0,
    phoneTag: kind === 'pglite' ? '2' : '3',
    taxTag: randomBytes(2).readUInt16BE() % 1000,
  };
  state.taxTag = String(state.taxTag).padStart(3, '0');
  console.log(`\n${kind === 'pglite' ? 'PGlite (data dir)' : 'PostgreSQL (throw-away database)'}: ${ROUNDS} rounds`);
  try {
    createStaffAccount(db.env, ANALYST);
    if (kind === 'postgres') db.postgres = openDatabase({ databaseUrl: pg.url, dataDir: db.env.DATA_DIR });
    for (let number = 1; number <= ROUNDS; number++) await round(db, state, number);
    await drain(db, state);
    if (kind === 'pglite') {
      const database = openDatabase({ dataDir: db.env.DATA_DIR });
      try {
        state.control = await control(database.db, db, state);
      } finally {
        await database.close();
      }
    } else {
      state.control = await control(db.postgres.db, db, state);
    }
  } catch (error) {
    state.figures.failures.push(`the run stopped: ${error.stack ?? error}`);
    try {
      console.error(readFileSync(db.logPath, 'utf8').split('\n').slice(-40).join('\n'));
    } catch {
      // no server log
    }
  } finally {
    await db.postgres?.close();
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  return state;
}

/** "3–141 (median 40)" */
const span = (values) =>
  values.length ? `${Math.min(...values)}–${Math.max(...values)} (median ${percentile(values, 50)})` : 'none';

function report(kind, state) {
  const f = state.figures;
  const journeys = state.journeys;
  const registered = journeys.filter((j) => j.outcome === 'registered').length;
  const signed = journeys.filter((j) => j.outcome === 'signed').length;
  const tally = (values) => {
    const counts = new Map();
    for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    return [...counts].map(([value, count]) => `${count}×${value}`).join(', ') || 'none';
  };
  const rows = [
    ['rounds', f.rounds],
    ['kills (SIGKILL)', `${f.kills} (${f.killsDuringStart} of them while the server started)`],
    [
      'kill moments',
      `after ${span(f.killMoments.map((k) => k.acknowledged))} acknowledged writes of the round, ` +
        `${span(f.killMoments.map((k) => Math.round(k.ms)))} ms into its traffic`,
    ],
    ['writes acknowledged (2xx)', `${f.acknowledged} (ledger ${state.ledger.length})`],
    ['answers lost at a kill', `${f.lostAnswers}; re-sent: ${tally(f.resent)}`],
    ['writes checked', `${f.writesChecked} over ${f.checks} checks`],
    ['lost writes', f.lost.length],
    ['half-done steps', f.halfDone.length],
    ['audit chains', `${f.chainsVerified} verified, ${f.chains.length} failures`],
    ['duplicates', f.duplicates.length],
    [
      'journeys',
      `${journeys.length}: ${registered} registered, ${signed} signed, ${journeys.length - registered - signed} other`,
    ],
    [
      'restart to ready (ms)',
      `p50 ${percentile(f.restartMs, 50)?.toFixed(0)}, max ${Math.max(...f.restartMs).toFixed(0)}`,
    ],
    ['control (planted defects)', state.control ?? 'not run'],
  ];
  console.log(`\n${kind}`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(28)} ${value}`);
  const defects = [...f.lost, ...f.halfDone, ...f.chains, ...f.duplicates, ...f.failures];
  for (const defect of defects.slice(0, 40)) console.log(`  ✗ ${defect}`);
  if (defects.length > 40) console.log(`  … and ${defects.length - 40} more`);
  return defects.length;
}

assertBuilt();
if (!options.db && !DATABASE_URL)
  console.log('PostgreSQL skipped: DATABASE_URL is not set (set it, or pass --db postgres, to run there too).');
const results = [];
for (const kind of DATABASES) results.push([kind, await runOn(kind)]);
console.log('\nCrash suite (issue 13, suite 4)');
let defects = 0;
for (const [kind, state] of results) defects += report(kind, state);
process.exit(defects > 0 ? 1 : 0);
