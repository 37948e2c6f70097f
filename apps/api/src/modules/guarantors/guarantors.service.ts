import {
  AVAL_STEPS,
  cleanRfc,
  formatCedula,
  fromE164,
  getCountry,
  isValidNationalNumber,
  namingTransition,
  taxIdError,
  VALIDATION_ERROR_MESSAGE,
  toE164,
  type ApplicationState,
  type ApplicationStatus,
  type AvalType,
  type NextStep,
} from '@provee/domain';
import { and, desc, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ClientAddress } from '../../client-address.js';
import { auditEvents, avals, reverseOtpSessions, users } from '../../db/schema.js';
import { AppError, invalidFields } from '../../errors.js';
import {
  assertAt,
  claimStep,
  engineOf,
  moveApplication,
  releaseClaim,
  StepConflict,
  stepAnswer,
} from '../application/index.js';
import { appendAuditEvent, phoneAuditId } from '../audit/index.js';
import { consentFolio, currentConsentText, queryBureauBriefly, writeConsent } from '../credit/index.js';
import { consumeCode, issueCode } from '../one-time-codes/index.js';
import { reverseOtpState, sessionKeyHash, startReverseOtp } from '../phone-proof/index.js';
import { sendSms } from '../sms/index.js';
import type { UserRow } from '../users/index.js';

export type AvalRow = typeof avals.$inferSelect;

const NOT_FOUND = new AppError(404, 'AVAL_NOT_FOUND', 'guarantor not found', 'No encontramos a este aval.');

export function avalView(app: FastifyInstance, aval: AvalRow) {
  return {
    id: aval.id,
    aval_type: aval.avalType as AvalType,
    name: aval.name ?? '',
    phone: aval.phoneE164 ? fromE164(app.config.COUNTRY, aval.phoneE164) : null,
    status: aval.status as 'PENDING' | 'CONSENTED' | 'APPROVED' | 'REFUSED',
  };
}

/** The guarantor of `type` the application has now (a replaced one is kept only for the record). */
export async function activeAval(app: FastifyInstance, userId: string, type: AvalType): Promise<AvalRow | undefined> {
  const [aval] = await app.db
    .select()
    .from(avals)
    .where(and(eq(avals.userId, userId), eq(avals.avalType, type), ne(avals.status, 'REPLACED')))
    .limit(1);
  return aval;
}

/**
 * A guarantor's phone must be their own (issue 26): not the shopkeeper's, and not a number another
 * applicant proved as theirs (the phone of any application: the shopkeeper's second phone, once it
 * applied, included). A 400 on the field, like any other wrong number: the form shows it under the
 * phone and the shopkeeper writes another (a 409 is for where the application stands, a 422 would
 * send the screen to /rejected). The message does not say whose number it is.
 */
async function guarantorPhone(app: FastifyInstance, digits: string, field: string, shopkeeper: UserRow) {
  if (!isValidNationalNumber(app.config.COUNTRY, digits))
    throw invalidFields({ [field]: 'Ingresa un número de celular válido de 10 dígitos.' });
  const e164 = toE164(app.config.COUNTRY, digits);
  await countGuarantorNumber(app, shopkeeper.id, e164);
  const refused = (message: string) =>
    new AppError(400, 'GUARANTOR_PHONE_REFUSED', 'guarantor phone refused', VALIDATION_ERROR_MESSAGE, {
      issues: [{ field: `body.${field}`, message }],
    });
  if (e164 === shopkeeper.phoneE164) throw refused('El aval necesita su propio celular, distinto al tuyo.');
  const [applicant] = await app.db.select({ id: users.id }).from(users).where(eq(users.phoneE164, e164)).limit(1);
  if (applicant) throw refused('Este número no se puede usar para el aval: escribe el celular propio del aval.');
  return e164;
}

/**
 * Distinct guarantor numbers one application may try in a day (named, changed to, or refused). Each answer
 * says whether a number belongs to an applicant, and each change sends it an SMS: a budget keeps the
 * form from being used to probe numbers or to send messages (issue 26's review). Each try is an audit
 * event (the number as a keyed hash), counted under the application's audit lock.
 */
export const GUARANTOR_NUMBERS_PER_DAY = 6;
const TOO_MANY_NUMBERS = new AppError(
  429,
  'GUARANTOR_NUMBERS_LIMIT',
  'too many guarantor numbers tried',
  'Ya probaste varios números de aval hoy. Intenta de nuevo mañana o pide ayuda a tu asesor.',
  { retry_after_seconds: 24 * 3600 },
);

