import { createHash, createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import {
  STAFF_LOCK_MINUTES,
  STAFF_MAX_FAILED_LOGINS,
  STAFF_MAX_FAILED_LOGINS_PER_DAY,
  STAFF_MAX_FAILED_LOGINS_PER_IP,
} from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import {
  countLoginAttempt,
  deleteLoginCounters,
  deleteSpentLoginCounters,
  findLoginLocks,
  lockKeyAtMax,
  uncountLoginAttempt,
} from './login-failures.store.js';

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
const DAILY_PREFIX = 'day:';

const emailHash = (hashKey: Buffer, email: string) => createHmac('sha256', hashKey).update(email).digest('hex');

export const emailCounter = (hashKey: Buffer, email: string): Counter => ({
  key: `email:${emailHash(hashKey, email)}`,
  max: STAFF_MAX_FAILED_LOGINS,
  windowMs: LOCK_MS,
});
/** The ceiling that holds even for an owner with a second factor (only the right password and a factor clear it). */
export const dailyCounter = (hashKey: Buffer, email: string): Counter => ({
  key: `${DAILY_PREFIX}${emailHash(hashKey, email)}`,
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
  const row = await countLoginAttempt(db, counter.key, counter.windowMs, now);
  return !row.lockedUntil && row.failures <= counter.max;
}

/** A failed attempt: the one that used up the window's attempts locks the key for the lock time. */
export async function recordFailure(db: Executor, counter: Counter, now: Date): Promise<boolean> {
  return lockKeyAtMax(db, counter.key, counter.max, new Date(now.getTime() + counter.windowMs));
}

/**
 * A right secret on a counter that others share (a client address: one office, many accounts):
 * the attempt counted for it is taken back, and the others' failures stay.
 */
export async function forgiveAttempt(db: Executor, counter: Counter): Promise<void> {
  await uncountLoginAttempt(db, counter.key);
}

/** A right secret: the counters start again. */
export async function clearCounters(db: Executor, counters: Counter[]): Promise<void> {
  await deleteLoginCounters(
    db,
    counters.map((counter) => counter.key),
  );
}

/** Until when each key is locked (the staff list shows it per account). */
export async function lockedUntil(db: Executor, keys: string[], now: Date): Promise<Map<string, Date>> {
  if (keys.length === 0) return new Map();
  const rows = await findLoginLocks(db, keys);
  return new Map(
    rows.filter((row) => row.lockedUntil && row.lockedUntil > now).map((row) => [row.key, row.lockedUntil!]),
  );
}

/** Counters whose window and lock are over hold nothing: removed (a background job), so the table does not only grow. */
export async function forgetSpentCounters(db: Executor, now: Date): Promise<number> {
  // A day for the daily counters, the lock time for the others.
  return deleteSpentLoginCounters(db, now, {
    windowSince: new Date(now.getTime() - LOCK_MS),
    longWindowPrefix: DAILY_PREFIX,
    longWindowSince: new Date(now.getTime() - DAY_MS),
  });
}
