import { randomBytes, randomUUID } from 'node:crypto';
import { AVAL_STEPS, ageOn, countryToday, getCountry, type AvalType } from '@provee/domain';
import { and, desc, eq, isNull, lt, lte, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ClientAddress } from '../../client-address.js';
import {
  avals,
  bureauConsents,
  bureauQueries,
  businessAddresses,
  businesses,
  catalogMunicipalities,
  catalogSalesRanges,
  creditDecisions,
  users,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { BureauError, type BureauReport } from '../../providers/bureau/index.js';
import {
  assertAt,
  claimStep,
  engineOf,
  moveApplication,
  releaseClaim,
  StepConflict,
  type ApplicationRow,
} from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { consumeCode, issueCode } from '../one-time-codes/index.js';
import { sendSms } from '../sms/index.js';
import type { UserRow } from '../users/index.js';
import type { Tx } from '../../db/client.js';
import { CONSENT_VERSION, CONSENT_YEARS, consentText, sha256, type ConsentPerson } from './consent-text.js';
import { evaluate, evaluateGuarantor, type DecisionInputs } from './policy.js';

export function currentConsentText(app: FastifyInstance, person: ConsentPerson = 'titular') {
  const text = consentText(app.config.LENDER_NAME, person);
  return { version: CONSENT_VERSION, text, sha256: sha256(text) };
}

/** Sends the 4-digit consultation PIN; ACCOUNT_NIP becomes ACCOUNT_BUREAU (SPEC §2.2), a resend stays there. */
export async function sendConsentNip(app: FastifyInstance, user: UserRow) {
  const engine = engineOf(app);
  const resend = user.nextStep === 'ACCOUNT_BUREAU' && user.status === 'IN_PROGRESS';
  const event = { type: 'consent.nip_sent', payload: { resend } };
  // The first send moves the application before anything is sent, so parallel sends give one SMS
  // and 409s; a resend stays at ACCOUNT_BUREAU, limited by the code's resend interval, and is
  // recorded only once its code is issued (a resend refused by the interval sent nothing).
  if (!resend)
    await moveApplication(engine, { userId: user.id, transition: 'nip-sent', actor: `user:${user.id}`, event });
  const issued = await issueCode(app, { phoneE164: user.phoneE164, purpose: 'consent-nip' });
  if (resend)
    await appendAuditEvent(app.db, { applicationId: user.id, actor: `user:${user.id}`, ...event, at: app.clock() });
  await sendSms(
    app,
    user.phoneE164,
    `${issued.code} es tu NIP de consulta de ${app.config.APP_NAME}. Con él autorizas la consulta de tu historial crediticio. No lo compartas.`,
  );
  return { ...issued, defaultNip: app.config.NIP_PREFILL ? issued.code : undefined };
}

/** The folio the bureau is asked under: PRV-<date>-<10 hex>. */
export function consentFolio(now: Date): string {
  return `PRV-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(5).toString('hex').toUpperCase()}`;
}

/**
 * The consent record (append-only) and its bureau query, in the caller's transaction: the
 * shopkeeper's own (`avalId` null, person type 'titular') or a guarantor's ('collateral').
 */
export async function writeConsent(
  app: FastifyInstance,
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
    now: Date;
  },
): Promise<{ consentId: string; queryId: string }> {
  const consent = currentConsentText(app, input.avalId ? 'collateral' : 'titular');
  const { now, folio } = input;
  const authorizedUntil = new Date(now);
  authorizedUntil.setUTCFullYear(authorizedUntil.getUTCFullYear() + CONSENT_YEARS);
  const [row] = await tx
    .insert(bureauConsents)
    .values({
      userId: input.userId,
      avalId: input.avalId,
      personType: input.avalId ? 'collateral' : 'titular',
      consentText: consent.text,
      consentTextSha256: consent.sha256,
      consentVersion: consent.version,
      createdAt: now,
      ip: input.ip,
      peerIp: input.peerIp ?? null,
      forwardedFor: input.forwardedFor ?? null,
      userAgent: input.userAgent?.slice(0, 400) ?? null,
      pinVerified: input.pinVerified,
      bureauFolio: folio,
      authorizedUntil,
    })
    .returning({ id: bureauConsents.id });
  const [query] = await tx
    .insert(bureauQueries)
    .values({
      userId: input.userId,
      consentId: row!.id,
      status: 'PENDING',
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: bureauQueries.id });
  return { consentId: row!.id, queryId: query!.id };
}

/** One bureau attempt while the caller waits up to BUREAU_SYNC_WAIT_MS; the worker finishes otherwise. */
export async function queryBureauBriefly(app: FastifyInstance, queryId: string): Promise<void> {
  const attempt = runBureauAttempt(app, queryId);
  await Promise.race([attempt, new Promise((resolve) => setTimeout(resolve, app.config.BUREAU_SYNC_WAIT_MS))]);
}

