import { randomBytes } from 'node:crypto';
import type { Consents } from '@provee/domain';
import type { ClientAddress } from '../../client-address.js';
import type { Config } from '../../config.js';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { assertAt, engineOf, moveApplication, workUnderClaim, type ApplicationRow } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { consumeCode, issueCode } from '../one-time-codes/index.js';
import { findUserById, type UserRow } from '../users/index.js';
import { queryBureauBriefly } from './bureau.js';
import { consentPersonCipher } from './bureau-person.js';
import type { BureauDeps } from './deps.js';
import { insertBureauQuery } from './bureau-queries.store.js';
import { attemptLeaseMs, BUREAU_QUERY_JOB, scheduleAttempt } from './bureau-schedule.js';
import { CONSENT_VERSION, CONSENT_YEARS, consentText, sha256, type ConsentPerson } from './consent-text.js';
import { insertConsent, listConsentsOf } from './consents.store.js';
import type { CodeDeps, CreditDeps } from './deps.js';

/** The authorisation in force: its version, text and the hash the screen sends back. */
export function currentConsentText(deps: { config: Pick<Config, 'LENDER_NAME'> }, person: ConsentPerson = 'titular') {
  const text = consentText(deps.config.LENDER_NAME, person);
  return { version: CONSENT_VERSION, text, sha256: sha256(text) };
}

/** Sends the 4-digit consultation PIN; ACCOUNT_NIP becomes ACCOUNT_BUREAU (SPEC §2.2), a resend stays there. */
export async function sendConsentNip(deps: CodeDeps, user: UserRow) {
  const engine = engineOf(deps);
  const resend = user.nextStep === 'ACCOUNT_BUREAU' && user.status === 'IN_PROGRESS';
  const event = { type: 'consent.nip_sent', payload: { resend } };
  // The first send moves the application before anything is sent, so parallel sends give one SMS
  // and 409s; a resend stays at ACCOUNT_BUREAU, limited by the code's resend interval, and is
  // recorded only once its code is issued (a resend refused by the interval sent nothing).
  if (!resend)
    await moveApplication(engine, { userId: user.id, transition: 'nip-sent', actor: `user:${user.id}`, event });
  const issued = await issueCode(deps, {
    phoneE164: user.phoneE164,
    purpose: 'consent-nip',
    applicationId: user.id,
    message: (code) =>
      `${code} es tu NIP de consulta de ${deps.config.APP_NAME}. Con él autorizas la consulta de tu historial crediticio. No lo compartas.`,
  });
  if (resend)
    await appendAuditEvent(deps.db, { applicationId: user.id, actor: `user:${user.id}`, ...event, at: deps.clock() });
  return { ...issued, defaultNip: deps.config.NIP_PREFILL ? issued.code : undefined };
}

/** The folio the bureau is asked under: PRV-<date>-<10 hex>. */
export function consentFolio(now: Date): string {
  return `PRV-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(5).toString('hex').toUpperCase()}`;
}

/**
 * The consent record (append-only) and its bureau query, in the caller's transaction: the
 * shopkeeper's own (`avalId` null, person type 'titular') or a guarantor's ('collateral'). The
 * query's job is enqueued with them, held back until the first attempt (the caller's, right after
 * the commit) has had its lease: it finds the query answered or retried by then, or takes it if
 * the process died before the attempt ended.
 */
