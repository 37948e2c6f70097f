import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { MessageKind } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { AppError, tooMany } from '../../errors.js';
import {
  deliverMessage,
  enqueueMessage,
  smsUnavailable,
  type MessageDeps,
  type MessagePurpose,
} from '../messaging/index.js';
import {
  countCodesSince,
  countTry,
  findCode,
  firstCodeSince,
  liveCode,
  newestCode,
  replaceCode,
  deleteUnusedCode,
  spendCode,
} from './codes.store.js';
import { forgetSmsStart, lockProofStart, recordProofStart } from './proof-starts.store.js';
import { assertSmsIpBudget } from './sms-budget.js';

/**
 * One-time codes sent by SMS: the phone-proof code (6 digits) and the bureau-consent PIN (4).
 * From the CSPRNG, stored only as a keyed hash, valid CODE_TTL_SECONDS, single use, at most
 * CODE_MAX_ATTEMPTS tries, a new one revokes the previous, one per CODE_RESEND_SECONDS and
 * CODE_MAX_PER_HOUR per phone. Every counter is a database row, shared by all processes.
 */
export type CodePurpose = 'phone-proof' | 'consent-nip' | 'aval-nip';

const DIGITS: Record<CodePurpose, number> = { 'phone-proof': 6, 'consent-nip': 4, 'aval-nip': 4 };
const NOUN: Record<CodePurpose, string> = { 'phone-proof': 'código', 'consent-nip': 'NIP', 'aval-nip': 'NIP' };
const MESSAGE_KIND: Record<CodePurpose, MessageKind> = {
  'phone-proof': 'phone-code',
  'consent-nip': 'consent-pin',
  'aval-nip': 'guarantor-pin',
};

export function hashCode(key: Buffer, purpose: CodePurpose, phoneE164: string, code: string): string {
  return createHmac('sha256', key).update(`${purpose}:${phoneE164}:${code}`).digest('hex');
}

export function generateCode(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

export interface IssueOptions {
  phoneE164: string;
  purpose: CodePurpose;
  /** When the caller is anonymous, its IP is counted too (SMS_NUMBERS_PER_IP_PER_HOUR). */
  ip?: string;
  /** The text that carries the code (by SMS; WhatsApp's template has the code as its variable). */
  message: (code: string) => string;
  /** The application the code is for (the back office lists its messages); none for a phone proof. */
  applicationId?: string;
  /** What the code is for, written in its transaction (a guarantor's new number). */
  within?: (tx: Tx) => Promise<void>;
  /** What `within` wrote, undone with the code when its SMS could not be sent (the request answers 503). */
  undo?: (tx: Tx) => Promise<void>;
}

/** What checking a code needs of the app: the database, the clock, the limits and the hashing key. */
export type ConsumeDeps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'secrets'>;
/** What issuing one needs besides: its SMS (modules/sms). */
export type CodeDeps = ConsumeDeps & MessageDeps;

/**
 * A code whose SMS was never sent is removed, unless it was used, with the SMS start its request
 * recorded: it holds no resend interval and counts in no hourly or per-IP limit, as if it had
 * never been asked for.
 */
async function withdrawCode(
  deps: Pick<ConsumeDeps, 'db'>,
  id: string,
  undo?: (tx: Tx) => Promise<void>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const withdrawn = await deleteUnusedCode(tx, id);
    if (!withdrawn) return;
    await forgetSmsStart(tx, withdrawn.phoneE164, withdrawn.createdAt);
    await undo?.(tx);
  });
}

/** The purpose of a code's SMS (modules/sms asks it before each try). */
export const CODE_SMS = 'one-time-code';

/**
 * A code's SMS is worth sending while the code works (not spent, replaced or expired); one never
 * sent gives its limits back (withdrawCode).
 */
export function codeMessages(deps: Pick<ConsumeDeps, 'db' | 'clock'>): MessagePurpose {
  return {
    name: CODE_SMS,
    async stillWanted(id) {
      const code = await findCode(deps.db, id);
      return !!code && !code.consumedAt && !code.revokedAt && code.expiresAt.getTime() > deps.clock().getTime();
    },
    notSent: (id) => withdrawCode(deps, id),
  };
}

/**
 * A new code, its SMS enqueued in the code's transaction and tried at once while the request
 * waits (SMS_SEND_WAIT_MS). A first try the provider refused is a 503 and the code is withdrawn, so
 * a provider outage spends neither the resend interval nor the hourly limits, and the screen never
 * says a code was sent that is not on its way (decision 030). Past the wait it follows from the
 * queue while it works.
 */
