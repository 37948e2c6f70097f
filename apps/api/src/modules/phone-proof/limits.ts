import { and, count, eq, gt, min, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { phoneProofStarts } from '../../db/schema.js';
import { AppError } from '../../errors.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const HOUR_MS = 3_600_000;

export function tooMany(code: string, retryAfterSeconds: number, readable: string): AppError {
  return new AppError(429, code, 'too many requests', readable, { retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
}

/**
 * Serialises phone-proof starts for one IP and one phone across every server process
 * (transaction-scoped advisory locks, always taken in this order).
 */
export async function lockProofStart(tx: Tx, ip: string, phoneE164: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`proof-ip:${ip}`}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`proof-phone:${phoneE164}`}))`);
}

/** At most PROOF_STARTS_PER_IP_PER_HOUR code or reverse-OTP starts per IP in any hour. */
export async function assertIpBudget(tx: Tx, config: Config, ip: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - HOUR_MS);
  const [row] = await tx
    .select({ starts: count(), oldest: min(phoneProofStarts.createdAt) })
    .from(phoneProofStarts)
    .where(and(eq(phoneProofStarts.ip, ip), gt(phoneProofStarts.createdAt, since)));
  if (row && row.starts >= config.PROOF_STARTS_PER_IP_PER_HOUR && row.oldest) {
    const retry = (new Date(row.oldest).getTime() + HOUR_MS - now.getTime()) / 1000;
    throw tooMany('TOO_MANY_ATTEMPTS', retry, 'Hiciste demasiados intentos desde esta conexión. Intenta de nuevo más tarde.');
  }
}

export async function recordProofStart(tx: Tx, kind: 'sms' | 'reverse-otp', phoneE164: string, ip: string, now: Date) {
  await tx.insert(phoneProofStarts).values({ kind, phoneE164, ip, createdAt: now });
}

export type { Tx };
