import { randomBytes } from 'node:crypto';
import type { StaffRole } from '@provee/domain';
import { asc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { auditEvents } from '../db/schema.js';
import { createStaff } from '../modules/staff/index.js';
import type { App } from '../types.js';
import { fakeFullName } from './fake.js';

export const STAFF_PASSWORD = 'una-clave-larga-de-prueba';

/** The words of a name as an address carries them: 'Ana Lucía De la Cruz' → ['ana', 'lucia', 'de', 'la', 'cruz']. */
const emailWords = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);

/**
 * A staff account (created as the CLI would, with a password): a made-up name, and an address of
 * the role, the name and a random part (never taken): analyst-ana.lucia.de.la.cruz.3f9a0c12@….
 */
export async function createStaffMember(app: App, role: StaffRole, overrides: { email?: string; name?: string } = {}) {
  const name = overrides.name ?? fakeFullName();
  const local = [...emailWords(name), randomBytes(4).toString('hex')].join('.');
  const email = overrides.email ?? `${role}-${local}@prestamista.test`;
  const row = await createStaff(app, { email, name, role, password: STAFF_PASSWORD }, 'cli');
  return row;
}

/**
 * The authenticator app of each account a test enrolled (staff id → base32 secret), and the last
 * 30-second step it gave a code for: a code is good once, so the next one comes from a later step.
 */
const authenticators = new Map<string, { secret: string; lastStep: number }>();
/** The unused recovery codes of each account a test enrolled (for more logins than 30-second steps). */
const recoveryCodes = new Map<string, string[]>();

/** Whether the app still has a code for this 30-second step or the next (each code works once). */
function authenticatorHasCode(app: App, staffId: string): boolean {
  const enrolled = authenticators.get(staffId);
  if (!enrolled) return false;
  return enrolled.lastStep < Math.floor(app.clock().getTime() / 30_000) + 1;
}

/** The code the person's authenticator app shows at the app's time (a step no code was used for yet). */
export function authenticatorCode(app: App, staffId: string): string {
  const enrolled = authenticators.get(staffId);
  if (!enrolled) throw new Error(`no authenticator enrolled by the tests for ${staffId}`);
  const totp = new TOTP({ secret: Secret.fromBase32(enrolled.secret), period: 30, digits: 6, algorithm: 'SHA1' });
  const now = app.clock().getTime();
  const step = Math.max(totp.counter({ timestamp: now }), enrolled.lastStep + 1);
  if (step > totp.counter({ timestamp: now }) + 1)
    throw new Error('two codes used in this 30 s step already: advance the clock');
  enrolled.lastStep = step;
  return totp.generate({ timestamp: step * 30_000 });
}

/** The second factor of a session at the 'factor' stage: the code the person's authenticator app shows. */
export function sendAuthenticatorCode(app: App, cookie: string, staffId: string) {
  return app.inject({
    method: 'POST',
    url: '/api/backoffice/session/factor',
    headers: { cookie },
    payload: { method: 'totp', code: authenticatorCode(app, staffId) },
  });
}

export const rememberAuthenticator = (staffId: string, secret: string, codes: string[] = []) => {
  authenticators.set(staffId, { secret, lastStep: -1 });
  recoveryCodes.set(staffId, [...codes]);
};

/** Cookie header of a response's staff session (with the earlier one when the answer set none). */
const cookieOf = (response: { cookies: { name: string; value: string }[] }, previous?: string) => {
  const cookie = response.cookies.find((c) => c.name === 'provee_staff');
  if (!cookie) {
    if (previous) return previous;
    throw new Error('no staff cookie');
  }
  return `provee_staff=${cookie.value}`;
};

/**
 * Logs in as a person would: the password, then the authenticator app's code, or, at the first
 * login of a role that needs one, the app's enrolment. Answers the Cookie header the next calls carry.
 */
export async function staffLogin(app: App, email: string, password = STAFF_PASSWORD): Promise<{ cookie: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/backoffice/session', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`staff login failed: ${response.statusCode} ${response.body}`);
  let cookie = cookieOf(response);
  const { stage, staff } = response.json().data as { stage: string; staff: { id: string } };
  if (stage === 'enrol') {
    const started = await app.inject({ method: 'POST', url: '/api/backoffice/me/totp', headers: { cookie } });
    if (started.statusCode !== 200) throw new Error(`enrolment failed: ${started.body}`);
    rememberAuthenticator(staff.id, started.json().data.secret);
    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/backoffice/me/totp/confirm',
      headers: { cookie },
      payload: { code: authenticatorCode(app, staff.id) },
    });
    if (confirmed.statusCode !== 200) throw new Error(`enrolment failed: ${confirmed.body}`);
    recoveryCodes.set(staff.id, confirmed.json().data.recovery_codes);
    cookie = cookieOf(confirmed, cookie);
  } else if (stage === 'factor') {
    // The app's code while it has one for this step; a recovery code once this step's are used.
    const byApp = authenticatorHasCode(app, staff.id) || !recoveryCodes.get(staff.id)?.length;
    const given = await app.inject({
      method: 'POST',
      url: '/api/backoffice/session/factor',
      headers: { cookie },
      payload: byApp
        ? { method: 'totp', code: authenticatorCode(app, staff.id) }
        : { method: 'recovery_code', code: recoveryCodes.get(staff.id)!.pop()! },
    });
    if (given.statusCode !== 200) throw new Error(`second factor failed: ${given.body}`);
    cookie = cookieOf(given, cookie);
    if (!byApp && recoveryCodes.get(staff.id)!.length < 2) {
      const fresh = await app.inject({ method: 'POST', url: '/api/backoffice/me/recovery-codes', headers: { cookie } });
      if (fresh.statusCode !== 200) throw new Error(`new recovery codes failed: ${fresh.body}`);
      recoveryCodes.set(staff.id, fresh.json().data.recovery_codes);
    }
  }
  return { cookie };
}

/** A staff member of this role, logged in: the headers of their calls. */
export async function staffSession(app: App, role: StaffRole) {
  const member = await createStaffMember(app, role);
  return { member, headers: await staffLogin(app, member.email) };
}

/** The types of a staff account's audit events, oldest first. */
export async function staffEventTypes(app: App, staffId: string): Promise<string[]> {
  const events = await app.db
    .select({ type: auditEvents.type })
    .from(auditEvents)
    .where(eq(auditEvents.applicationId, `staff:${staffId}`))
    .orderBy(asc(auditEvents.id));
  return events.map((event) => event.type);
}
