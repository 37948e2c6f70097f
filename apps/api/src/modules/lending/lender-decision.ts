import {
  getCountry,
  LENDER_TRANSITIONS,
  STEP_NAMES,
  type NextStep,
  type LenderDecisionBody,
  type LenderDecisionView,
  type LenderOutcome,
} from '@provee/domain';
import { AppError, invalidFields } from '../../errors.js';
import { engineOf, moveApplication, StepConflict, type EngineDeps } from '../application/index.js';
import { latestApprovedDecision } from '../credit/index.js';
import type { JobQueue } from '../jobs/index.js';
import { findUserById } from '../users/index.js';
import type { Executor } from '../../db/client.js';
import {
  contractStanding,
  findLenderApproval,
  insertLenderDecision,
  listLenderDecisions,
  type LenderDecisionRow,
} from './lending.store.js';

/** What follows a lender's approval: the shopkeeper's signing invitation (a job the signing module runs). */
export const SIGNING_INVITATION_JOB = 'signing-invitation';

export interface LendingDeps extends EngineDeps {
  jobs: Pick<JobQueue, 'enqueue' | 'wake'>;
}

export function lendingDeps(app: Parameters<typeof engineOf>[0] & { jobs: JobQueue }): LendingDeps {
  return { ...engineOf(app), jobs: app.jobs };
}

/**
 * Why the decision cannot be recorded where the application stands, in the words of whoever
 * decides (an analyst, the lender's systems): the step engine's refusal is worded for the shopkeeper.
 */
function notNow(refusal: StepConflict, outcome: LenderOutcome): AppError {
  const current = (refusal.extra.current ?? {}) as { next_step?: NextStep; status?: string };
  const where = current.next_step ? `«${STEP_NAMES[current.next_step] ?? current.next_step}»` : 'otro paso';
  const rejected = current.status === 'REJECTED' ? ' (rechazada)' : '';
  const readable =
    outcome === 'DISBURSED'
      ? `Solo se marca como desembolsada una solicitud aprobada por el prestamista; esta está en ${where}${rejected}.`
      : `Solo se aprueba o rechaza una solicitud «${STEP_NAMES.PENDING_APPROVAL}»; esta está en ${where}${rejected}.`;
  return new AppError(409, 'LENDER_DECISION_NOT_NOW', 'not at the step this decision is for', readable, refusal.extra);
}

export function lenderDecisionView(row: LenderDecisionRow): LenderDecisionView {
  return {
    id: row.id,
    outcome: row.outcome,
    amount: row.amount,
    currency: row.currency,
    term_months: row.termMonths,
    annual_rate: row.annualRateBps === null ? null : row.annualRateBps / 100,
    reason: row.reason,
    reference: row.reference,
    decided_by: row.decidedBy,
    decided_at: row.createdAt.toISOString(),
  };
}

/** The decision's own columns: an approval's amount (at most the pre-approved one) and terms, a decline's reason. */
async function decisionColumns(deps: LendingDeps, userId: string, body: LenderDecisionBody) {
  switch (body.outcome) {
    case 'APPROVED': {
      const preApproved = await latestApprovedDecision(deps, userId);
      if (preApproved && body.amount > preApproved.amount)
        throw invalidFields({
          amount: `El monto no puede pasar del pre aprobado (${preApproved.amount.toLocaleString('es')} ${preApproved.currency}).`,
        });
      return {
        amount: body.amount,
        currency: getCountry(deps.country).currency,
        termMonths: body.term_months,
        annualRateBps: Math.round(body.annual_rate * 100),
      };
    }
    case 'DECLINED':
      return { reason: body.reason };
    case 'DISBURSED':
      return { reference: body.reference ?? null };
  }
}

const amountText = (amount: number, currency: string) => `${amount.toLocaleString('es')} ${currency}`;

