import { and, eq } from 'drizzle-orm';
import { staff } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { clearCounters, countAttempt, emailCounter, ipCounter, LOCKED, recordFailure } from './login-failures.js';
import { normaliseEmail, secondFactors, staffChain, type StaffDeps, type StaffRow } from './staff.service.js';

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
 * real and an unknown e-mail answer alike; twenty from one address lock that address. A locked
 * e-mail still lets its owner in when the account has a second factor: the password is checked
 * (each guess counted on the client's address) and a right one leads to the second factor, which
 * an attacker who locked the e-mail does not have. The e-mail's count starts again once the second
 * factor is given.
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
  const byIp = ipCounter(from.ip);
  const [emailOpen, ipOpen] = [await countAttempt(deps.db, byEmail, now), await countAttempt(deps.db, byIp, now)];
  const [account] = await deps.db
    .select()
    .from(staff)
    .where(and(eq(staff.email, address), eq(staff.active, true)))
    .limit(1);
  // Asked for an unknown e-mail too (of an id nobody has), so both take the same time.
  const hasFactor = (await secondFactors(deps.db, account?.id ?? NO_ACCOUNT)).length > 0;
  // Past the client's own limit nothing is checked; past the e-mail's, only for an owner with a second factor.
  const checks = ipOpen && (emailOpen || hasFactor);
  dummyHash ??= deps.passwords.hash('provee-no-such-account');
  const stored = checks && account?.passwordHash ? account.passwordHash : await dummyHash;
  const valid = (await deps.passwords.verify(password, stored)) && checks && !!account?.passwordHash;

  const audit = (type: string, payload: Record<string, unknown> = {}) =>
    account &&
    appendAuditEvent(deps.db, {
      applicationId: staffChain(account.id),
      actor: staffChain(account.id),
      type,
      payload: { ip: from.ip, user_agent: from.userAgent ?? null, ...payload },
      at: now,
    });
  if (valid) {
    // The client's count starts again; the e-mail's once the second factor is given (or now, when none applies).
    await clearCounters(deps.db, emailOpen && !hasFactor ? [byIp, byEmail] : [byIp]);
    await audit('staff.password_accepted', { email_locked: !emailOpen });
    return account!;
  }
  if (!emailOpen || !ipOpen) {
    // A locked e-mail answers the same to a wrong password whatever the account: only the right one differs.
    if (checks) await recordFailure(deps.db, byIp, now);
    await audit('staff.login_refused_locked');
    throw LOCKED;
  }
  const [emailLocked] = await Promise.all([recordFailure(deps.db, byEmail, now), recordFailure(deps.db, byIp, now)]);
  await audit(emailLocked ? 'staff.locked' : 'staff.login_failed');
  throw INVALID_LOGIN;
}
