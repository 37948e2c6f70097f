import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError, tooMany } from '../../errors.js';
import type { InboundMessage } from '../../providers/reverse-otp/index.js';
import { appendAuditEvent, phoneAuditId } from '../audit/index.js';
import { enqueueJob } from '../jobs/index.js';
import { recordDelivery } from '../webhooks/index.js';
import { lockProofStart, recordProofStart } from '../one-time-codes/index.js';
import {
  countSessionsSince,
  findPendingByNonce,
  findSession,
  insertSession,
  resolveSession,
  supersedePending,
  type ReverseOtpSession as Session,
} from './reverse-otp.store.js';

/**
 * A guarantor's session verified by their own phone's message: their consent is recorded by a job
 * of the message's transaction (modules/guarantors runs it), whether or not anyone is on the page.
 */
export const VERIFIED_GUARANTOR_SESSION_JOB = 'remote-consent';

/** No 0/O, 1/I/L: easy to read aloud and hard to mistype. */
const NONCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const NONCE_LENGTH = 8;
const NONCE_PATTERN = new RegExp(`[${NONCE_ALPHABET}]{${NONCE_LENGTH}}`, 'g');

function generateNonce(): string {
  return Array.from({ length: NONCE_LENGTH }, () => NONCE_ALPHABET[randomInt(0, NONCE_ALPHABET.length)]).join('');
}

/** The stored form of a session key (the browser's `session_id`): its SHA-256, in hex. */
export const sessionKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** The message the phone sends: it names the session by its nonce. */
export const reverseOtpMessage = (app: FastifyInstance, session: Session) =>
  `Verificar ${app.config.APP_NAME}: ${session.nonce}`;

/** What the phone shows and sends; `key` is the session's `session_id` (only its hash is stored). */
export function sessionView(app: FastifyInstance, session: Session, key: string) {
  const message = reverseOtpMessage(app, session);
  const destination = app.reverseOtp.destination;
  return {
    session_id: key,
    message,
    destination,
    whatsapp_url: `https://wa.me/${destination.replace(/\D/g, '')}?text=${encodeURIComponent(message)}`,
    sms_url: `sms:${destination}?&body=${encodeURIComponent(message)}`,
    expires_at: session.expiresAt.toISOString(),
  };
}

/**
 * Opens a session; a newer one supersedes the phone's pending sessions. It sends nothing, so it has
 * the per-number cap but no per-IP one (docs/decisions/009).
 */
export async function startReverseOtp(
  app: FastifyInstance,
  input: { phoneE164: string; anonymousId: string; clientIp: string; observedIp: string; avalId?: string },
) {
  const { config } = app;
  const now = app.clock();
  const key = randomUUID();
  const session = await app.db.transaction(async (tx) => {
    await lockProofStart(tx, null, input.phoneE164);
    const hourAgo = new Date(now.getTime() - 3_600_000);
    if ((await countSessionsSince(tx, input.phoneE164, hourAgo)) >= config.CODE_MAX_PER_HOUR) {
      throw tooMany(
        'CODE_HOURLY_LIMIT',
        3600,
        'Hiciste demasiados intentos para este número. Intenta de nuevo más tarde.',
      );
    }
    await supersedePending(tx, input.phoneE164, now);
    await recordProofStart(tx, 'reverse-otp', input.phoneE164, input.observedIp, now);
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await insertSession(tx, {
        keyHash: sessionKeyHash(key),
        phoneE164: input.phoneE164,
        anonymousId: input.anonymousId,
        avalId: input.avalId ?? null,
        nonce: generateNonce(),
        provider: app.reverseOtp.name,
        clientIp: input.clientIp.slice(0, 64),
        observedIp: input.observedIp,
        createdAt: now,
        expiresAt: new Date(now.getTime() + config.REVERSE_OTP_TTL_SECONDS * 1000),
      });
      if (row) return row;
    }
    throw new Error('could not draw a unique reverse-OTP nonce');
  });
  return sessionView(app, session, key);
}

