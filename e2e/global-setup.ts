import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dumpPgliteDataDir } from './hygiene-dump.js';
import { hygieneDir, recordSecret } from './hygiene-ledger.js';
import { startSsoProvider } from './sso-provider.js';
import { SECURITY_ADMIN, STAFF_ACCOUNTS } from './staff-accounts.js';
import { ENROLLED_ENV, enrolThroughApi, type EnrolledByServer } from './staff-login.js';

const serverJs = join(import.meta.dirname, '../apps/api/dist/server.js');
const staffCreateJs = join(import.meta.dirname, '../apps/api/dist/staff-create.js');
const tsxCli = join(import.meta.dirname, '../node_modules/tsx/dist/cli.mjs');
const circuloFakeTs = join(import.meta.dirname, '../apps/api/test/stand-ins/circulo/main.ts');

/**
 * Back-office accounts, made the way a lender makes its first ones: the staff:create CLI, with the
 * password on its standard input, before the server holds the embedded database.
 */
function createStaffAccounts(
  dataDir: string,
  accounts: Record<string, { email: string; name: string; password: string }> = STAFF_ACCOUNTS,
): void {
  for (const [role, account] of Object.entries(accounts)) {
    const result = spawnSync(
      process.execPath,
      [staffCreateJs, '--email', account.email, '--role', role, '--name', account.name],
      // PORT 1: nothing listens there, so the CLI's check for a running server on the embedded database passes.
      {
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '1' },
        input: `${account.password}\n`,
        encoding: 'utf8',
      },
    );
    if (result.status !== 0) throw new Error(`staff:create failed: ${result.stderr}`);
  }
}

/** The end of a server's log, for a crash or a failed start. */
function logTail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The built server on a random port with this data dir (PGlite) and the simulators. It logs at
 * info, as in production, to test-results/hygiene/<name>.log (suite 7 scans it); a crash prints the
 * log's tail. Stopped, its database is dumped next to the log before the data dir goes.
 */