export async function writeConsent(
  deps: Pick<BureauDeps, 'cipher' | 'bureau'> & { config: Pick<Config, 'LENDER_NAME' | 'BUREAU_TIMEOUT_MS'> },
  tx: Tx,
  input: {
    userId: string;
    avalId: string | null;
    folio: string;
    ip: string;
    /** The connection's address and the forwarded chain (client-address.ts); null when not known. */
    peerIp?: string | null | undefined;
    forwardedFor?: string | null | undefined;
    userAgent: string | undefined;
    pinVerified: boolean;
    /**
     * The code the person returned to consent: the PIN typed, or the nonce a guarantor's own phone
     * sent (reverse OTP). Kept, encrypted, only where the bureau audits consents (Círculo's NIP audit).
     */
    pin: string | null;
    now: Date;
  },
): Promise<{ consentId: string; queryId: string }> {
  const personType = input.avalId ? 'collateral' : 'titular';
  const consent = currentConsentText(deps, personType);
  const { now, folio } = input;
  const authorizedUntil = new Date(now);
  authorizedUntil.setUTCFullYear(authorizedUntil.getUTCFullYear() + CONSENT_YEARS);
  const consentId = await insertConsent(tx, {
    userId: input.userId,
    avalId: input.avalId,
    personType,
    consentText: consent.text,
    consentTextSha256: consent.sha256,
    consentVersion: consent.version,
    createdAt: now,
    ip: input.ip,
    peerIp: input.peerIp ?? null,
    forwardedFor: input.forwardedFor ?? null,
    userAgent: input.userAgent?.slice(0, 400) ?? null,
    pinVerified: input.pinVerified,
    // The consenting person's own key (decision 032).
    pinEncrypted:
      input.pin && deps.bureau.auditConsent ? (await consentPersonCipher(deps, tx, input)).encrypt(input.pin) : null,
    bureauFolio: folio,
    authorizedUntil,
  });
  const queryId = await insertBureauQuery(tx, { userId: input.userId, consentId, at: now });
  await scheduleAttempt(tx, BUREAU_QUERY_JOB, queryId, now, attemptLeaseMs(deps.config) / 1000);
  return { consentId, queryId };
}

export interface ConsentEvidence extends ClientAddress {
  userAgent: string | undefined;
  /** The hash of the text the screen showed; refused when the text changed meanwhile. */
  shownSha256: string | undefined;
}

/**
 * The PIN proves the consent. The consent row is written (with the folio the bureau will be asked
 * under) before any bureau call; then one attempt runs while the shopkeeper waits a little, and
 * the query's jobs take over if the bureau is slow or down.
 */
export async function confirmConsentNip(
  deps: CodeDeps & BureauDeps,
  user: UserRow,
  nip: string,
  evidence: ConsentEvidence,
): Promise<ApplicationRow> {
  const engine = engineOf(deps);
  await assertAt(engine, user, 'consent');
  const consent = currentConsentText(deps);
  if (evidence.shownSha256 && evidence.shownSha256 !== consent.sha256) {
    throw new AppError(
      409,
      'CONSENT_TEXT_CHANGED',
      'consent text changed',
      'El texto de la autorización cambió. Recarga la página y léelo de nuevo.',
    );
  }
  // Claimed first: a duplicate confirmation is a 409, not a second try at the PIN.
  const { claim } = await workUnderClaim(engine, user.id, 'consent', () =>
    consumeCode(deps, { phoneE164: user.phoneE164, purpose: 'consent-nip', code: nip }),
  );

  const now = deps.clock();
  const folio = consentFolio(now);
  const { result: queryId } = await moveApplication(engine, {
    userId: user.id,
    transition: 'consent',
    actor: `user:${user.id}`,
    claim,
    write: async (tx) =>
      (
        await writeConsent(deps, tx, {
          userId: user.id,
          avalId: null,
          folio,
          ip: evidence.ip,
          peerIp: evidence.peerIp,
          forwardedFor: evidence.forwardedFor,
          userAgent: evidence.userAgent,
          pinVerified: true,
          pin: nip,
          now,
        })
      ).queryId,
    event: {
      type: 'consent.given',
      payload: { folio, version: consent.version, sha256: consent.sha256, pin_verified: true },
    },
  });

  await queryBureauBriefly(deps, queryId);
  return (await findUserById(deps.db, user.id))!;
}

/** The application's consents as the owner's screen lists them, oldest first. */
export async function consentsOf(deps: Pick<CreditDeps, 'db'>, userId: string): Promise<Consents['data']> {
  const rows = await listConsentsOf(deps.db, userId);
  return rows.map((row) => ({
    id: row.id,
    person_type: row.personType,
    consent_version: row.consentVersion,
    consent_text: row.consentText,
    consent_text_sha256: row.consentTextSha256,
    created_at: row.createdAt.toISOString(),
    ip: row.ip,
    user_agent: row.userAgent,
    pin_verified: row.pinVerified,
    bureau_folio: row.bureauFolio,
    authorized_until: row.authorizedUntil.toISOString(),
  }));
}
