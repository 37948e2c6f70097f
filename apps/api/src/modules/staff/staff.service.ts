import {
  STAFF_ROLES,
  STAFF_ROLES_REQUIRING_SECOND_FACTOR,
  type StaffFactorMethod,
  type StaffRole,
  type StaffView,
} from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import type { PasswordHasher } from '../credit/index.js';
import {
  insertStaffAccount,
  listStaffByEmail,
  lockStaffById,
  updateStaffAccount,
  type StaffRow,
} from './accounts.store.js';
import { countSecondFactors, deletePasskeys, deleteRecoveryCodes, deleteTotp } from './factors.store.js';
import { emailCounter, lockedUntil } from './login-failures.js';
import { staffPasswordProblem } from './password-rules.js';
import { deleteStaffSessionsOf } from './sessions.store.js';

/** What the account services use. */
export interface StaffDeps {
  db: Executor;
  clock: () => Date;
  passwords: PasswordHasher;
}

/** The audit chain of a staff account: logins, lock-outs, factors, changes to the account. */
export const staffChain = (staffId: string) => `staff:${staffId}`;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}

const EMAIL_TAKEN = new AppError(409, 'STAFF_EMAIL_TAKEN', 'email taken', 'Ya existe una cuenta con ese correo.');
export const STAFF_NOT_FOUND = new AppError(404, 'NOT_FOUND', 'staff not found', 'No encontramos esa cuenta.');

export function weakPassword(problem: string): AppError {
  return new AppError(400, 'VALIDATION_ERROR', 'weak password', problem, {
    issues: [{ field: 'body.password', message: problem }],
  });
}

/**
 * A new account (the CLI, with a password; or an admin, without one: its owner sets it through a
 * password link). `by` is who created it ('cli' or 'staff:<id>').
 */
export async function createStaff(
  deps: StaffDeps,
  input: { email: string; name: string; role: StaffRole; password?: string },
  by: string,
): Promise<StaffRow> {
  const email = normaliseEmail(input.email);
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    const problem = staffPasswordProblem(input.password, { email, name: input.name });
    if (problem) throw weakPassword(problem);
    passwordHash = await deps.passwords.hash(input.password);
  }
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const row = await insertStaffAccount(tx, {
      email,
      name: input.name.trim(),
      role: input.role,
      passwordHash,
      createdAt: now,
      updatedAt: now,
    });
    if (!row) throw EMAIL_TAKEN;
    await appendAuditEvent(tx, {
      applicationId: staffChain(row.id),
      actor: by,
      type: 'staff.created',
      payload: { email: row.email, role: row.role },
      at: now,
    });
    return row;
  });
}

/** The second factors a person has enrolled (an unconfirmed app secret is none). */
export async function secondFactors(db: Executor, staffId: string): Promise<StaffFactorMethod[]> {
  const counts = await countSecondFactors(db, staffId);
  const methods: StaffFactorMethod[] = [];
  if (counts.confirmedTotp > 0) methods.push('totp');
  if (counts.passkeys > 0) methods.push('passkey');
  // Recovery codes stand in for a lost factor; with no factor left they open nothing.
  if (methods.length > 0 && counts.unusedRecoveryCodes > 0) methods.push('recovery_code');
  return methods;
}

/** Whether the next login must enrol a second factor first. */
export function mustEnrol(member: StaffRow, factors: StaffFactorMethod[]): boolean {
  const required =
    member.enrolRequired || (STAFF_ROLES_REQUIRING_SECOND_FACTOR as readonly string[]).includes(member.role);
  return required && !factors.some((method) => method === 'totp' || method === 'passkey');
}

export function staffView(row: StaffRow, factors: StaffFactorMethod[], locked: Date | null): StaffView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as StaffRole,
    active: row.active,
    locked_until: locked?.toISOString() ?? null,
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    second_factor: factors.some((method) => method === 'totp' || method === 'passkey'),
    must_enrol: mustEnrol(row, factors),
  };
}

/** One account as the back office shows it (its factors and whether its e-mail is locked now). */
export async function describeStaff(db: Executor, loginKey: Buffer, row: StaffRow, now: Date): Promise<StaffView> {
  return (await describeStaffAndFactors(db, loginKey, row, now)).view;
}

/** The account as the back office shows it, and the second factors that view was made from. */
export async function describeStaffAndFactors(
  db: Executor,
  loginKey: Buffer,
  row: StaffRow,
  now: Date,
): Promise<{ view: StaffView; factors: StaffFactorMethod[] }> {
  const counter = emailCounter(loginKey, row.email);
  const [factors, locks] = await Promise.all([secondFactors(db, row.id), lockedUntil(db, [counter.key], now)]);
  return { view: staffView(row, factors, locks.get(counter.key) ?? null), factors };
}

export async function listStaff(db: Executor, loginKey: Buffer, now: Date): Promise<StaffView[]> {
  const rows = await listStaffByEmail(db);
  return Promise.all(rows.map((row) => describeStaff(db, loginKey, row, now)));
}

/** An admin changes a role or (de)activates an account; deactivation or a new role ends its sessions at once. */
export async function updateStaff(
  deps: StaffDeps,
  id: string,
  change: { role?: StaffRole; active?: boolean },
  by: string,
): Promise<StaffRow> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const before = await lockStaffById(tx, id);
    if (!before) throw STAFF_NOT_FOUND;
    const endsSessions = change.active === false || (change.role !== undefined && change.role !== before.role);
    const row = await updateStaffAccount(tx, id, { ...change, updatedAt: now }, { moveSessionEpoch: endsSessions });
    if (endsSessions) await deleteStaffSessionsOf(tx, id);
    await appendAuditEvent(tx, {
      applicationId: staffChain(id),
      actor: by,
      type: 'staff.updated',
      payload: { before: { role: before.role, active: before.active }, after: change },
      at: now,
    });
    return row!;
  });
}

/**
 * An admin removes every second factor of an account (a lost phone): the app secret, the passkeys
 * and the recovery codes go, its sessions end, and its next login enrols a factor again.
 */
export async function resetFactors(deps: { db: Executor; clock: () => Date }, id: string, by: string) {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const row = await updateStaffAccount(tx, id, { enrolRequired: true, updatedAt: now }, { moveSessionEpoch: true });
    if (!row) throw STAFF_NOT_FOUND;
    const removed = {
      totp: await deleteTotp(tx, id),
      passkeys: await deletePasskeys(tx, id),
      recovery_codes: await deleteRecoveryCodes(tx, id),
    };
    await deleteStaffSessionsOf(tx, id);
    await appendAuditEvent(tx, {
      applicationId: staffChain(id),
      actor: by,
      type: 'staff.factors_reset',
      payload: { removed },
      at: now,
    });
    return row;
  });
}
