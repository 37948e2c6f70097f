import {
  BureauIntegrityError,
  BureauRefusedError,
  type BureauSubject,
  type ConsentEvidence,
} from '../../providers/bureau/index.js';
import { appendAuditEvent } from '../audit/index.js';
import type { JobKind } from '../jobs/index.js';
import { findBureauQuery } from './bureau-queries.store.js';
import {
  afterUnclaimed,
  attemptLeaseMs,
  CONSENT_AUDIT_JOB,
  scheduleAttempt,
  type DueRowJob,
} from './bureau-schedule.js';
import { errorKind, partyOfQuery, safeMessage } from './bureau.js';
import { consentPersonCipher } from './bureau-person.js';
import {
  claimConsentAudit,
  findConsentAudit,
  markConsentAuditAcknowledged,
  markConsentAuditFailed,
  type ConsentAuditRow,
} from './consent-audits.store.js';
import { findConsentEvidence } from './consents.store.js';
import type { BureauDeps } from './deps.js';

/**
 * After a query a bureau answered, the consent's evidence goes to the bureau (Círculo's NIP audit:
 * the folio, when the person approved and was queried, the PIN they typed). It is retried with the
 * bureau's back-off until acknowledged, never dropped; a refusal of the evidence as sent stops it
 * for an analyst to see (REFUSED). False when the audit was not there to claim.
 */
export async function runConsentAudit(deps: BureauDeps, auditId: string): Promise<boolean> {
  const { bureau, config } = deps;
  // A bureau that no longer audits (the configuration changed): the audit waits for one that does.
  if (!bureau.auditConsent) return false;
  const now = deps.clock();
  const claimed = await claimConsentAudit(deps.db, auditId, now, new Date(now.getTime() + attemptLeaseMs(config)));
  if (!claimed) return false;
  const attempt = claimed.attempts + 1;
  let evidence: ConsentEvidence | undefined;
  try {
    evidence = await evidenceOf(deps, claimed);
    const auditFolio = await bureau.auditConsent(evidence, AbortSignal.timeout(config.BUREAU_TIMEOUT_MS));
    await acknowledge(deps, claimed, attempt, auditFolio, false);
  } catch (error) {
    // The folio was audited already: an earlier attempt reached Círculo and its answer was lost
    // (a timeout, a crash). The evidence is there; the audit is done.
    if (evidence && error instanceof BureauRefusedError && error.codes.some((code) => code.codigo === '400.6'))
      await acknowledge(deps, claimed, attempt, evidence.reportFolio, true);
    else await recordAuditFailure(deps, claimed, attempt, error);
  }
  return true;
}

/**
 * The queue's side of a consent audit: one job per time it is due (the answer's, each retry's),
 * which runs the attempt if the audit is still due then.
 */
export function consentAuditJob(deps: BureauDeps): JobKind<DueRowJob> {
  return {
    name: CONSENT_AUDIT_JOB,
    retryLimit: 10,
    expireInSeconds: Math.ceil(attemptLeaseMs(deps.config) / 1000) + 60,
    async run(job) {
      if (await runConsentAudit(deps, job.id)) return;
      afterUnclaimed(await findConsentAudit(deps.db, job.id), job);
    },
  };
}

async function acknowledge(
  deps: BureauDeps,
  audit: ConsentAuditRow,
  attempt: number,
  auditFolio: string,
  before: boolean,
) {
  const at = deps.clock();
  await deps.db.transaction(async (tx) => {
    if (await markConsentAuditAcknowledged(tx, audit, { attempts: attempt, auditFolio, at }))
      await appendAuditEvent(tx, {
        applicationId: audit.userId,
        actor: 'system',
        type: 'bureau.consent_audited',
        payload: { query_id: audit.queryId, audit_folio: auditFolio, ...(before ? { acknowledged_before: true } : {}) },
        at,
      });
  });
  deps.log.info({ auditId: audit.id, attempt }, 'bureau consent audit acknowledged');
}

/**
 * Refused as sent when the bureau says the evidence itself is wrong (400, 404) or it cannot be built
 * (status 0: refused here); credentials or signature refused (401, 403), an answer that did not
 * verify and every outage are tried again: the evidence is owed, never dropped.
 */
const evidenceRefused = (error: unknown) =>
  error instanceof BureauRefusedError && [0, 400, 404, 409, 422].includes(error.status);

async function recordAuditFailure(deps: BureauDeps, audit: ConsentAuditRow, attempt: number, error: unknown) {
  const { config } = deps;
  const refused = evidenceRefused(error);
  const delay = Math.min(config.BUREAU_RETRY_MAX_MS, config.BUREAU_RETRY_BASE_MS * 2 ** Math.min(attempt - 1, 20));
  const message = safeMessage(error);
  const codes = error instanceof BureauRefusedError ? error.codes.slice(0, 10) : [];
  const at = deps.clock();
  if (refused) deps.log.error({ auditId: audit.id, attempt, codes }, 'bureau refused the consent audit');
  else if (error instanceof BureauRefusedError || error instanceof BureauIntegrityError)
    deps.log.error(
      { auditId: audit.id, attempt, codes },
      'bureau consent audit failed (configuration?); tried again later',
    );
  else
    deps.log.warn(
      { auditId: audit.id, attempt, error: errorKind(error) },
      'bureau consent audit failed; tried again later',
    );
  await deps.db.transaction(async (tx) => {
    const nextAttemptAt = new Date(at.getTime() + delay);
    const moved = await markConsentAuditFailed(tx, audit, {
      refused,
      attempts: attempt,
      nextAttemptAt,
      lastError: message.slice(0, 500),
      at,
    });
    if (moved && !refused) await scheduleAttempt(tx, CONSENT_AUDIT_JOB, audit.id, nextAttemptAt, delay / 1000);
    if (moved && refused)
      await appendAuditEvent(tx, {
        applicationId: audit.userId,
        actor: 'system',
        type: 'bureau.consent_audit_refused',
        payload: { query_id: audit.queryId, last_error: message.slice(0, 200), codes },
        at,
      });
  });
}

/** The evidence of the consent behind the audit's query, as the bureau was asked. */
async function evidenceOf(deps: BureauDeps, audit: ConsentAuditRow): Promise<ConsentEvidence> {
  const query = await findBureauQuery(deps.db, audit.queryId);
  const consent = query && (await findConsentEvidence(deps.db, query.consentId));
  const reportFolio = query?.report?.folio;
  if (!query || !consent || typeof reportFolio !== 'string') throw new Error('consent audit without its query');
  if (!consent.pinEncrypted)
    throw new BureauRefusedError('el consentimiento no guardó el NIP para la auditoría', 0, [
      { codigo: 'numeroFirma', mensaje: 'El consentimiento no tiene NIP.' },
    ]);
  const own = await consentPersonCipher(deps, deps.db, consent);
  // The person as the bureau was asked; a query answered before that was kept: as they are now.
  const subject = query.subjectEncrypted
    ? (JSON.parse(own.decrypt(query.subjectEncrypted)) as BureauSubject)
    : (await partyOfQuery(deps, query, 1)).subject;
  return {
    subject,
    reportFolio,
    queriedAt: audit.createdAt,
    approvedAt: consent.createdAt,
    pin: own.decrypt(consent.pinEncrypted),
    pinVerified: consent.pinVerified,
  };
}
