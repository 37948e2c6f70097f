import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { phoneCodes } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { SmsError } from '../../providers/sms/index.js';
import { appendAuditEvent } from '../audit/audit.service.js';
import { assertIpBudget, lockProofStart, recordProofStart, tooMany } from './limits.js';

const PURPOSE = 'phone-proof';

export function hashCode(key: Buffer, phoneE164: string, code: string): string {
  return createHmac('sha256', key).update(`${PURPOSE}:${phoneE164}:${code}`).digest('hex');
}

/** A 6-digit code from the CSPRNG. */
export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Sends a new code. The answer is the same whether the number is registered or not.
 * Limits (all counted in the database): per IP per hour, one code per RESEND seconds,
 * CODE_MAX_PER_HOUR per phone. A new code revokes the previous ones.
 */
export async function sendPhoneCode(app: FastifyInstance, phoneE164: string, ip: string) {
  const { config } = app;
  const now = app.clock();
  const code = generateCode();
  const expiresAt = new Date(now.getTime() + config.CODE_TTL_SECONDS * 1000);

  await app.db.transaction(async (tx) => {
    await lockProofStart(tx, ip, phoneE164);
    await assertIpBudget(tx, config, ip, now);
    const forPhone = and(eq(phoneCodes.phoneE164, phoneE164), eq(phoneCodes.purpose, PURPOSE));
    const [last] = await tx.select({ createdAt: phoneCodes.createdAt }).from(phoneCodes).where(forPhone).orderBy(desc(phoneCodes.createdAt)).limit(1);
    if (last) {
      const wait = (last.createdAt.getTime() + config.CODE_RESEND_SECONDS * 1000 - now.getTime()) / 1000;
      if (wait > 0) {
        throw tooMany('CODE_RESEND_TOO_SOON', wait, `Espera ${Math.ceil(wait)} segundos para pedir un código nuevo.`);
      }
    }
    const hourAgo = new Date(now.getTime() - 3_600_000);
    const [sent] = await tx.select({ n: count() }).from(phoneCodes).where(and(forPhone, gt(phoneCodes.createdAt, hourAgo)));
    if (sent && sent.n >= config.CODE_MAX_PER_HOUR) {
      const [oldest] = await tx
        .select({ createdAt: phoneCodes.createdAt })
        .from(phoneCodes)
        .where(and(forPhone, gt(phoneCodes.createdAt, hourAgo)))
        .orderBy(phoneCodes.createdAt)
        .limit(1);
      const retry = oldest ? (oldest.createdAt.getTime() + 3_600_000 - now.getTime()) / 1000 : 3600;
      throw tooMany('CODE_HOURLY_LIMIT', retry, 'Pediste demasiados códigos para este número. Intenta de nuevo más tarde.');
    }
    await tx
      .update(phoneCodes)
      .set({ revokedAt: now })
      .where(and(forPhone, isNull(phoneCodes.consumedAt), isNull(phoneCodes.revokedAt)));
    await tx.insert(phoneCodes).values({
      phoneE164,
      purpose: PURPOSE,
      codeHash: hashCode(app.secrets.key('codes'), phoneE164, code),
      createdAt: now,
      expiresAt,
    });
    await recordProofStart(tx, 'sms', phoneE164, ip, now);
  });

  const minutes = Math.round(config.CODE_TTL_SECONDS / 60);
  try {
    await app.sms.send({
      to: phoneE164,
      body: `${code} es tu código de ${config.APP_NAME}. Vence en ${minutes} minutos. No lo compartas con nadie.`,
    });
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    app.log.error({ err: error }, 'sms provider failed');
    throw new AppError(503, 'SMS_UNAVAILABLE', 'sms provider failed', 'No pudimos enviar el SMS. Intenta de nuevo en un minuto.');
  }
  return { expiresAt, resendAfterSeconds: config.CODE_RESEND_SECONDS };
}

const WRONG_CODE = 'El código no es correcto o ya no es válido. Revisa el SMS o pide uno nuevo.';

/** Checks a code: single use, valid CODE_TTL_SECONDS, at most CODE_MAX_ATTEMPTS tries. */
export async function confirmPhoneCode(app: FastifyInstance, phoneE164: string, code: string): Promise<void> {
  const { config } = app;
  const now = app.clock();
  const [live] = await app.db
    .select()
    .from(phoneCodes)
    .where(and(eq(phoneCodes.phoneE164, phoneE164), eq(phoneCodes.purpose, PURPOSE), isNull(phoneCodes.consumedAt), isNull(phoneCodes.revokedAt)))
    .orderBy(desc(phoneCodes.createdAt))
    .limit(1);
  if (!live) throw new AppError(400, 'CODE_INVALID', 'invalid code', WRONG_CODE);
  if (live.expiresAt.getTime() <= now.getTime()) {
    throw new AppError(400, 'CODE_EXPIRED', 'code expired', 'El código ya venció. Pide uno nuevo con "Reenviar Código".');
  }
  // Count the try before comparing, atomically, so parallel guesses cannot exceed the limit.
  const [tried] = await app.db
    .update(phoneCodes)
    .set({ attempts: sql`${phoneCodes.attempts} + 1` })
    .where(and(eq(phoneCodes.id, live.id), lt(phoneCodes.attempts, config.CODE_MAX_ATTEMPTS)))
    .returning({ attempts: phoneCodes.attempts });
  if (!tried) {
    throw new AppError(429, 'CODE_LOCKED', 'too many wrong codes', 'Superaste los intentos permitidos. Pide un código nuevo.');
  }
  const expected = Buffer.from(live.codeHash, 'hex');
  const given = Buffer.from(hashCode(app.secrets.key('codes'), phoneE164, code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    const left = config.CODE_MAX_ATTEMPTS - tried.attempts;
    throw new AppError(400, 'CODE_INVALID', 'invalid code', left > 0 ? `El código no es correcto. Te quedan ${left} intentos.` : WRONG_CODE, {
      attempts_left: left,
    });
  }
  const [consumed] = await app.db
    .update(phoneCodes)
    .set({ consumedAt: now })
    .where(and(eq(phoneCodes.id, live.id), isNull(phoneCodes.consumedAt)))
    .returning({ id: phoneCodes.id });
  if (!consumed) throw new AppError(400, 'CODE_INVALID', 'code already used', WRONG_CODE);
  await appendAuditEvent(app.db, {
    applicationId: `phone:${phoneE164}`,
    actor: 'user',
    type: 'phone.proven',
    payload: { channel: 'sms-code' },
  });
}
