import { createHash, randomBytes } from 'node:crypto';
import { STAFF_PASSWORD_LINK_MINUTES } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { lockStaffById, updateStaffAccount } from './accounts.store.js';
import { clearCounters, dailyCounter, emailCounter } from './login-failures.js';
import {
  findLivePasswordLink,
  insertPasswordLink,
  markPasswordLinkUsed,
  retireUnusedPasswordLinks,
} from './password-links.store.js';
import { deleteStaffSessionsOf } from './sessions.store.js';
import { staffChain, STAFF_NOT_FOUND, weakPassword, type StaffDeps } from './staff.service.js';

/**
 * Passwords are never sent in a message: an admin issues a single-use link (a new account, or a
 * forgotten password) and hands it over; its owner sets the password on the page it opens. The token
 * is 32 random bytes, stored as its SHA-256; it travels in the URL's fragment, which browsers never
 * send to a server (so no log or Referer holds it).
 */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const LINK_INVALID = new AppError(
  400,
  'PASSWORD_LINK_INVALID',
  'password link invalid',
  'Este enlace ya se usó, venció o no es válido. Pide a un administrador uno nuevo.',
);

/** A new link for this account; earlier unused ones stop working. */
export async function issuePasswordLink(
  deps: { db: Executor; clock: () => Date },
  staffId: string,
  baseUrl: string,
  by: string,
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + STAFF_PASSWORD_LINK_MINUTES * 60_000);
  await deps.db.transaction(async (tx) => {
    const member = await lockStaffById(tx, staffId);
    if (!member) throw STAFF_NOT_FOUND;
    await retireUnusedPasswordLinks(tx, staffId, now);
    await insertPasswordLink(tx, { staffId, tokenHash: hashToken(token), issuedBy: by, expiresAt, createdAt: now });
    await appendAuditEvent(tx, {
      applicationId: staffChain(staffId),
      actor: by,
      type: 'staff.password_link_issued',
      payload: { expires_at: expiresAt.toISOString() },
      at: now,
    });
  });
  return { url: `${baseUrl}/backoffice/password#token=${token}`, expiresAt };
}

const liveLink = (db: Executor, token: string, now: Date) => findLivePasswordLink(db, hashToken(token), now);

/** Whose link this is (the page greets them by name), without using it. */
export async function passwordLinkOwner(db: Executor, token: string, now: Date) {
  const row = await liveLink(db, token, now);
  if (!row) throw LINK_INVALID;
  return { email: row.member.email, name: row.member.name };
}

/** The password rules (password-rules.ts), run where they cannot hold the event loop. */
export type PasswordProblem = (password: string, person: { email: string; name: string }) => Promise<string | null>;

/** Sets the password and uses the link up (a guarded UPDATE: two tabs cannot both use it); every session of the account ends. */
export async function setPasswordWithLink(
  deps: StaffDeps & { passwordProblem: PasswordProblem; loginKey: Buffer },
  token: string,
  password: string,
): Promise<void> {
  const now = deps.clock();
  const row = await liveLink(deps.db, token, now);
  if (!row) throw LINK_INVALID;
  const problem = await deps.passwordProblem(password, { email: row.member.email, name: row.member.name });
  if (problem) throw weakPassword(problem);
  const passwordHash = await deps.passwords.hash(password);
  await deps.db.transaction(async (tx) => {
    if (!(await markPasswordLinkUsed(tx, row.link.id, now))) throw LINK_INVALID;
    await updateStaffAccount(tx, row.member.id, { passwordHash, updatedAt: now }, { moveSessionEpoch: true });
    await deleteStaffSessionsOf(tx, row.member.id);
    // A new password is a fresh start for the e-mail's lock-out (its owner proved the link).
    await clearCounters(tx, [
      emailCounter(deps.loginKey, row.member.email),
      dailyCounter(deps.loginKey, row.member.email),
    ]);
    await appendAuditEvent(tx, {
      applicationId: staffChain(row.member.id),
      actor: staffChain(row.member.id),
      type: 'staff.password_set',
      payload: { link_issued_by: row.link.issuedBy },
      at: now,
    });
  });
}
