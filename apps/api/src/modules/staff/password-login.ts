import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { findActiveStaffByEmail, type StaffRow } from './accounts.store.js';
import {
  clearCounters,
  countAttempt,
  dailyCounter,
  emailCounter,
  forgiveAttempt,
  ipCounter,
  LOCKED,
  recordFailure,
} from './login-failures.js';
import { normaliseEmail, secondFactors, staffChain, type StaffDeps } from './staff.service.js';

export const INVALID_LOGIN = new AppError(
  401,
  'INVALID_LOGIN',
  'invalid login',
  'El correo o la contraseña no son correctos.',
);

const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

// Verified against when there is no hash to check, so every answer takes the same time.
let dummyHash: Promise<string> | undefined;

/**
 * Checks an e-mail and password; the person is then asked for their second factor (session.ts).
 *
 * Five failures under one e-mail lock it for the lock time, whether an account has it or not, so a
 * real and an unknown e-mail answer alike; twenty from one address (an IPv6 /64) lock that address,
 * and a success does not clear it. A locked e-mail still lets its owner in when the account has a
 * second factor: the password is checked (each guess counted on the client address) and a right
 * one leads to the second factor, which an attacker who locked the e-mail does not have. Past 100
 * failures in a day (many addresses) the e-mail is refused to everyone until its owner completes a
 * login or sets a new password through a link. Every failure does the same database work (both
 * counters, one audit event: on the account's chain, or on the e-mail's own for an unknown one), so
 * neither the answer nor its time tells a real e-mail from an unknown one.
 */
export async function passwordLogin(
  deps: StaffDeps & { loginKey: Buffer },
  email: string,
  password: string,
  from: { ip: string; userAgent?: string },
): Promise<StaffRow> {
  const now = deps.clock();
  const address = normaliseEmail(email);
  const byEmail = emailCounter(deps.loginKey, address);
  const byDay = dailyCounter(deps.loginKey, address);
  const byIp = ipCounter(from.ip);
  const emailOpen = await countAttempt(deps.db, byEmail, now);
  const dayOpen = await countAttempt(deps.db, byDay, now);
  const ipOpen = await countAttempt(deps.db, byIp, now);
  const account = await findActiveStaffByEmail(deps.db, address);
  // Asked for an unknown e-mail too (of an id nobody has), so both take the same time.
  const hasFactor = (await secondFactors(deps.db, account?.id ?? NO_ACCOUNT)).length > 0;
  // Past the client's own limit or the day's, nothing is checked; past the e-mail's, only for an owner with a second factor.
  const checks = ipOpen && dayOpen && (emailOpen || hasFactor);
  dummyHash ??= deps.passwords.hash('provee-no-such-account');
  const stored = checks && account?.passwordHash ? account.passwordHash : await dummyHash;
  const valid = (await deps.passwords.verify(password, stored)) && checks && !!account?.passwordHash;

  const audit = (type: string, payload: Record<string, unknown> = {}) =>
    appendAuditEvent(deps.db, {
      // An unknown e-mail's attempts have a chain of their own, by the e-mail's keyed hash.
      applicationId: account ? staffChain(account.id) : `staff-login:${byEmail.key}`,
      actor: account ? staffChain(account.id) : 'unknown',
      type,
      payload: { ip: from.ip, user_agent: from.userAgent?.slice(0, 300) ?? null, ...payload },
      at: now,
    });
  if (valid) {
    // The address keeps its other failures; the e-mail's counts start again once the second factor
    // is given (or now, when none applies).
    await forgiveAttempt(deps.db, byIp);
    if (emailOpen && !hasFactor) await clearCounters(deps.db, [byEmail, byDay]);
    await audit('staff.password_accepted', { email_locked: !emailOpen });
    return account!;
  }
  const [emailLocked] = await Promise.all([
    recordFailure(deps.db, byEmail, now),
    recordFailure(deps.db, byDay, now),
    recordFailure(deps.db, byIp, now),
  ]);
  const refused = !emailOpen || !dayOpen || !ipOpen;
  await audit(refused ? 'staff.login_refused_locked' : emailLocked ? 'staff.locked' : 'staff.login_failed');
  // A locked e-mail answers the same to a wrong password whatever the account: only the right one differs.
  throw refused ? LOCKED : INVALID_LOGIN;
}