export async function issueCode(
  app: CodeDeps,
  { phoneE164, purpose, ip, message, applicationId, within, undo }: IssueOptions,
) {
  const { config } = app;
  const now = app.clock();
  const code = generateCode(DIGITS[purpose]);
  const expiresAt = new Date(now.getTime() + config.CODE_TTL_SECONDS * 1000);
  const noun = NOUN[purpose];

  const { id, sms } = await app.db.transaction(async (tx) => {
    await lockProofStart(tx, ip ?? null, phoneE164);
    if (ip) await assertSmsIpBudget(tx, config, ip, phoneE164, now);
    const last = await newestCode(tx, phoneE164, purpose);
    // A spent code (the number was just proven with it) holds nothing back: someone coming back
    // needs a new one, and the hourly cap below still counts it (issue 27).
    if (last && !last.consumedAt) {
      const wait = (last.createdAt.getTime() + config.CODE_RESEND_SECONDS * 1000 - now.getTime()) / 1000;
      if (wait > 0) throw resendTooSoon(wait, noun, last, now, config.CODE_MAX_ATTEMPTS);
    }
    const hourAgo = new Date(now.getTime() - 3_600_000);
    if ((await countCodesSince(tx, phoneE164, purpose, hourAgo)) >= config.CODE_MAX_PER_HOUR) {
      const oldest = await firstCodeSince(tx, phoneE164, purpose, hourAgo);
      const retry = oldest ? (oldest.getTime() + 3_600_000 - now.getTime()) / 1000 : 3600;
      throw tooMany(
        'CODE_HOURLY_LIMIT',
        retry,
        `Pediste demasiados ${noun === 'NIP' ? 'NIP' : 'códigos'} para este número. Intenta de nuevo más tarde.`,
      );
    }
    const id = await replaceCode(tx, {
      phoneE164,
      purpose,
      codeHash: hashCode(app.secrets.key('codes'), purpose, phoneE164, code),
      createdAt: now,
      expiresAt,
    });
    if (ip) await recordProofStart(tx, 'sms', phoneE164, ip, now);
    await within?.(tx);
    const sms = await enqueueMessage(app, tx, {
      kind: MESSAGE_KIND[purpose],
      to: phoneE164,
      body: message(code),
      variables: [code],
      applicationId: applicationId ?? null,
      about: { kind: CODE_SMS, id },
    });
    return { id, sms };
  });
  if ((await deliverMessage(app, sms)) === 'failed') {
    await withdrawCode(app, id, undo);
    throw smsUnavailable();
  }
  return { code, expiresAt, resendAfterSeconds: config.CODE_RESEND_SECONDS };
}

/**
 * 429 within the resend interval. The answer says what is true: while the last code still works
 * (not expired, tries left) it names its expiry (`code_expires_at`) and asks to use it; otherwise
 * only when a new one can be asked. (A stranger asking learns whether the last code was tried five
 * times in vain: accepted, docs/decisions/025.)
 */
function resendTooSoon(
  wait: number,
  noun: string,
  last: { expiresAt: Date; attempts: number },
  now: Date,
  maxAttempts: number,
) {
  const seconds = Math.ceil(wait);
  const usable = last.expiresAt.getTime() > now.getTime() && last.attempts < maxAttempts;
  if (!usable) return tooMany('CODE_RESEND_TOO_SOON', wait, `Espera ${seconds} segundos para pedir un ${noun} nuevo.`);
  return tooMany(
    'CODE_RESEND_TOO_SOON',
    wait,
    `El último ${noun} que te enviamos sigue valiendo: úsalo, o espera ${seconds} segundos para pedir uno nuevo.`,
    { code_expires_at: last.expiresAt.toISOString() },
  );
}

/** Checks a code and spends it; every refusal is a 400 (wrong, expired) or 429 (locked). */
export interface ConsumeOptions {
  phoneE164: string;
  purpose: CodePurpose;
  code: string;
  /** What the right code proves, written in the same transaction as its use (e.g. the audit event). */
  onConsumed?: (tx: Tx, now: Date) => Promise<void>;
}

export async function consumeCode(
  app: ConsumeDeps,
  { phoneE164, purpose, code, onConsumed }: ConsumeOptions,
): Promise<void> {
  const { config } = app;
  const now = app.clock();
  const noun = NOUN[purpose];
  const wrong = `El ${noun} no es correcto o ya no es válido. Revisa el SMS o pide uno nuevo.`;
  const live = await liveCode(app.db, phoneE164, purpose);
  if (!live) throw new AppError(400, 'CODE_INVALID', 'invalid code', wrong);
  if (live.expiresAt.getTime() <= now.getTime()) {
    throw new AppError(400, 'CODE_EXPIRED', 'code expired', `El ${noun} ya venció. Pide uno nuevo.`);
  }
  // Count the try before comparing, atomically, so parallel guesses cannot exceed the limit.
  const tried = await countTry(app.db, live.id, config.CODE_MAX_ATTEMPTS);
  if (tried === null)
    throw new AppError(
      429,
      'CODE_LOCKED',
      'too many wrong codes',
      `Superaste los intentos permitidos. Pide un ${noun} nuevo.`,
    );
  const expected = Buffer.from(live.codeHash, 'hex');
  const given = Buffer.from(hashCode(app.secrets.key('codes'), purpose, phoneE164, code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    const left = config.CODE_MAX_ATTEMPTS - tried;
    throw new AppError(
      400,
      'CODE_INVALID',
      'invalid code',
      left > 0 ? `El ${noun} no es correcto. ${triesLeft(left)}` : wrong,
      { attempts_left: left },
    );
  }
  await app.db.transaction(async (tx) => {
    if (!(await spendCode(tx, live.id, now))) throw new AppError(400, 'CODE_INVALID', 'code already used', wrong);
    await onConsumed?.(tx, now);
  });
}

/** 'Te quedan 4 intentos.', 'Te queda 1 intento.' */
export function triesLeft(left: number): string {
  return left === 1 ? 'Te queda 1 intento.' : `Te quedan ${left} intentos.`;
}
