import { and, eq, gt, max, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { phoneProofStarts } from '../../db/schema.js';

/** Every start of a phone proof (an SMS code or a reverse OTP), by phone and IP. */

/**
 * Serialises phone-proof starts for one phone (and, for SMS sends, one IP) across every server
 * process (transaction-scoped advisory locks, always taken in this order). A reverse-OTP start
 * passes no IP: it has no per-IP budget, so a shared IP's users need not queue behind each other.
 */
export async function lockProofStart(tx: Tx, ip: string | null, phoneE164: string): Promise<void> {
  if (ip !== null) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`proof-ip:${ip}`}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`proof-phone:${phoneE164}`}))`);
}

const smsFromIp = (ip: string, since: Date) =>
  and(eq(phoneProofStarts.ip, ip), eq(phoneProofStarts.kind, 'sms'), gt(phoneProofStarts.createdAt, since));

/**
 * Since `since`, whether this number already got an SMS from this IP and how many distinct
 * numbers did. Counted in the database, not fetched: one carrier IP may carry thousands of
 * numbers an hour, and every start from it waits behind this check (the IP's lock).
 */
export async function smsNumbersFromIp(
  tx: Tx,
  ip: string,
  phoneE164: string,
  since: Date,
): Promise<{ counted: boolean; numbers: number }> {
  const fromIp = smsFromIp(ip, since);
  const [budget] = await tx
    .select({
      counted: sql<boolean>`exists (select 1 from ${phoneProofStarts} where ${fromIp} and ${phoneProofStarts.phoneE164} = ${phoneE164})`,
      numbers: sql<number>`(select count(distinct ${phoneProofStarts.phoneE164})::int from ${phoneProofStarts} where ${fromIp})`,
    })
    .from(sql`(select 1) as one`);
  return budget ?? { counted: false, numbers: 0 };
}

/** When each number last got an SMS from this IP since `since`. */
export async function lastSmsPerNumberFromIp(tx: Tx, ip: string, since: Date): Promise<Date[]> {
  const rows = await tx
    .select({ last: max(phoneProofStarts.createdAt) })
    .from(phoneProofStarts)
    .where(smsFromIp(ip, since))
    .groupBy(phoneProofStarts.phoneE164);
  return rows.flatMap((row) => (row.last ? [new Date(row.last)] : []));
}

export async function recordProofStart(tx: Tx, kind: 'sms' | 'reverse-otp', phoneE164: string, ip: string, now: Date) {
  await tx.insert(phoneProofStarts).values({ kind, phoneE164, ip, createdAt: now });
}

/** The SMS start of a code withdrawn (never sent): recorded with the code, at the same time. */
export async function forgetSmsStart(tx: Executor, phoneE164: string, at: Date): Promise<void> {
  await tx
    .delete(phoneProofStarts)
    .where(
      and(
        eq(phoneProofStarts.kind, 'sms'),
        eq(phoneProofStarts.phoneE164, phoneE164),
        eq(phoneProofStarts.createdAt, at),
      ),
    );
}
