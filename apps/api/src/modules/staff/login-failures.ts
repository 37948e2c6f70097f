import { createHash, createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import {
  STAFF_LOCK_MINUTES,
  STAFF_MAX_FAILED_LOGINS,
  STAFF_MAX_FAILED_LOGINS_PER_DAY,
  STAFF_MAX_FAILED_LOGINS_PER_IP,
} from '@provee/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { staffLoginFailures } from '../../db/schema.js';
import { AppError } from '../../errors.js';

/**
 * Lock-out counted in the database, so every replica shares it: per e-mail (a keyed hash, known
 * account or not, so an unknown e-mail answers exactly like a real one), per client address, per
 * e-mail and day (NIST SP 800-63B §5.2.2: at most 100 consecutive failures on one account, however
 * many addresses they come from), and per account (or, for step-up, per session) for second-factor
 * codes. Each attempt is counted BEFORE its secret is looked at, so however many arrive at once, at
 * most `max` secrets are checked per window.
 */
export interface Counter {
  key: string;
  max: number;
  /** How long a window lasts from its first attempt, and a lock from the attempt that set it. */
  windowMs: number;
}

const LOCK_MS = STAFF_LOCK_MINUTES * 60_000;
const DAY_MS = 24 * 3_600_000; // the daily counter's window (forgetSpentCounters knows it by its key)

const emailHash = (hashKey: Buffer, email: string) => createHmac('sha256', hashKey).update(email).digest('hex');

export const emailCounter = (hashKey: Buffer, email: string): Counter => ({
  key: `email:${emailHash(hashKey, email)}`,
  max: STAFF_MAX_FAILED_LOGINS,
  windowMs: LOCK_MS,
});
/** The ceiling that holds even for an owner with a second factor (only the right password and a factor clear it). */
export const dailyCounter = (hashKey: Buffer, email: string): Counter => ({
  key: `day:${emailHash(hashKey, email)}`,
  max: STAFF_MAX_FAILED_LOGINS_PER_DAY,
  windowMs: DAY_MS,
});
/** An IPv6 client is counted by its /64 (one subscriber's network), an IPv4 one by its address. */
export const ipCounter = (ip: string): Counter => ({
  key: `ip:${isIPv6(ip) && !ip.startsWith('::ffff:') ? ipv6Network(ip) : ip}`,
  max: STAFF_MAX_FAILED_LOGINS_PER_IP,
  windowMs: LOCK_MS,
});
export const factorCounter = (staffId: string, sessionId?: string): Counter => ({
  key: sessionId
    ? `factor:${staffId}:${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}`
    : `factor:${staffId}`,
  max: STAFF_MAX_FAILED_LOGINS,
  windowMs: LOCK_MS,
});

/** The first four groups of an IPv6 address, written out: 2001:db8:1:2::7 → 2001:db8:1:2::/64. */
function ipv6Network(ip: string): string {
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}

export const LOCKED = new AppError(
  429,
  'LOGIN_LOCKED',
  'too many failed attempts',
  `Demasiados intentos fallidos. Espera ${STAFF_LOCK_MINUTES} minutos e intenta de nuevo, o pide ayuda a un administrador.`,
  { retry_after_seconds: STAFF_LOCK_MINUTES * 60 },
);

/**
 * Counts one attempt on the counter and says whether it may go on: false once `max` attempts were
 * made in the window (or the key is locked). A window ends `windowMs` after its first attempt, or
 * when its lock ends.
 */
export async function countAttempt(db: Executor, counter: Counter, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - counter.windowMs).toISOString();
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
  const lockUntil = new Date(now.getTime() + counter.windowMs).toISOString();
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

/**
 * A right secret on a counter that others share (a client address: one office, many accounts):
 * the attempt counted for it is taken back, and the others' failures stay.
 */
export async function forgiveAttempt(db: Executor, counter: Counter): Promise<void> {
  await db
    .update(staffLoginFailures)
    .set({ failures: sql`greatest(${staffLoginFailures.failures} - 1, 0)` })
    .where(eq(staffLoginFailures.key, counter.key));
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
  const at = now.toISOString();
  const table = staffLoginFailures;
  // A day for the daily counters, the lock time for the others.
  const windowOver = sql`${table.windowStartedAt} <= ${at}::timestamptz - case when ${table.key} like 'day:%'
    then interval '1 day' else make_interval(mins => ${STAFF_LOCK_MINUTES}) end`;
  const spent = await db
    .delete(table)
    .where(sql`${windowOver} and (${table.lockedUntil} is null or ${table.lockedUntil} <= ${at}::timestamptz)`)
    .returning({ key: table.key });
  return spent.length;
}
