import { Secret, TOTP } from 'otpauth';
import type { FieldCipher } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { findTotp, storeUnconfirmedTotp, useTotpStep } from './factors.store.js';

/**
 * Authenticator apps (RFC 6238 through `otpauth`): SHA-1, 6 digits, 30 s, the defaults every app
 * reads from a QR code. A code is accepted one step early or late (clock drift) and once only: the
 * step it belongs to must be later than the last one accepted (RFC 6238 §5.2), checked and moved
 * in one guarded UPDATE, so two requests with the same code cannot both pass.
 */
const PERIOD_SECONDS = 30;

export interface TotpDeps {
  db: Executor;
  cipher: FieldCipher;
  clock: () => Date;
}

const totpOf = (secret: string, label = '', issuer = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

export const TOTP_ALREADY_ENROLLED = new AppError(
  409,
  'TOTP_ALREADY_ENROLLED',
  'totp already enrolled',
  'Ya tienes una aplicación de autenticación. Para cambiarla, pide a un administrador que restablezca tus factores.',
);

/** A new secret, kept unconfirmed until the app's first code confirms it (a new one replaces it until then). */
export async function startTotpEnrolment(
  deps: TotpDeps,
  member: { id: string; email: string },
  issuer: string,
): Promise<{ secret: string; otpauthUri: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const now = deps.clock();
  const stored = deps.cipher.encryptBytes(Buffer.from(secret));
  if (!(await storeUnconfirmedTotp(deps.db, member.id, stored, now))) throw TOTP_ALREADY_ENROLLED;
  return { secret, otpauthUri: totpOf(secret, member.email, issuer).toString() };
}

/** The step a code belongs to (now ± one step), or null for a wrong code. */
function stepOf(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(secret);
  const delta = totp.validate({ token, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

/**
 * Checks a code against the confirmed secret (`confirmed`) or the one being enrolled, and uses it up.
 * True when it was right and not used before; confirming sets confirmed_at.
 */
export async function useTotpCode(
  deps: TotpDeps,
  staffId: string,
  code: string,
  which: 'confirmed' | 'enrolling',
): Promise<boolean> {
  const row = await findTotp(deps.db, staffId);
  if (!row || (which === 'confirmed') !== (row.confirmedAt !== null)) return false;
  const now = deps.clock();
  const step = stepOf(deps.cipher.decryptBytes(row.secretEncrypted).toString(), code, now);
  if (step === null) return false;
  return useTotpStep(deps.db, {
    staffId,
    confirmed: which === 'confirmed',
    // The same secret still (an enrolment restarted meanwhile has another).
    createdAt: row.createdAt,
    step,
    ...(which === 'enrolling' ? { confirmAt: now } : {}),
  });
}