export interface ConsentEvidence extends ClientAddress {
  userAgent: string | undefined;
  /** The hash of the text the screen showed; refused when the text changed meanwhile. */
  shownSha256: string | undefined;
}

/**
 * The PIN proves the consent. The consent row is written (with the folio the bureau will be asked
 * under) before any bureau call; then one attempt runs while the shopkeeper waits a little, and
 * the background worker takes over if the bureau is slow or down.
 */
export async function confirmConsentNip(
  app: FastifyInstance,
  user: UserRow,
  nip: string,
  evidence: ConsentEvidence,
): Promise<ApplicationRow> {
  const engine = engineOf(app);
  await assertAt(engine, user, 'consent');
  const consent = currentConsentText(app);
  if (evidence.shownSha256 && evidence.shownSha256 !== consent.sha256) {
    throw new AppError(
      409,
      'CONSENT_TEXT_CHANGED',
      'consent text changed',
      'El texto de la autorización cambió. Recarga la página y léelo de nuevo.',
    );
  }
  // Claimed first: a duplicate confirmation is a 409, not a second try at the PIN.
  const claim = await claimStep(engine, user.id, 'consent');
  try {
    await consumeCode(app, { phoneE164: user.phoneE164, purpose: 'consent-nip', code: nip });
  } catch (error) {
    await releaseClaim(engine, user.id, claim);
    throw error;
  }

  const now = app.clock();
  const folio = consentFolio(now);
  const { result: queryId } = await moveApplication(engine, {
    userId: user.id,
    transition: 'consent',
    actor: `user:${user.id}`,
    claim,
    write: async (tx) =>
      (
        await writeConsent(app, tx, {
          userId: user.id,
          avalId: null,
          folio,
          ip: evidence.ip,
          peerIp: evidence.peerIp,
          forwardedFor: evidence.forwardedFor,
          userAgent: evidence.userAgent,
          pinVerified: true,
          now,
        })
      ).queryId,
    event: {
      type: 'consent.given',
      payload: { folio, version: consent.version, sha256: consent.sha256, pin_verified: true },
    },
  });

  await queryBureauBriefly(app, queryId);
  const [latest] = await app.db.select().from(users).where(eq(users.id, user.id)).limit(1);
  return latest!;
}

/**
 * One try at the bureau for a due query. The claim (an UPDATE with a lease) makes sure two
 * processes never query twice at once; a failure schedules the next try with back-off.
 */
export async function runBureauAttempt(app: FastifyInstance, queryId: string): Promise<void> {
  const { config } = app;
  const now = app.clock();
  const [claimed] = await app.db
    .update(bureauQueries)
    .set({ status: 'RUNNING', lockedUntil: new Date(now.getTime() + config.BUREAU_TIMEOUT_MS + 5_000), updatedAt: now })
    .where(
      and(
        eq(bureauQueries.id, queryId),
        or(
          and(eq(bureauQueries.status, 'PENDING'), lte(bureauQueries.nextAttemptAt, now)),
          and(eq(bureauQueries.status, 'RUNNING'), lt(bureauQueries.lockedUntil, now)),
        ),
      ),
    )
    .returning();
  if (!claimed) return;
  const attempt = claimed.attempts + 1;
  // Every bureau call is logged (ids only): a query costs the lender, and the logs of all the
  // processes together show that no query ran twice (npm run scale-test).
  app.log.info({ queryId, attempt }, 'bureau attempt started');
  try {
    const subject = await bureauSubject(app, claimed.userId, claimed.consentId, attempt);
    const report = await app.bureau.query(subject, AbortSignal.timeout(config.BUREAU_TIMEOUT_MS));
    await decide(app, claimed.id, claimed.userId, claimed.consentId, attempt, report);
    app.log.info({ queryId, attempt }, 'bureau answered');
  } catch (error) {
    const exhausted = attempt >= config.BUREAU_MAX_ATTEMPTS;
    const delay = Math.min(config.BUREAU_RETRY_MAX_MS, config.BUREAU_RETRY_BASE_MS * 2 ** (attempt - 1));
    const message = error instanceof Error ? error.message : String(error);
    const failedAt = app.clock();
    // Logged before the claim is released: no other process's attempt can start before this line.
    if (error instanceof BureauError) app.log.warn({ queryId, attempt, exhausted }, 'bureau query failed');
    else app.log.error({ err: error, queryId, attempt }, 'bureau attempt failed unexpectedly');
    await app.db.transaction(async (tx) => {
      await tx
        .update(bureauQueries)
        .set({
          status: exhausted ? 'FAILED' : 'PENDING',
          attempts: attempt,
          nextAttemptAt: new Date(failedAt.getTime() + delay),
          lockedUntil: null,
          lastError: message.slice(0, 500),
          updatedAt: failedAt,
        })
        .where(eq(bureauQueries.id, claimed.id));
      if (exhausted) {
        const payload = { query_id: claimed.id, attempts: attempt, last_error: message.slice(0, 200) };
        await appendAuditEvent(tx, {
          applicationId: claimed.userId,
          actor: 'system',
          type: 'bureau.gave_up',
          payload,
          at: failedAt,
        });
      }
    });
  }
}

