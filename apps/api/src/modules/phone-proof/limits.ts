import { and, eq, gt, max, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { phoneProofStarts } from '../../db/schema.js';
import { AppError } from '../../errors.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const HOUR_MS = 3_600_000;

export function tooMany(
  code: string,
  retryAfterSeconds: number,
  readable: string,
  extra: Record<string, unknown> = {},
): AppError {
  return new AppError(429, code, 'too many requests', readable, {
    retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)),
    ...extra,
  });
}

/**
 * Serialises phone-proof starts for one phone (and, for SMS sends, one IP) across every server
 * process (transaction-scoped advisory locks, always taken in this order). A reverse-OTP start
 * passes no IP: it has no per-IP budget, so a shared IP's users need not queue behind each other.
 */
export async function lockProofStart(tx: Tx, ip: string | null, phoneE164: string): Promise<void> {
  if (ip !== null) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`proof-ip:${ip}`}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`proof-phone:${phoneE164}`}))`);
}

/**
 * At most SMS_NUMBERS_PER_IP_PER_HOUR distinct numbers get an SMS from one IP in any hour
 * (docs/decisions/009): re-sending to a number already counted is left to the per-number caps.
 */
export async function assertSmsIpBudget(
  tx: Tx,
  config: Config,
  ip: string,
  phoneE164: string,
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - HOUR_MS);
  const fromIp = and(
    eq(phoneProofStarts.ip, ip),
    eq(phoneProofStarts.kind, 'sms'),
    gt(phoneProofStarts.createdAt, since),
  );
  // Counted in the database, not fetched: one carrier IP may carry thousands of numbers an hour,
  // and every start from it waits behind this check (the IP's lock).
  const [budget] = await tx
    .select({
      counted: sql<boolean>`exists (select 1 from ${phoneProofStarts} where ${fromIp} and ${phoneProofStarts.phoneE164} = ${phoneE164})`,
      numbers: sql<number>`(select count(distinct ${phoneProofStarts.phoneE164})::int from ${phoneProofStarts} where ${fromIp})`,
    })
    .from(sql`(select 1) as one`);
  if (!budget || budget.counted || budget.numbers < config.SMS_NUMBERS_PER_IP_PER_HOUR) return;
  const numbers = await tx
    .select({ last: max(phoneProofStarts.createdAt) })
    .from(phoneProofStarts)
    .where(fromIp)
    .groupBy(phoneProofStarts.phoneE164);
  // A slot frees when the number last sent to longest ago leaves the hour.
  const oldest = Math.min(...numbers.map((row) => new Date(row.last ?? now).getTime()));
  throw tooMany(
    'TOO_MANY_ATTEMPTS',
    (oldest + HOUR_MS - now.getTime()) / 1000,
    'Hiciste demasiados intentos desde esta conexión. Intenta de nuevo más tarde.',
  );
}

export async function recordProofStart(tx: Tx, kind: 'sms' | 'reverse-otp', phoneE164: string, ip: string, now: Date) {
  await tx.insert(phoneProofStarts).values({ kind, phoneE164, ip, createdAt: now });
}

export type { Tx };
