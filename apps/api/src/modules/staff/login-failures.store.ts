import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { staffLoginFailures } from '../../db/schema.js';

/**
 * Failed-attempt counters (the `staff_login_failures` table), one row per key. Each function is one
 * statement, so attempts arriving at once are counted one after another by the database.
 */
const table = staffLoginFailures;

/**
 * Counts one attempt on the key: the window starts again (count 1, no lock) when its lock is over,
 * or, unlocked, when it began `windowMs` ago or earlier. Answers the count and lock after it.
 */
export async function countLoginAttempt(
  db: Executor,
  key: string,
  windowMs: number,
  now: Date,
): Promise<{ failures: number; lockedUntil: Date | null }> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - windowMs).toISOString();
  const expired = sql`(${table.lockedUntil} is not null and ${table.lockedUntil} <= ${at}::timestamptz)
    or (${table.lockedUntil} is null and ${table.windowStartedAt} <= ${since}::timestamptz)`;
  const [row] = await db
    .insert(table)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: table.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${table.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${at}::timestamptz else ${table.windowStartedAt} end`,
        lockedUntil: sql`case when ${expired} then null else ${table.lockedUntil} end`,
      },
    })
    .returning({ failures: table.failures, lockedUntil: table.lockedUntil });
  return row!;
}

/** Locks the key until `until` when it is not locked yet and its count reached `max`; answers whether it is locked. */
export async function lockKeyAtMax(db: Executor, key: string, max: number, until: Date): Promise<boolean> {
  const lockUntil = until.toISOString();
  const [row] = await db
    .update(table)
    .set({
      lockedUntil: sql`case when ${table.lockedUntil} is null and ${table.failures} >= ${max}
        then ${lockUntil}::timestamptz else ${table.lockedUntil} end`,
    })
    .where(eq(table.key, key))
    .returning({ lockedUntil: table.lockedUntil });
  return !!row?.lockedUntil;
}

/** Takes one attempt back from the key's count (never below zero). */
export async function uncountLoginAttempt(db: Executor, key: string): Promise<void> {
  await db
    .update(table)
    .set({ failures: sql`greatest(${table.failures} - 1, 0)` })
    .where(eq(table.key, key));
}

export async function deleteLoginCounters(db: Executor, keys: string[]): Promise<void> {
  await db.delete(table).where(inArray(table.key, keys));
}

/** The lock time of each of these keys that has a counter (null when unlocked). */
export function findLoginLocks(db: Executor, keys: string[]): Promise<{ key: string; lockedUntil: Date | null }[]> {
  return db.select({ key: table.key, lockedUntil: table.lockedUntil }).from(table).where(inArray(table.key, keys));
}

/**
 * Removes the counters whose lock (if any) is over by `now` and whose window began at or before its
 * start: `longWindowSince` for keys starting with `longWindowPrefix`, `windowSince` for the others.
 * Answers how many went.
 */
export async function deleteSpentLoginCounters(
  db: Executor,
  now: Date,
  windows: { windowSince: Date; longWindowPrefix: string; longWindowSince: Date },
): Promise<number> {
  const at = now.toISOString();
  const windowOver = sql`${table.windowStartedAt} <= case when ${table.key} like ${`${windows.longWindowPrefix}%`}
    then ${windows.longWindowSince.toISOString()}::timestamptz else ${windows.windowSince.toISOString()}::timestamptz end`;
  const spent = await db
    .delete(table)
    .where(sql`${windowOver} and (${table.lockedUntil} is null or ${table.lockedUntil} <= ${at}::timestamptz)`)
    .returning({ key: table.key });
  return spent.length;
}
