import { createHmac } from 'node:crypto';
import { STAFF_LOCK_MINUTES, STAFF_MAX_FAILED_LOGINS, STAFF_MAX_FAILED_LOGINS_PER_IP } from '@provee/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { staffLoginFailures } from '../../db/schema.js';
import { AppError } from '../../errors.js';

/**
 * Lock-out counted in the database, so every replica shares it: per e-mail (a keyed hash, known
 * account or not, so an unknown e-mail answers exactly like a real one), per client address, and per
 * account for second-factor codes. Each attempt is counted BEFORE its secret is looked at, so however
 * many arrive at once, at most `max` secrets are checked per window.
 */
export interface Counter {
  key: string;
  max: number;
}

const LOCK_MS = STAFF_LOCK_MINUTES * 60_000;

export const emailCounter = (hashKey: Buffer, email: string): Counter => ({
  key: `email:${createHmac('sha256', hashKey).update(email).digest('hex')}`,
  max: STAFF_MAX_FAILED_LOGINS,
});
export const ipCounter = (ip: string): Counter => ({ key: `ip:${ip}`, max: STAFF_MAX_FAILED_LOGINS_PER_IP });
export const factorCounter = (staffId: string): Counter => ({ key: `factor:${staffId}`, max: STAFF_MAX_FAILED_LOGINS });

export const LOCKED = new AppError(
  429,
  'LOGIN_LOCKED',
  'too many failed attempts',
  `Demasiados intentos fallidos. Espera ${STAFF_LOCK_MINUTES} minutos e intenta de nuevo, o pide ayuda a un administrador.`,
  { retry_after_seconds: STAFF_LOCK_MINUTES * 60 },
);

/**
 * Counts one attempt on the counter and says whether it may go on: false once `max` attempts were
 * made in the window (or the key is locked). A window ends LOCK_MS after its first attempt, or when
 * its lock ends.
 */
export async function countAttempt(db: Executor, counter: Counter, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - LOCK_MS).toISOString();
  const table = staffLoginFailures;
  const expired = sql`(${table.lockedUntil} is not null and ${table.lockedUntil} <= ${at}::timestamptz)
    or (${table.lockedUntil} is null and ${table.windowStartedAt} <= ${since}::timestamptz)`;
  const [row] = await db
    .insert(table)
    .values({ key: counter.key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: table.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${table.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${at}::timestamptz else ${table.windowStartedAt} end`,
        lockedUntil: sql`case when ${expired} then null else ${table.lockedUntil} end`,
      },
    })
    .returning({ failures: table.failures, lockedUntil: table.lockedUntil });
  return !row!.lockedUntil && row!.failures <= counter.max;
}

/** A failed attempt: the one that used up the window's attempts locks the key for the lock time. */
export async function recordFailure(db: Executor, counter: Counter, now: Date): Promise<boolean> {
  const lockUntil = new Date(now.getTime() + LOCK_MS).toISOString();
  const table = staffLoginFailures;
  const [row] = await db
    .update(table)
    .set({
      lockedUntil: sql`case when ${table.lockedUntil} is null and ${table.failures} >= ${counter.max}
        then ${lockUntil}::timestamptz else ${table.lockedUntil} end`,
    })
    .where(eq(table.key, counter.key))
    .returning({ lockedUntil: table.lockedUntil });
  return !!row?.lockedUntil;
}

/** A right secret: the counters start again. */
export async function clearCounters(db: Executor, counters: Counter[]): Promise<void> {
  await db.delete(staffLoginFailures).where(
    inArray(
      staffLoginFailures.key,
      counters.map((counter) => counter.key),
    ),
  );
}

/** Until when each key is locked (the staff list shows it per account). */
export async function lockedUntil(db: Executor, keys: string[], now: Date): Promise<Map<string, Date>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: staffLoginFailures.key, lockedUntil: staffLoginFailures.lockedUntil })
    .from(staffLoginFailures)
    .where(inArray(staffLoginFailures.key, keys));
  return new Map(
    rows.filter((row) => row.lockedUntil && row.lockedUntil > now).map((row) => [row.key, row.lockedUntil!]),
  );
}

/** Counters whose window and lock are over hold nothing: removed (a background job), so the table does not only grow. */
export async function forgetSpentCounters(db: Executor, now: Date): Promise<number> {
  const before = new Date(now.getTime() - LOCK_MS).toISOString();
  const spent = await db
    .delete(staffLoginFailures)
    .where(
      sql`${staffLoginFailures.windowStartedAt} <= ${before}::timestamptz
        and (${staffLoginFailures.lockedUntil} is null or ${staffLoginFailures.lockedUntil} <= ${now.toISOString()}::timestamptz)`,
    )
    .returning({ key: staffLoginFailures.key });
  return spent.length;
}