async function countGuarantorNumber(app: FastifyInstance, userId: string, phoneE164: string): Promise<void> {
  const now = app.clock();
  const since = new Date(now.getTime() - 24 * 3_600_000);
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
    const phone = phoneAuditId(app, phoneE164);
    const tried = await tx
      .selectDistinct({ phone: sql<string>`${auditEvents.payload}->>'phone'` })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.applicationId, userId),
          eq(auditEvents.type, 'guarantor.phone_tried'),
          gte(auditEvents.createdAt, since),
        ),
      );
    // The same number again (a retry, a double tap) costs nothing more.
    if (tried.some((row) => row.phone === phone)) return;
    if (tried.length >= GUARANTOR_NUMBERS_PER_DAY) throw TOO_MANY_NUMBERS;
    await appendAuditEvent(tx, {
      applicationId: userId,
      actor: `user:${userId}`,
      type: 'guarantor.phone_tried',
      payload: { phone },
      at: now,
    });
  });
}

/** Names a guarantor (the mobile app's form or an operator) and moves the application to the PIN step. */
export async function registerAval(
  app: FastifyInstance,
  user: UserRow,
  input: { aval_type: AvalType; name: string; phone_number: string; tax_payer_id: string },
  actor: string,
) {
  const engine = engineOf(app);
  const transition = namingTransition(input.aval_type, engineState(user));
  if (!transition) throw new StepConflict(await stepAnswer(engine, user));
  const country = getCountry(app.config.COUNTRY);
  const shown = country.taxId.format ? formatCedula(input.tax_payer_id) : cleanRfc(input.tax_payer_id);
  const errors: Record<string, string> = {};
  const taxError = taxIdError(country, shown);
  if (taxError) errors.tax_payer_id = taxError;
  if (!/^[\p{L} .'-]{2,80}$/u.test(input.name)) errors.name = '* Escribe el nombre completo del aval.';
  if (Object.keys(errors).length > 0) throw invalidFields(errors);
  const phoneE164 = await guarantorPhone(app, input.phone_number, 'phone_number', user);
  const now = app.clock();
  const { row, result: aval } = await moveApplication(engine, {
    userId: user.id,
    transition,
    actor,
    write: async (tx) => {
      // A refused guarantor of this type (or one not yet consented) makes room for the new one.
      await tx
        .update(avals)
        .set({ status: 'REPLACED', updatedAt: now })
        .where(and(eq(avals.userId, user.id), eq(avals.avalType, input.aval_type), ne(avals.status, 'REPLACED')));
      const [created] = await tx
        .insert(avals)
        .values({
          userId: user.id,
          avalType: input.aval_type,
          name: input.name.trim(),
          phoneE164,
          taxIdEncrypted: app.cipher.encrypt(shown.replace(/-/g, '')),
          status: 'PENDING',
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return created!;
    },
    event: { type: 'guarantor.named', payload: { aval_type: input.aval_type } },
  });
  return { row, aval };
}

function engineState(user: UserRow): ApplicationState {
  return { step: user.nextStep as NextStep, status: user.status as ApplicationStatus };
}

function shopkeeperName(user: UserRow): string {
  return [user.name, user.lastname].filter(Boolean).join(' ');
}

async function sendAvalPin(
  app: FastifyInstance,
  user: UserRow,
  aval: AvalRow,
  issued?: Awaited<ReturnType<typeof issueCode>>,
) {
  issued ??= await issueCode(app, { phoneE164: aval.phoneE164!, purpose: 'aval-nip' });
  await sendSms(
    app,
    aval.phoneE164!,
    `${issued.code} es tu NIP de ${app.config.APP_NAME}. Con él autorizas la consulta de tu historial crediticio como aval de ${shopkeeperName(user)}. No lo compartas.`,
  );
  await appendAuditEvent(app.db, {
    applicationId: user.id,
    actor: 'system',
    type: 'guarantor.nip_sent',
    payload: { aval_id: aval.id, aval_type: aval.avalType },
    at: app.clock(),
  });
  return {
    collateralName: aval.name ?? '',
    shopkeeperName: shopkeeperName(user),
    aval_type: aval.avalType as AvalType,
    expires_at: issued.expiresAt.toISOString(),
    resend_after_seconds: issued.resendAfterSeconds,
    ...(app.config.NIP_PREFILL ? { default_nip: issued.code } : {}),
  };
}

/**
 * Where a guarantor's consent came from: the trusted address and, when a request carried it, the
 * connection's address and the forwarded chain (a consent recorded in the background has neither).
 */
type ConsentFrom = Pick<ClientAddress, 'ip'> & Partial<ClientAddress> & { userAgent: string | undefined };

/** A guarantor's invitation token: good only for that guarantor, at the number it was sent to. */
export interface Invited {
  avalId: string;
  phoneE164: string;
}

const FORBIDDEN = new AppError(
  403,
  'FORBIDDEN',
  'forbidden',
  'Este enlace ya no es válido. Pide uno nuevo a quien te invitó.',
);

function checkInvited(aval: AvalRow, invited: Invited | undefined): void {
  if (invited && (invited.avalId !== aval.id || invited.phoneE164 !== aval.phoneE164)) throw FORBIDDEN;
}

/** The guarantor whose PIN step the application is at, and whose number is `to`. */
async function avalAtPinStep(app: FastifyInstance, user: UserRow, to: string, invited?: Invited): Promise<AvalRow> {
  const type: AvalType | undefined =
    user.nextStep === 'PARTNER_NIP' ? 'PARTNER' : user.nextStep === 'COLLATERAL_NIP' ? 'COLLATERAL' : undefined;
  if (!type || user.status !== 'IN_PROGRESS') throw new StepConflict(await stepAnswer(engineOf(app), user));
  const aval = await activeAval(app, user.id, type);
  if (!aval || aval.phoneE164 !== toE164(app.config.COUNTRY, to)) throw invited ? FORBIDDEN : NOT_FOUND;
  checkInvited(aval, invited);
  return aval;
}

/** POST …/aval/nip?to=: the PIN to the guarantor's phone. */
export async function sendPinToAval(app: FastifyInstance, user: UserRow, to: string, invited?: Invited) {
  return sendAvalPin(app, user, await avalAtPinStep(app, user, to, invited));
}

/** PUT …/aval/nip?to= {nip}: the PIN proves the guarantor's consent; their bureau query runs. */
export async function confirmAvalPin(
  app: FastifyInstance,
  user: UserRow,
  to: string,
  nip: string,
  evidence: ConsentFrom,
  invited?: Invited,
) {
  const engine = engineOf(app);
  const aval = await avalAtPinStep(app, user, to, invited);
  const steps = AVAL_STEPS[aval.avalType as AvalType];
  await assertAt(engine, user, steps.consent);
  const claim = await claimStep(engine, user.id, steps.consent);
  try {
    await consumeCode(app, { phoneE164: aval.phoneE164!, purpose: 'aval-nip', code: nip });
  } catch (error) {
    await releaseClaim(engine, user.id, claim);
    throw error;
  }
  await recordAvalConsent(app, user, aval, { ...evidence, pinVerified: true, claim });
  return refreshed(app, user.id, aval.id);
}

/** The guarantor's consent (PIN or own-phone message) and their bureau query, with the move. */
async function recordAvalConsent(
  app: FastifyInstance,
  user: UserRow,
  aval: AvalRow,
  evidence: ConsentFrom & { pinVerified: boolean; claim?: string; sessionId?: string },
) {
  const steps = AVAL_STEPS[aval.avalType as AvalType];
  const now = app.clock();
  const folio = consentFolio(now);
  const consent = currentConsentText(app, 'collateral');
  const { result: queryId } = await moveApplication(engineOf(app), {
    userId: user.id,
    transition: steps.consent,
    actor: `aval:${aval.id}`,
    ...(evidence.claim ? { claim: evidence.claim } : {}),
    write: async (tx) => {
      await tx.update(avals).set({ status: 'CONSENTED', updatedAt: now }).where(eq(avals.id, aval.id));
      return (
        await writeConsent(app, tx, {
          userId: user.id,
          avalId: aval.id,
          folio,
          ip: evidence.ip,
          peerIp: evidence.peerIp,
          forwardedFor: evidence.forwardedFor,
          userAgent: evidence.userAgent,
          pinVerified: evidence.pinVerified,
          now,
        })
      ).queryId;
    },
    event: {
      type: 'guarantor.consent_given',
      payload: {
        aval_id: aval.id,
        folio,
        version: consent.version,
        sha256: consent.sha256,
        pin_verified: evidence.pinVerified,
        ...(evidence.sessionId ? { channel: 'reverse-otp', session_id: evidence.sessionId } : { channel: 'pin' }),
      },
    },
  });
  await queryBureauBriefly(app, queryId);
}

async function refreshed(app: FastifyInstance, userId: string, avalId: string) {
  const engine = engineOf(app);
  const [aval] = await app.db.select().from(avals).where(eq(avals.id, avalId)).limit(1);
  const [row] = await app.db.select().from(users).where(eq(users.id, userId)).limit(1);
  return { ...(await stepAnswer(engine, row!)), aval: avalView(app, aval!) };
}

/** PUT …/aval/phone-number: another number for the guarantor (checked), the PIN goes to it. */
export async function changeAvalPhone(
  app: FastifyInstance,
  user: UserRow,
  input: { aval_type: AvalType; phone_number: string; new_phone_number: string },
) {
  const aval = await avalAtPinStep(app, user, input.phone_number);
  if (aval.avalType !== input.aval_type) throw NOT_FOUND;
  const prefix = `+${toE164(app.config.COUNTRY, '').replace(/\D/g, '')}`;
  const compact = input.new_phone_number.replace(/[\s()-]/g, '');
  if (!compact.startsWith(prefix)) throw invalidFields({ new_phone_number: `El número debe empezar con ${prefix}.` });
  const newPhone = await guarantorPhone(app, compact.slice(prefix.length), 'new_phone_number', user);
  // The PIN is issued first: a number still inside its resend interval (429) keeps the old one,
  // rather than changing the number and answering an error.
  const issued = await issueCode(app, { phoneE164: newPhone, purpose: 'aval-nip' });
  const now = app.clock();
  // Guarded on the number it had: two changes at once cannot both win.
  const [changed] = await app.db.transaction(async (tx) => {
    const rows = await tx
      .update(avals)
      .set({ phoneE164: newPhone, updatedAt: now })
      .where(and(eq(avals.id, aval.id), eq(avals.phoneE164, aval.phoneE164!), eq(avals.status, 'PENDING')))
      .returning();
    if (rows[0])
      await appendAuditEvent(tx, {
        applicationId: user.id,
        actor: `user:${user.id}`,
        type: 'guarantor.phone_changed',
        payload: { aval_id: aval.id },
        at: now,
      });
    return rows;
  });
  if (!changed) throw new StepConflict(await stepAnswer(engineOf(app), user));
  return sendAvalPin(app, user, changed, issued);
}

/** The link of a guarantor's invitation: the remote-consent page with an opaque, expiring token. */
export function invitationLink(app: FastifyInstance, aval: AvalRow): string {
  const { token } = app.tokens.issue(
    { kind: 'aval', avalId: aval.id, userId: aval.userId, phoneE164: aval.phoneE164! },
    app.config.AVAL_INVITE_TTL_SECONDS,
  );
  const base = app.config.PUBLIC_BASE_URL ?? `http://localhost:${app.config.PORT}`;
  return `${base}/verify-aval-phone?token=${encodeURIComponent(token)}`;
}

/** The SMS that invites a newly named guarantor to consent from their own phone. */
export async function inviteAval(app: FastifyInstance, user: UserRow, aval: AvalRow): Promise<void> {
  await sendSms(
    app,
    aval.phoneE164!,
    `${shopkeeperName(user)} te eligió como aval en ${app.config.APP_NAME}. Autoriza la consulta de tu historial crediticio aquí: ${invitationLink(app, aval)}`,
  );
}

async function invitedAval(app: FastifyInstance, invited: Invited) {
  const [row] = await app.db
    .select({ aval: avals, user: users })
    .from(avals)
    .innerJoin(users, eq(users.id, avals.userId))
    .where(eq(avals.id, invited.avalId))
    .limit(1);
  if (!row || row.aval.status === 'REPLACED') throw FORBIDDEN;
  checkInvited(row.aval, invited);
  return row;
}

/** What the invitation page shows: who is asked, by whom, and whether they already answered. */
export async function invitation(app: FastifyInstance, invited: Invited) {
  const { aval, user } = await invitedAval(app, invited);
  return {
    user_id: user.id,
    user_type_id: 'SK' as const,
    collateral_id: aval.id,
    aval_type: aval.avalType as AvalType,
    collateralName: aval.name ?? '',
    shopkeeperName: shopkeeperName(user),
    phone_number: fromE164(app.config.COUNTRY, aval.phoneE164!),
    status: avalView(app, aval).status,
  };
}

/**
 * Remote consent: a reverse-OTP session for the guarantor's own number. The consent counts only
 * once the message arrives from that number (validateRemoteConsent).
 */
export async function startRemoteConsent(
  app: FastifyInstance,
  invited: Invited,
  input: { account_id: string; collateral_id: string; ip_address?: string | undefined },
  observedIp: string,
) {
  const { aval, user } = await invitedAval(app, invited);
  if (input.account_id !== user.id || input.collateral_id !== aval.id) throw FORBIDDEN;
  const steps = AVAL_STEPS[aval.avalType as AvalType];
  if (user.nextStep !== steps.nip || user.status !== 'IN_PROGRESS' || aval.status !== 'PENDING')
    throw new StepConflict(
      await stepAnswer(engineOf(app), user),
      'AVAL_ALREADY_ANSWERED',
      'Ya registramos tu respuesta. ¡Gracias!',
    );
  const session = await startReverseOtp(app, {
    phoneE164: aval.phoneE164!,
    anonymousId: `aval-${aval.id}`,
    clientIp: input.ip_address ?? '',
    observedIp,
    avalId: aval.id,
  });
  return { redirection_url: session.whatsapp_url, ...session };
}

/** Where a remote consent stands; once the guarantor's own message arrived, their consent is recorded. */
export async function validateRemoteConsent(
  app: FastifyInstance,
  session: { key: string } | { id: string },
  evidence: ConsentFrom,
): Promise<'pending' | 'success' | 'error'> {
  const state = await reverseOtpState(app, session);
  if (state.status === 'PENDING') return 'pending';
  if (state.status === 'EXPIRED') return (await consentedThrough(app, session)) ? 'success' : 'error';
  if (state.status !== 'VERIFIED' || !state.session.avalId) return 'error';
  const [row] = await app.db
    .select({ aval: avals, user: users })
    .from(avals)
    .innerJoin(users, eq(users.id, avals.userId))
    .where(eq(avals.id, state.session.avalId))
    .limit(1);
  if (!row || row.aval.phoneE164 !== state.session.phoneE164 || row.aval.status === 'REPLACED') return 'error';
  if (row.aval.status !== 'PENDING') return 'success'; // recorded already (a reload, a second tab)
  try {
    await recordAvalConsent(app, row.user, row.aval, { ...evidence, pinVerified: false, sessionId: state.session.id });
  } catch (error) {
    if (!(error instanceof StepConflict)) throw error;
    // Recorded a moment ago by another request (a second tab): the same answer; otherwise too late.
    const [now] = await app.db.select({ status: avals.status }).from(avals).where(eq(avals.id, row.aval.id));
    return now && now.status !== 'PENDING' && now.status !== 'REPLACED' ? 'success' : 'error';
  }
  return 'success';
}

/**
 * A session past its time whose message did come from the guarantor's phone, and whose consent is
 * recorded (by the page then, or by the background job): the guarantor who comes back to the page
 * long after sending it reads 'Excelente', not 'Lo sentimos' (issue 27).
 */
async function consentedThrough(app: FastifyInstance, session: { key: string } | { id: string }) {
  const [row] = await app.db
    .select({ id: reverseOtpSessions.id })
    .from(reverseOtpSessions)
    .innerJoin(avals, eq(avals.id, reverseOtpSessions.avalId))
    .where(
      and(
        'key' in session
          ? eq(reverseOtpSessions.keyHash, sessionKeyHash(session.key))
          : eq(reverseOtpSessions.id, session.id),
        eq(reverseOtpSessions.status, 'VERIFIED'),
        eq(avals.phoneE164, reverseOtpSessions.phoneE164),
        inArray(avals.status, ['CONSENTED', 'APPROVED', 'REFUSED']),
      ),
    )
    .limit(1);
  return !!row;
}

/**
 * Remote consents whose message arrived while nobody was on the page to ask: each verified
 * guarantor session of a guarantor still PENDING is recorded as the page would have (the IP the
 * session was started from). Run in the background with the bureau worker's interval.
 */
export async function processVerifiedRemoteConsents(app: FastifyInstance, limit = 20): Promise<number> {
  // Only sessions still within their time (reverseOtpState): one whose consent could not be recorded
  // (the application moved on) is not picked again every run, and never holds newer ones back.
  const since = new Date(app.clock().getTime() - app.config.REVERSE_OTP_TTL_SECONDS * 1000);
  const verified = await app.db
    .select({ id: reverseOtpSessions.id, ip: reverseOtpSessions.observedIp })
    .from(reverseOtpSessions)
    .innerJoin(avals, eq(avals.id, reverseOtpSessions.avalId))
    .where(
      and(
        eq(reverseOtpSessions.status, 'VERIFIED'),
        eq(avals.status, 'PENDING'),
        gte(reverseOtpSessions.resolvedAt, since),
      ),
    )
    .orderBy(desc(reverseOtpSessions.resolvedAt))
    .limit(limit);
  for (const session of verified)
    await validateRemoteConsent(app, { id: session.id }, { ip: session.ip, userAgent: undefined });
  return verified.length;
}
