import {
  STAFF_LOCK_MINUTES,
  STAFF_MAX_FAILED_LOGINS,
  STAFF_PASSWORD_MIN_LENGTH,
  STAFF_ROLES,
  STAFF_SESSION_ABSOLUTE_HOURS,
  STAFF_SESSION_IDLE_MINUTES,
  type StaffRole,
} from '@provee/domain';
import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { staff, staffSessions } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import type { PasswordHasher } from '../credit/index.js';

export type StaffRow = typeof staff.$inferSelect;

interface StaffDeps {
  db: Executor;
  clock: () => Date;
  passwords: PasswordHasher;
}

/** The audit chain of a staff account: logins, lock-outs, changes to the account. */
export const staffChain = (staffId: string) => `staff:${staffId}`;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function staffPasswordProblem(password: string): string | null {
  if (password.length < STAFF_PASSWORD_MIN_LENGTH)
    return `La contraseña debe tener al menos ${STAFF_PASSWORD_MIN_LENGTH} caracteres.`;
  if (password.length > 200) return 'La contraseña es demasiado larga.';
  return null;
}

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}

const EMAIL_TAKEN = new AppError(409, 'STAFF_EMAIL_TAKEN', 'email taken', 'Ya existe una cuenta con ese correo.');

/** A new account (the CLI or an admin). `by` is who created it ('cli' or 'staff:<id>'). */
export async function createStaff(
  deps: StaffDeps,
  input: { email: string; name: string; role: StaffRole; password: string },
  by: string,
): Promise<StaffRow> {
  const problem = staffPasswordProblem(input.password);
  if (problem) throw new AppError(400, 'VALIDATION_ERROR', 'weak password', problem);
  const passwordHash = await deps.passwords.hash(input.password);
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staff)
      .values({
        email: normaliseEmail(input.email),
        name: input.name.trim(),
        role: input.role,
        passwordHash,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: staff.email })
      .returning();
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

export async function listStaff(db: Executor): Promise<StaffRow[]> {
  return db.select().from(staff).orderBy(asc(staff.email));
}

/** An admin changes a role or (de)activates an account; deactivation ends its sessions at once. */
export async function updateStaff(
  deps: StaffDeps,
  id: string,
  change: { role?: StaffRole; active?: boolean },
  by: string,
): Promise<StaffRow> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(staff).where(eq(staff.id, id)).for('update');
    if (!before) throw new AppError(404, 'NOT_FOUND', 'staff not found', 'No encontramos esa cuenta.');
    const [row] = await tx
      .update(staff)
      .set({ ...change, updatedAt: now })
      .where(eq(staff.id, id))
      .returning();
    if (change.active === false || (change.role && change.role !== before.role)) {
      await tx.delete(staffSessions).where(eq(staffSessions.staffId, id));
    }
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

export const INVALID_LOGIN = new AppError(
  401,
  'INVALID_LOGIN',
  'invalid login',
  'El correo o la contraseña no son correctos.',
);
const lockedError = (until: Date) =>
  new AppError(
    423,
    'ACCOUNT_LOCKED',
    'account locked',
    `Tu cuenta está bloqueada por demasiados intentos. Intenta de nuevo después de las ${until.toISOString().slice(11, 16)} (UTC).`,
    { locked_until: until.toISOString() },
  );

// Verified against when the email is unknown, so an unknown and a known email take the same time.
let dummyHash: Promise<string> | undefined;

/**
 * Checks an email and password. Each attempt is counted BEFORE its password is looked at (one
 * guarded UPDATE), so however many guesses arrive at once, at most STAFF_MAX_FAILED_LOGINS passwords
 * are checked per lock window; the attempt that finds the count used up, or the account locked, gets
 * 423 without its password being read. A right password resets the count; a wrong one that uses up
 * the last attempt locks the account for STAFF_LOCK_MINUTES.
 */