/**
 * What the contract allows of this decision (in the move's transaction): an approval whose amount
 * is not the one a contract already signed says is refused (a signed document never changes); a
 * credit is disbursed only on a contract for the approved amount that the shopkeeper and every
 * guarantor it names signed.
 */
async function assertContractAllows(tx: Executor, userId: string, outcome: LenderOutcome, amount: number | null) {
  const contract = await contractStanding(tx, userId);
  if (outcome === 'APPROVED') {
    if (contract?.signedSha256 && contract.amount !== amount)
      throw new AppError(
        409,
        'CONTRACT_SIGNED_FOR_OTHER_AMOUNT',
        'a signed contract says another amount',
        `El contrato ya tiene firmas por ${amountText(contract.amount, contract.currency)}: aprueba ese monto, o rechaza la solicitud.`,
      );
    return;
  }
  if (outcome !== 'DISBURSED') return;
  const approval = await findLenderApproval(tx, userId);
  const everyoneSigned =
    !!contract &&
    contract.titularSigned &&
    contract.avalIds.every((avalId) => contract.guarantorsSigned.includes(avalId));
  if (!everyoneSigned)
    throw new AppError(
      409,
      'CONTRACT_NOT_SIGNED',
      'contract not signed by every signer',
      'Solo se desembolsa un crédito cuyo contrato firmaron el titular y todos sus avales.',
    );
  if (approval && contract.amount !== approval.amount)
    throw new AppError(
      409,
      'CONTRACT_FOR_OTHER_AMOUNT',
      'the signed contract is not for the approved amount',
      `El contrato firmado es por ${amountText(contract.amount, contract.currency)} y el crédito aprobado por ${amountText(approval.amount!, approval.currency!)}.`,
    );
}

/**
 * The lender's decision after PENDING_APPROVAL, by its systems (partner API) or an analyst (back
 * office): one move of the step engine with its row, its audit event (and so its webhook) and, for
 * an approval, the job that sends the signing invitation, all in one transaction. Two decisions at
 * once: one moves the application, the other gets a 409 with where it stands.
 */
export async function recordLenderDecision(
  deps: LendingDeps,
  userId: string,
  body: LenderDecisionBody,
  actor: string,
): Promise<{ decision: LenderDecisionView; row: Awaited<ReturnType<typeof moveApplication>>['row'] }> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError(404, 'APPLICATION_NOT_FOUND', 'application not found', 'No encontramos esa solicitud.');
  const columns = await decisionColumns(deps, userId, body);
  const now = deps.clock();
  const outcome: LenderOutcome = body.outcome;
  const moved = await moveApplication(deps, {
    userId,
    transition: LENDER_TRANSITIONS[outcome],
    actor,
    write: async (tx) => {
      await assertContractAllows(tx, userId, outcome, body.outcome === 'APPROVED' ? body.amount : null);
      const decision = await insertLenderDecision(tx, {
        userId,
        outcome,
        ...columns,
        decidedBy: actor,
        createdAt: now,
      });
      if (outcome === 'APPROVED') await deps.jobs.enqueue(tx, SIGNING_INVITATION_JOB, { user_id: userId });
      return lenderDecisionView(decision);
    },
    event: {
      type: 'lender.decision_recorded',
      payload: (decision) => ({
        lender_decision_id: decision.id,
        outcome: decision.outcome,
        amount: decision.amount,
        currency: decision.currency,
        term_months: decision.term_months,
        annual_rate: decision.annual_rate,
        reason: decision.reason,
        reference: decision.reference,
      }),
    },
  }).catch((error: unknown) => {
    throw error instanceof StepConflict ? notNow(error, outcome) : error;
  });
  if (outcome === 'APPROVED') deps.jobs.wake(SIGNING_INVITATION_JOB);
  return { decision: moved.result, row: moved.row };
}

export async function lenderDecisionsOf(deps: Pick<LendingDeps, 'db'>, userId: string): Promise<LenderDecisionView[]> {
  return (await listLenderDecisions(deps.db, userId)).map(lenderDecisionView);
}
