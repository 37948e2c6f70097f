import { randomUUID } from 'node:crypto';
import { AVAL_STEPS, ageOn, countryToday, getCountry, type AvalType } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import type { BureauReport } from '../../providers/bureau/index.js';
import { engineOf, moveApplication, StepConflict } from '../application/index.js';
import type { Applicant } from '../users/index.js';
import { markBureauQueryAnswered, type BureauQueryRow } from './bureau-queries.store.js';
import {
  findLatestApprovedDecision,
  insertDecision,
  isMunicipalityServed,
  salesRangePosition,
} from './decisions.store.js';
import type { BureauDeps, CreditDeps } from './deps.js';
import { evaluate, evaluateGuarantor, type DecisionInputs } from './policy.js';

/** A bureau query the bureau answered, on its attempt. */
interface Answered {
  query: BureauQueryRow;
  attempt: number;
  report: BureauReport;
}

/** What the policy reads: the applicant as they stand now and the bureau's answer. */
async function decisionInputs(deps: BureauDeps, applicant: Applicant, report: BureauReport): Promise<DecisionInputs> {
  const { address, business } = applicant;
  const [allowed, salesPosition] = await Promise.all([
    address?.municipalityId == null ? undefined : isMunicipalityServed(deps.db, address.municipalityId),
    business ? salesRangePosition(deps.db, business.salesRangeId) : undefined,
  ]);
  return {
    age: ageOn(applicant.person.birthDate!, countryToday(getCountry(deps.config.COUNTRY), deps.clock())),
    city: address?.city ?? '',
    city_allowed: allowed ?? false,
    business_age_years: business?.businessAgeYears ?? 0,
    sales_range: (salesPosition ?? -1) + 1,
    score: report.score,
    delinquencies: report.delinquencies,
    open_accounts: report.open_accounts,
    recent_inquiries: report.recent_inquiries,
    thin_file: report.score === null,
  };
}

/** The query's report is kept and the query ends, with the decision or (decided already) alone. */
const answer = (tx: Executor, { query, attempt, report }: Answered, at: Date) =>
  markBureauQueryAnswered(tx, query.id, { attempts: attempt, report: { ...report }, at });

/** The policy's decision, stored with its inputs and every rule's outcome; the application moves on. */
export async function decideApplicant(deps: BureauDeps, answered: Answered & { applicant: Applicant }) {
  const { query, report, applicant } = answered;
  const inputs = await decisionInputs(deps, applicant, report);
  const evaluation = evaluate(deps.policy, inputs);
  const currency = getCountry(deps.config.COUNTRY).currency;
  const now = deps.clock();
  const decisionId = randomUUID();
  try {
    await moveApplication(engineOf(deps), {
      userId: query.userId,
      transition: 'decision',
      to: { step: 'PASSWORD', status: evaluation.result === 'APPROVED' ? 'IN_PROGRESS' : 'REJECTED' },
      actor: 'system',
      write: async (tx) => {
        await insertDecision(tx, {
          id: decisionId,
          userId: query.userId,
          consentId: query.consentId,
          policyVersion: deps.policy.version,
          inputs: { ...inputs },
          rules: evaluation.rules,
          result: evaluation.result,
          amount: evaluation.amount,
          currency,
          bureauReportFolio: report.folio,
          createdAt: now,
        });
        await answer(tx, answered, now);
      },
      event: {
        type: 'decision.made',
        payload: {
          decision_id: decisionId,
          result: evaluation.result,
          amount: evaluation.amount,
          currency,
          policy_version: deps.policy.version,
          bureau_report_folio: report.folio,
        },
      },
    });
  } catch (error) {
    if (!(error instanceof StepConflict)) throw error;
    // Decided already (another process, or an operator): keep the report, make no second decision.
    await answer(deps.db, answered, now);
  }
}

/**
 * The policy's guarantor rules on a guarantor's bureau answer: approved, the application waits for
 * the lender (PENDING_APPROVAL); refused, it asks for another partner or collateral guarantor.
 */
export async function decideGuarantor(deps: BureauDeps, answered: Answered & { avalId: string; avalType: AvalType }) {
  const { query, report, avalId, avalType } = answered;
  const steps = AVAL_STEPS[avalType];
  const inputs = { score: report.score, delinquencies: report.delinquencies, thin_file: report.score === null };
  const evaluation = evaluateGuarantor(deps.policy, inputs);
  const approved = evaluation.result === 'APPROVED';
  const now = deps.clock();
  const decisionId = randomUUID();
  try {
    await moveApplication(engineOf(deps), {
      userId: query.userId,
      transition: steps.decision,
      to: { step: approved ? 'PENDING_APPROVAL' : steps.refused, status: 'IN_PROGRESS' },
      actor: 'system',
      write: async (tx) => {
        await insertDecision(tx, {
          id: decisionId,
          userId: query.userId,
          consentId: query.consentId,
          avalId,
          policyVersion: deps.policy.version,
          inputs: { ...inputs },
          rules: evaluation.rules,
          result: evaluation.result,
          amount: 0,
          currency: getCountry(deps.config.COUNTRY).currency,
          bureauReportFolio: report.folio,
          createdAt: now,
        });
        await answer(tx, answered, now);
        await deps.guarantorBureau.decided(tx, avalId, approved, now);
      },
      event: {
        type: 'guarantor.decision_made',
        payload: {
          decision_id: decisionId,
          aval_id: avalId,
          aval_type: avalType,
          result: evaluation.result,
          policy_version: deps.policy.version,
          bureau_report_folio: report.folio,
        },
      },
    });
  } catch (error) {
    if (!(error instanceof StepConflict)) throw error;
    await answer(deps.db, answered, now);
  }
}

/** The shopkeeper's latest approval (amount and currency), or null. */
export async function latestApprovedDecision(deps: Pick<CreditDeps, 'db'>, userId: string) {
  return (await findLatestApprovedDecision(deps.db, userId)) ?? null;
}