export type ReverseOtpState =
  | { status: 'PENDING'; session: Session }
  | { status: 'VERIFIED'; session: Session }
  | { status: 'FAILED' }
  | { status: 'EXPIRED' };

/**
 * Where a session stands, found by the browser's key or, for the server's own jobs, by its id; a
 * verified session can be exchanged for a token for one TTL after.
 */
export async function reverseOtpState(
  app: FastifyInstance,
  session_: { key: string } | { id: string },
): Promise<ReverseOtpState> {
  const now = app.clock();
  const session = await findSession(
    app.db,
    'key' in session_ ? { keyHash: sessionKeyHash(session_.key) } : { id: session_.id },
  );
  if (!session)
    throw new AppError(
      404,
      'SESSION_NOT_FOUND',
      'session not found',
      'No encontramos esta verificación. Vuelve a empezar.',
    );
  const ttlMs = app.config.REVERSE_OTP_TTL_SECONDS * 1000;
  switch (session.status) {
    case 'PENDING':
      if (session.expiresAt.getTime() > now.getTime()) return { status: 'PENDING', session };
      await resolveSession(app.db, session.id, { status: 'EXPIRED', resolvedAt: now });
      return { status: 'EXPIRED' };
    case 'VERIFIED':
      return session.resolvedAt && now.getTime() - session.resolvedAt.getTime() <= ttlMs
        ? { status: 'VERIFIED', session }
        : { status: 'EXPIRED' };
    case 'FAILED':
      return { status: 'FAILED' };
    default:
      return { status: 'EXPIRED' };
  }
}

function normaliseSender(from: string): string {
  const digits = from.replace(/\D/g, '');
  return `+${digits}`;
}

/**
 * An inbound message from the vendor's webhook: the nonce in the text picks the session, and the
 * sender must be the phone the session is for. Anything else is ignored (and answered 200, so the
 * vendor does not retry). `deliveryId` is the vendor's id for the delivery: it is recorded in the
 * same transaction as the session's outcome and its audit event, so a replay (the vendor retrying,
 * a captured call sent again) finds it and changes nothing (issue 26).
 */
export async function receiveInboundMessage(app: FastifyInstance, message: InboundMessage, deliveryId: string) {
  const now = app.clock();
  const nonces = message.text.toUpperCase().match(NONCE_PATTERN) ?? [];
  const from = normaliseSender(message.from);
  const received = await app.db.transaction(async (tx) => {
    if (!(await recordDelivery(tx, app.reverseOtp.name, deliveryId, now)))
      return { matched: false, verified: false, replayed: true };
    for (const nonce of nonces) {
      const session = await findPendingByNonce(tx, nonce);
      if (!session || session.expiresAt.getTime() <= now.getTime()) continue;
      const verified = from === session.phoneE164;
      // The session's outcome and its audit event commit together (with the delivery's record).
      const outcome = {
        status: verified ? ('VERIFIED' as const) : ('FAILED' as const),
        fromE164: from,
        resolvedAt: now,
      };
      if (!(await resolveSession(tx, session.id, outcome))) continue;
      await appendAuditEvent(tx, {
        applicationId: phoneAuditId(app, session.phoneE164),
        actor: 'user',
        type: verified ? 'phone.proven' : 'phone.proof_failed',
        payload: verified
          ? { channel: 'reverse-otp', session_id: session.id }
          : { channel: 'reverse-otp', session_id: session.id, reason: 'sender-mismatch' },
        at: now,
      });
      const guarantor = verified && session.avalId !== null;
      if (guarantor) await enqueueJob(tx, VERIFIED_GUARANTOR_SESSION_JOB, { session_id: session.id });
      return { matched: true, verified, replayed: false, guarantor };
    }
    return { matched: false, verified: false, replayed: false };
  });
  if ('guarantor' in received && received.guarantor) app.jobs.wake(VERIFIED_GUARANTOR_SESSION_JOB);
  return { matched: received.matched, verified: received.verified, replayed: received.replayed };
}