async function bureauSubject(app: FastifyInstance, userId: string, consentId: string, attempt: number) {
  const [row] = await app.db
    .select({ user: users, folio: bureauConsents.bureauFolio, aval: avals })
    .from(users)
    .innerJoin(bureauConsents, eq(bureauConsents.id, consentId))
    .leftJoin(avals, eq(avals.id, bureauConsents.avalId))
    .where(eq(users.id, userId))
    .limit(1);
  if (row?.aval) {
    // A guarantor: asked under their own tax id and name (the bureau keys on the tax id).
    if (!row.aval.taxIdEncrypted) throw new Error('guarantor without tax id');
    return {
      country: app.config.COUNTRY,
      taxId: app.cipher.decrypt(row.aval.taxIdEncrypted),
      name: row.aval.name ?? '',
      lastname: '',
      maternalLastname: null,
      dob: '',
      consentFolio: row.folio,
      attempt,
    };
  }
  if (!row?.user.taxIdEncrypted || !row.user.dobEncrypted) throw new Error('application without tax id or birth date');
  const { user } = row;
  return {
    country: app.config.COUNTRY,
    taxId: app.cipher.decrypt(user.taxIdEncrypted!),
    name: user.name ?? '',
    lastname: user.lastname ?? '',
    maternalLastname: user.maternalLastname,
    dob: app.cipher.decrypt(user.dobEncrypted!),
    consentFolio: row.folio,
    attempt,
  };
}

async function decisionInputs(
  app: FastifyInstance,
  userId: string,
  dob: string,
  report: BureauReport,
): Promise<DecisionInputs> {
  const [row] = await app.db
    .select({
      city: businessAddresses.city,
      allowed: catalogMunicipalities.allowed,
      businessAge: businesses.businessAgeYears,
      salesPosition: catalogSalesRanges.position,
    })
    .from(users)
    .leftJoin(businessAddresses, eq(businessAddresses.userId, users.id))
    .leftJoin(catalogMunicipalities, eq(catalogMunicipalities.id, businessAddresses.municipalityId))
    .leftJoin(businesses, eq(businesses.userId, users.id))
    .leftJoin(catalogSalesRanges, eq(catalogSalesRanges.id, businesses.salesRangeId))
    .where(eq(users.id, userId))
    .limit(1);
  return {
    age: ageOn(dob, countryToday(getCountry(app.config.COUNTRY), app.clock())),
    city: row?.city ?? '',
    city_allowed: row?.allowed ?? false,
    business_age_years: row?.businessAge ?? 0,
    sales_range: (row?.salesPosition ?? -1) + 1,
    score: report.score,
    delinquencies: report.delinquencies,
    open_accounts: report.open_accounts,
    recent_inquiries: report.recent_inquiries,
    thin_file: report.score === null,
  };
}

/** The policy's decision, stored with its inputs and every rule's outcome; the application moves on. */
async function decide(
  app: FastifyInstance,
  queryId: string,
  userId: string,
  consentId: string,
  attempt: number,
  report: BureauReport,
) {
  const [consent] = await app.db
    .select({ avalId: bureauConsents.avalId })
    .from(bureauConsents)
    .where(eq(bureauConsents.id, consentId))
    .limit(1);
  if (consent?.avalId) return decideGuarantor(app, queryId, userId, consentId, consent.avalId, attempt, report);
  const [user] = await app.db.select().from(users).where(eq(users.id, userId)).limit(1);
  const inputs = await decisionInputs(app, userId, app.cipher.decrypt(user!.dobEncrypted!), report);
  const evaluation = evaluate(app.policy, inputs);
  const currency = getCountry(app.config.COUNTRY).currency;
  const now = app.clock();
  const done = {
    status: 'DONE',
    attempts: attempt,
    report: { ...report },
    lockedUntil: null,
    lastError: null,
    updatedAt: now,
  };
  const decisionId = randomUUID();
  try {
    await moveApplication(engineOf(app), {
      userId,
      transition: 'decision',
      to: { step: 'PASSWORD', status: evaluation.result === 'APPROVED' ? 'IN_PROGRESS' : 'REJECTED' },
      actor: 'system',
      write: async (tx) => {
        await tx.insert(creditDecisions).values({
          id: decisionId,
          userId,
          consentId,
          policyVersion: app.policy.version,
          inputs: { ...inputs },
          rules: evaluation.rules,
          result: evaluation.result,
          amount: evaluation.amount,
          currency,
          bureauReportFolio: report.folio,
          createdAt: now,
        });
        await tx.update(bureauQueries).set(done).where(eq(bureauQueries.id, queryId));
      },
      event: {
        type: 'decision.made',
        payload: {
          decision_id: decisionId,
          result: evaluation.result,
          amount: evaluation.amount,
          currency,
          policy_version: app.policy.version,
          bureau_report_folio: report.folio,
        },
      },
    });
  } catch (error) {
    if (!(error instanceof StepConflict)) throw error;
    // Decided already (another process, or an operator): keep the report, make no second decision.
    await app.db.update(bureauQueries).set(done).where(eq(bureauQueries.id, queryId));
  }
}