export async function authenticate(
  deps: StaffDeps,
  email: string,
  password: string,
  from: { ip: string; userAgent?: string },
): Promise<StaffRow> {
  const now = deps.clock();
  const at = now.toISOString();
  const lockExpired = sql`${staff.lockedUntil} is not null and ${staff.lockedUntil} <= ${at}`;
  const [account] = await deps.db
    .update(staff)
    .set({
      failedLogins: sql`case when ${lockExpired} then 1 else ${staff.failedLogins} + 1 end`,
      lockedUntil: sql`case when ${lockExpired} then null else ${staff.lockedUntil} end`,
    })
    .where(
      and(
        eq(staff.email, normaliseEmail(email)),
        sql`(${staff.lockedUntil} is null and ${staff.failedLogins} < ${STAFF_MAX_FAILED_LOGINS} or ${lockExpired})`,
      ),
    )
    .returning();
  if (!account) {
    const [known] = await deps.db
      .select({ lockedUntil: staff.lockedUntil })
      .from(staff)
      .where(eq(staff.email, normaliseEmail(email)))
      .limit(1);
    if (known) throw lockedError(known.lockedUntil ?? new Date(now.getTime() + STAFF_LOCK_MINUTES * 60_000));
    dummyHash ??= deps.passwords.hash('provee-no-such-account');
    await deps.passwords.verify(password, await dummyHash);
    throw INVALID_LOGIN;
  }
  const valid = (await deps.passwords.verify(password, account.passwordHash)) && account.active;
  const event = (tx: Executor, type: string, payload: Record<string, unknown>) =>
    appendAuditEvent(tx, {
      applicationId: staffChain(account.id),
      actor: staffChain(account.id),
      type,
      payload: { ip: from.ip, user_agent: from.userAgent ?? null, ...payload },
      at: now,
    });
  if (valid) {
    const row = await deps.db.transaction(async (tx) => {
      // Refused if parallel failures locked the account (or it was deactivated) meanwhile.
      const [signedIn] = await tx
        .update(staff)
        .set({ failedLogins: 0, lockedUntil: null, lastLoginAt: now })
        .where(and(eq(staff.id, account.id), eq(staff.active, true), isNull(staff.lockedUntil)))
        .returning();
      if (signedIn) {
        await event(tx, 'staff.login', {});
        // This person's sessions that lapsed (idle or too old) go, so the table does not only grow.
        await tx
          .delete(staffSessions)
          .where(
            and(
              eq(staffSessions.staffId, account.id),
              or(
                lte(staffSessions.lastSeenAt, new Date(now.getTime() - STAFF_SESSION_IDLE_MINUTES * 60_000)),
                lte(staffSessions.createdAt, new Date(now.getTime() - STAFF_SESSION_ABSOLUTE_HOURS * 3_600_000)),
              ),
            ),
          );
      }
      return signedIn;
    });
    if (row) return row;
    const [current] = await deps.db.select().from(staff).where(eq(staff.id, account.id));
    if (current?.lockedUntil) throw lockedError(current.lockedUntil);
    throw INVALID_LOGIN;
  }
  const lockUntil = new Date(now.getTime() + STAFF_LOCK_MINUTES * 60_000);
  const locked = await deps.db.transaction(async (tx) => {
    // The attempt was counted already; the one that used up the last attempt locks the account.
    const [row] = await tx
      .update(staff)
      .set({
        lockedUntil: sql`case when ${staff.lockedUntil} is null and ${staff.failedLogins} >= ${STAFF_MAX_FAILED_LOGINS}
          then ${lockUntil.toISOString()}::timestamptz else ${staff.lockedUntil} end`,
      })
      .where(eq(staff.id, account.id))
      .returning({ failedLogins: staff.failedLogins, lockedUntil: staff.lockedUntil });
    const lockedNow = row?.lockedUntil?.getTime() === lockUntil.getTime();
    await event(tx, lockedNow ? 'staff.locked' : 'staff.login_failed', { failed_logins: row?.failedLogins ?? null });
    return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
  });
  if (locked) throw lockedError(locked);
  throw INVALID_LOGIN;
}
