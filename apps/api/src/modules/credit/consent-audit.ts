import { BureauIntegrityError, BureauRefusedError, type ConsentEvidence } from '../../providers/bureau/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { findBureauQuery } from './bureau-queries.store.js';
import { partyOfQuery } from './bureau.js';
import {
  claimConsentAudit,
  listDueConsentAudits,
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
 * for an analyst to see (REFUSED).
 */
export async function runConsentAudit(deps: BureauDeps, auditId: string): Promise<void> {
  const { bureau, config } = deps;
  if (!bureau.auditConsent) return;
  const now = deps.clock();
  const claimed = await claimConsentAudit(
    deps.db,
    auditId,
    now,
    new Date(now.getTime() + config.BUREAU_TIMEOUT_MS + 5_000),
  );
  if (!claimed) return;
  const attempt = claimed.attempts + 1;
  try {
    const evidence = await evidenceOf(deps, claimed);
    const auditFolio = await bureau.auditConsent(evidence, AbortSignal.timeout(config.BUREAU_TIMEOUT_MS));
    const at = deps.clock();
    await deps.db.transaction(async (tx) => {
      if (await markConsentAuditAcknowledged(tx, claimed.id, { attempts: attempt, auditFolio, at }))
        await appendAuditEvent(tx, {
          applicationId: claimed.userId,
          actor: 'system',
          type: 'bureau.consent_audited',
          payload: { query_id: claimed.queryId, audit_folio: auditFolio },
          at,
        });
    });
    deps.log.info({ auditId, attempt }, 'bureau consent audit acknowledged');
  } catch (error) {
    await recordAuditFailure(deps, claimed, attempt, error);
  }
}

async function recordAuditFailure(deps: BureauDeps, audit: ConsentAuditRow, attempt: number, error: unknown) {
  const { config } = deps;
  const refused = error instanceof BureauRefusedError || error instanceof BureauIntegrityError;
  const delay = Math.min(config.BUREAU_RETRY_MAX_MS, config.BUREAU_RETRY_BASE_MS * 2 ** Math.min(attempt - 1, 20));
  const message = error instanceof Error ? error.message : String(error);
  const codes = error instanceof BureauRefusedError ? error.codes.slice(0, 10) : [];
  const at = deps.clock();
  if (refused) deps.log.error({ auditId: audit.id, attempt, codes }, 'bureau refused the consent audit');
  else deps.log.warn({ auditId: audit.id, attempt }, 'bureau consent audit failed; tried again later');
  await deps.db.transaction(async (tx) => {
    const moved = await markConsentAuditFailed(tx, audit.id, {
      refused,
      attempts: attempt,
      nextAttemptAt: new Date(at.getTime() + delay),
      lastError: message.slice(0, 500),
      at,
    });
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
  const { subject } = await partyOfQuery(deps, query, 1);
  return {
    subject,
    reportFolio,
    queriedAt: audit.createdAt,
    approvedAt: consent.createdAt,
    pin: deps.cipher.decrypt(consent.pinEncrypted),
    pinVerified: consent.pinVerified,
  };
}

/** Audits due now (or whose runner died): what the background worker picks up. */
export async function processDueConsentAudits(deps: BureauDeps, limit = 10): Promise<number> {
  const due = await listDueConsentAudits(deps.db, deps.clock(), limit);
  for (const id of due) await runConsentAudit(deps, id);
  return due.length;
}