/**
 * The policy's guarantor rules on a guarantor's bureau answer: approved, the application waits for
 * the lender (PENDING_APPROVAL); refused, it asks for another partner or collateral guarantor.
 */
async function decideGuarantor(
  app: FastifyInstance,
  queryId: string,
  userId: string,
  consentId: string,
  avalId: string,
  attempt: number,
  report: BureauReport,
) {
  const [aval] = await app.db.select().from(avals).where(eq(avals.id, avalId)).limit(1);
  const type = aval!.avalType as AvalType;
  const steps = AVAL_STEPS[type];
  const inputs = { score: report.score, delinquencies: report.delinquencies, thin_file: report.score === null };
  const evaluation = evaluateGuarantor(app.policy, inputs);
  const approved = evaluation.result === 'APPROVED';
  const now = app.clock();
  const done = {
    status: 'DONE',
    attempts: attempt,
    report: { ...report },
    lockedUntil: null,
    lastError: null,
    updatedAt: now,
  };
  const decisionId = randomUUID();
  try {
    await moveApplication(engineOf(app), {
      userId,
      transition: steps.decision,
      to: { step: approved ? 'PENDING_APPROVAL' : steps.refused, status: 'IN_PROGRESS' },
      actor: 'system',
      write: async (tx) => {
        await tx.insert(creditDecisions).values({
          id: decisionId,
          userId,
          consentId,
          avalId,
          policyVersion: app.policy.version,
          inputs: { ...inputs },
          rules: evaluation.rules,
          result: evaluation.result,
          amount: 0,
          currency: getCountry(app.config.COUNTRY).currency,
          bureauReportFolio: report.folio,
          createdAt: now,
        });
        await tx.update(bureauQueries).set(done).where(eq(bureauQueries.id, queryId));
        await tx
          .update(avals)
          .set({ status: approved ? 'APPROVED' : 'REFUSED', updatedAt: now })
          .where(eq(avals.id, avalId));
      },
      event: {
        type: 'guarantor.decision_made',
        payload: {
          decision_id: decisionId,
          aval_id: avalId,
          aval_type: type,
          result: evaluation.result,
          policy_version: app.policy.version,
          bureau_report_folio: report.folio,
        },
      },
    });
  } catch (error) {
    if (!(error instanceof StepConflict)) throw error;
    await app.db.update(bureauQueries).set(done).where(eq(bureauQueries.id, queryId));
  }
}

/** Queries whose next try is due (or whose runner died): what the background worker picks up. */
export async function processDueBureauQueries(app: FastifyInstance, limit = 10): Promise<number> {
  const now = app.clock();
  const due = await app.db
    .select({ id: bureauQueries.id })
    .from(bureauQueries)
    .where(
      or(
        and(eq(bureauQueries.status, 'PENDING'), lte(bureauQueries.nextAttemptAt, now)),
        and(eq(bureauQueries.status, 'RUNNING'), lt(bureauQueries.lockedUntil, now)),
      ),
    )
    .orderBy(bureauQueries.nextAttemptAt)
    .limit(limit);
  for (const { id } of due) await runBureauAttempt(app, id);
  return due.length;
}

export async function latestApprovedDecision(app: FastifyInstance, userId: string) {
  const [decision] = await app.db
    .select({ amount: creditDecisions.amount, currency: creditDecisions.currency })
    .from(creditDecisions)
    .where(
      and(eq(creditDecisions.userId, userId), isNull(creditDecisions.avalId), eq(creditDecisions.result, 'APPROVED')),
    )
    .orderBy(desc(creditDecisions.createdAt))
    .limit(1);
  return decision ?? null;
}