async function startServer(
  name: string,
  dataDir: string,
  env: Record<string, string> = {},
  chosenPort?: number,
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = chosenPort ?? (await freePort());
  const logFile = join(hygieneDir(), `${name}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [serverJs], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '10000',
      SMS_NUMBERS_PER_IP_PER_HOUR: '10000',
      ENABLE_TEST_FACTORIES: 'true',
      // The bureau simulator's slow identity answers after 8 s; failed queries retry after 1 s, 2 s, 4 s.
      BUREAU_SLOW_MS: '8000',
      BUREAU_RETRY_BASE_MS: '1000',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(
      `\nThe e2e server '${name}' exited (${signal ?? code}); the end of ${logFile}:\n${logTail(logFile)}\n`,
    );
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 900 && !ready && child.exitCode === null; i++) {
    try {
      ready = (await fetch(`${baseUrl}/api/health`)).ok;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if (!ready) {
    stopping = true;
    child.kill('SIGKILL');
    throw new Error(
      `The built server did not answer /api/health on ${baseUrl}; the end of ${logFile}:\n${logTail(logFile)}`,
    );
  }
  return {
    baseUrl,
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      try {
        await dumpPgliteDataDir(dataDir, join(hygieneDir(), `${name}.dump.txt`));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The first login of the analyst and the admin on a server, through the HTTP API as the login
 * screens make it (password, then an authenticator app enrolled with its first code). The workers
 * get each secret (their UI logins compute the app's code) and the analyst's session (the API-only
 * helpers reuse it instead of logging in per test: a code is good once, and tests run in parallel).
 */
async function enrolStaff(baseUrl: string): Promise<EnrolledByServer[string]> {
  const enrolled: EnrolledByServer[string] = {};
  for (const role of ['analyst', 'admin'] as const) {
    const { email, password } = STAFF_ACCOUNTS[role];
    const staff = await enrolThroughApi(baseUrl, email, password);
    recordSecret('totpSecret', staff.secret, `global setup: ${role} enrolment`);
    for (const code of staff.recoveryCodes) recordSecret('recoveryCode', code, `global setup: ${role} enrolment`);
    recordSecret('sessionCookie', decodeURIComponent(staff.cookie.split('=')[1]!).split('.')[0]!, 'global setup');
    enrolled[role] = staff;
  }
  return enrolled;
}

/**
 * The server of e2e/staff-security.spec.ts and e2e/policy-lab.spec.ts: its own database, a short
 * step-up time (the specs wait past it, or give the factor again), single sign-on with a real
 * OpenID provider started here, and an address with a domain (localhost: passkeys need one; the
 * browser goes there, the health check and the staff enrolment to 127.0.0.1). The policy lab
 * changes which credit policy decides: on a server of its own, no other spec's applicant is judged
 * by a version it publishes.
 */
async function startStaffServer() {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const provider = await startSsoProvider(`${baseUrl}/api/backoffice/sso/callback`);
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-e2e-staff-'));
  createStaffAccounts(dataDir, { admin: SECURITY_ADMIN });
  // The policy lab's analyst (the author) and admin (the publisher).
  createStaffAccounts(dataDir);
  const server = await startServer(
    'staff',
    dataDir,
    {
      PUBLIC_BASE_URL: baseUrl,
      STAFF_STEP_UP_SECONDS: '20',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: 'Empresa Demo',
    },
    port,
  ).catch(async (error: unknown) => {
    await provider.close();
    throw error;
  });
  process.env.E2E_SSO_CONTROL_URL = provider.controlUrl;
  process.env.E2E_SSO_ISSUER = provider.issuer;
  return {
    baseUrl,
    apiUrl: server.baseUrl,
    stop: async () => {
      await provider.close();
      await server.stop();
    },
  };
}

/**
 * Círculo de Crédito's stand-in as a newcomer runs it (`npm run bureau:circulo-fake`, keys in a
 * fresh folder), and the environment it prints for the product.
 */
async function startCirculoFake(): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'provee-e2e-circulo-'));
  const child = spawn(process.execPath, [tsxCli, circuloFakeTs], {
    env: { PATH: process.env.PATH, CIRCULO_FAKE_DIR: dir, CIRCULO_FAKE_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /^ENV (.*)$/m.exec(output);
      if (line) resolve(JSON.parse(line[1]!) as Record<string, string>);
    });
    child.once('exit', (code) => reject(new Error(`bureau:circulo-fake exited (${code}):\n${output}`)));
  });
  return {
    env,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits (up to a minute) until the server's /readyz answers 200: its database answers, its jobs run, nothing is shed. */
async function untilReady(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${baseUrl}/readyz still answers ${status} after a minute`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The built app for the Dominican market (twice: one per phone size) and the same app with
 * COUNTRY=mx, and the back office's security server. Nothing is imported: every server runs on
 * what a fresh start has (the shipped catalogue).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(serverJs)) throw new Error('The app is not built: run `npm run build` (npm test does it).');
  // Suite 7's files start empty at every run; the workers find the folder through the environment.
  process.env.HYGIENE_DIR = hygieneDir();
  rmSync(hygieneDir(), { recursive: true, force: true });
  mkdirSync(hygieneDir(), { recursive: true });
  for (const account of [...Object.values(STAFF_ACCOUNTS), SECURITY_ADMIN])
    recordSecret('staffPassword', account.password, 'staff:create');
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-e2e-'));
  // The 360×640 run gets its own database: the bureau's test identities are one application each.
  const smallDataDir = mkdtempSync(join(tmpdir(), 'provee-e2e-360-'));
  const circuloDataDir = mkdtempSync(join(tmpdir(), 'provee-e2e-mx-circulo-'));
  createStaffAccounts(dataDir);
  createStaffAccounts(smallDataDir);
  createStaffAccounts(circuloDataDir);
  const circulo = await startCirculoFake();
  const [dominican, dominicanSmall, mexican, mexicanCirculo, staff] = await Promise.all([
    startServer('do', dataDir),
    startServer('do-small', smallDataDir),
    // Mexico's catalogue is the shipped seed (apps/api/src/modules/catalog/seed/mx.ts).
    startServer('mx', mkdtempSync(join(tmpdir(), 'provee-e2e-mx-')), { COUNTRY: 'mx' }),
    // Mexico with Círculo de Crédito as the bureau (its stand-in, above).
    startServer('mx-circulo', circuloDataDir, circulo.env),
    startStaffServer(),
  ]);
  process.env.E2E_BASE_URL = dominican.baseUrl;
  process.env.E2E_SMALL_BASE_URL = dominicanSmall.baseUrl;
  process.env.E2E_MX_BASE_URL = mexican.baseUrl;
  process.env.E2E_MX_CIRCULO_BASE_URL = mexicanCirculo.baseUrl;
  process.env.E2E_STAFF_BASE_URL = staff.baseUrl;
  const [enrolled, enrolledSmall, enrolledCirculo, enrolledOnStaff] = await Promise.all([
    enrolStaff(dominican.baseUrl),
    enrolStaff(dominicanSmall.baseUrl),
    enrolStaff(mexicanCirculo.baseUrl),
    enrolStaff(staff.apiUrl),
  ]);
  process.env[ENROLLED_ENV] = JSON.stringify({
    do: enrolled,
    'do-small': enrolledSmall,
    'mx-circulo': enrolledCirculo,
    staff: enrolledOnStaff,
  } satisfies EnrolledByServer);
  // The tests start when every server says it can take work, as a balancer would wait for it: five
  // servers starting and enrolling staff at once on two cores left one shedding load (its event
  // loop over PRESSURE_MAX_EVENT_LOOP_DELAY_MS) when the first tests came (503 on /home).
  await Promise.all(
    [dominican.baseUrl, dominicanSmall.baseUrl, mexican.baseUrl, mexicanCirculo.baseUrl, staff.apiUrl].map(untilReady),
  );
  return async () => {
    // One after the other: each dump opens a PGlite of its own in this process.
    for (const server of [dominican, dominicanSmall, mexican, mexicanCirculo, staff]) await server.stop();
    await circulo.stop();
  };
}
