import { SIGNER_STATE_OF, type VerificationStatus } from '@provee/domain';
import type { Tx } from '../../db/client.js';
import { simulatedAnswer } from '../../providers/identity/index.js';
import { engineOf, moveSigner, SignerConflict } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import type { JobKind } from '../jobs/index.js';
import { answered } from './answer-signals.js';
import { findCheck, findSigner, recordCheckAnswer, type CheckRow } from './checks.store.js';
import { identityAnswerDelay, identityAnswers } from '../../observability/metrics.js';
import type { IdentityDeps } from './deps.js';
import { SIMULATED_ANSWER_JOB, signerTaxId } from './identity-check.js';

type AnswerDeps = Pick<IdentityDeps, 'db' | 'clock' | 'config'>;
type Outcome = 'applied' | 'superseded' | 'already' | 'unknown';

/** How an answer's author names a verifier (`provider:metamap`); a person is `staff:<id>`. */
const PROVIDER_ACTOR = 'provider:';

/**
 * The verifier's answer (simulator, webhook or, later, a person at the lender), or the decision on
 * a check under review. Moves the signer only if this is still the signer's current check; an
 * answer for a superseded check is recorded on the check alone. `within` runs in the transaction
 * that records the answer (the webhook records its delivery there).
 */
export async function answerCheck(
  deps: AnswerDeps,
  verificationId: string,
  status: VerificationStatus,
  by: string,
  answer: Record<string, unknown>,
  identityId: string | null = null,
  within?: (tx: Tx) => Promise<void>,
): Promise<Outcome> {
  const check = await findCheck(deps.db, verificationId);
  if (!check) return 'unknown';
  // A check sent to review is decided once more, by a person (the provider's dashboard or, later,
  // the back office); any other answered check is final.
  const reviewed = check.status === 'UNDER_REVIEW' && status !== 'UNDER_REVIEW';
  if (check.status !== 'PENDING' && !reviewed) return 'already';
  const now = deps.clock();
  const record = (tx: Tx) =>
    recordCheckAnswer(tx, verificationId, check.status, {
      status,
      answeredAt: now,
      answeredBy: by,
      answer,
      ...(identityId ? { identityId } : {}),
    });
  const given: Answer = { check, status, by, identityId, reviewed, record, within };
  const outcome = (await moveCurrentSigner(deps, given)) ? 'applied' : await recordSuperseded(deps, given, now);
  if (outcome !== 'already' && !reviewed) countProviderAnswer(by, status, check.createdAt, now);
  return outcome;
}

/**
 * A verifier's first answer to a check, recorded (the metrics). Not a person's decision in the back
 * office, nor the decision on a check under review (its delay would be the reviewer's).
 */
function countProviderAnswer(by: string, status: VerificationStatus, startedAt: Date, now: Date): void {
  if (!by.startsWith(PROVIDER_ACTOR)) return;
  const provider = by.slice(PROVIDER_ACTOR.length);
  identityAnswers.inc({ provider, status });
  identityAnswerDelay.observe({ provider }, Math.max(0, (now.getTime() - startedAt.getTime()) / 1000));
}

interface Answer {
  check: CheckRow;
  status: VerificationStatus;
  by: string;
  identityId: string | null;
  reviewed: boolean;
  /** Writes the answer on the check; false when another answer came first. */
  record: (tx: Tx) => Promise<boolean>;
  within: ((tx: Tx) => Promise<void>) | undefined;
}

/** The answer of the signer's current check moves the signer (false: the check is not current any more). */
async function moveCurrentSigner(
  deps: AnswerDeps,
  { check, status, by, identityId, reviewed, record, within }: Answer,
) {
  try {
    await moveSigner(engineOf(deps), {
      signerId: check.signerId,
      transition: reviewed ? 'review-decided' : 'verification-answered',
      to: SIGNER_STATE_OF[status],
      actor: by,
      currentVerificationId: check.id,
      set: { lastVerificationStatus: status, ...(identityId ? { identityId } : {}) },
      write: async (tx) => {
        if (!(await record(tx))) throw new SignerConflict(null);
        await within?.(tx);
      },
      event: {
        type: reviewed ? 'identity.review_decided' : 'identity.answered',
        payload: { verification_id: check.id, status },
      },
    });
  } catch (error) {
    if (error instanceof SignerConflict) return false;
    throw error;
  }
  // Committed: a review screen waiting on this signer answers now (signing's status-wait.ts).
  answered(check.signerId);
  return true;
}

/** The answer of a superseded check: recorded on the check alone, with its audit event. */
async function recordSuperseded(deps: AnswerDeps, { check, status, by, record, within }: Answer, now: Date) {
  return deps.db.transaction(async (tx): Promise<Outcome> => {
    if (!(await record(tx))) return 'already';
    await within?.(tx);
    const signer = await findSigner(tx, check.signerId);
    await appendAuditEvent(tx, {
      applicationId: signer!.userId,
      actor: by,
      type: 'identity.answer_superseded',
      payload: { verification_id: check.id, signer_id: check.signerId, status },
      at: now,
    });
    return 'superseded';
  });
}

/** A job a moment early by this process's clock: the queue tries it again. */
class AnswerNotYetDue extends Error {
  constructor() {
    super('la respuesta del simulador aún no vence: se intenta de nuevo');
    this.name = 'AnswerNotYetDue';
  }
}

/**
 * The verifier simulator's answer to a check, once due (a job of the check's transaction, held back
 * until then): from the signer's tax id, as the check's start foresaw; nothing for a check answered
 * meanwhile.
 */
export function simulatedAnswerJob(
  deps: Pick<IdentityDeps, 'db' | 'clock' | 'config' | 'cipher'>,
): JobKind<{ verification_id: string }> {
  return {
    name: SIMULATED_ANSWER_JOB,
    retryLimit: 10,
    expireInSeconds: 60,
    async run({ verification_id: id }) {
      const check = await findCheck(deps.db, id);
      if (check?.status !== 'PENDING' || check.provider !== 'simulator' || !check.answerDueAt) return;
      if (check.answerDueAt.getTime() > deps.clock().getTime()) throw new AnswerNotYetDue();
      const signer = await findSigner(deps.db, check.signerId);
      const taxId = signer ? await signerTaxId(deps, signer) : null;
      const status = taxId ? simulatedAnswer(deps.config.COUNTRY, taxId) : 'APPROVED';
      if (!status) return;
      await answerCheck(
        deps,
        check.id,
        status,
        `${PROVIDER_ACTOR}simulator`,
        { simulated: true },
        `sim-${check.signerId}`,
      );
    },
  };
}
