import { randomUUID } from 'node:crypto';
import {
  AVAL_STEPS,
  ageOn,
  countryToday,
  getCountry,
  type ApplicationState,
  type AvalType,
  type TransitionName,
} from '@provee/domain';
import type { Executor, Tx } from '../../db/client.js';
import type { BureauReport, BureauSubject } from '../../providers/bureau/index.js';
import { engineOf, moveApplication, StepConflict } from '../application/index.js';
import type { Applicant } from '../users/index.js';
import { queryPersonCipher } from './bureau-person.js';
import { markBureauQueryAnswered, type BureauQueryRow } from './bureau-queries.store.js';
import { CONSENT_AUDIT_JOB, scheduleAttempt } from './bureau-schedule.js';
import { insertConsentAudit } from './consent-audits.store.js';
import {
  findLatestApprovedDecision,
  insertDecision,
  isMunicipalityServed,
  type NewDecision,
  salesRangePosition,
} from './decisions.store.js';
import type { BureauDeps, CreditDeps } from './deps.js';
import {
  evaluate,
  evaluateGuarantor,
  recordShadowDecision,
  type DecisionInputs,
  type LivePolicy,
} from '../policies/index.js';

/** A bureau query the bureau answered, on its attempt. */
interface Answered {
  query: BureauQueryRow;
  attempt: number;
  /** Who the bureau was asked about. */
  subject: BureauSubject;
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
    worst_past_due_delay_days: report.worst_past_due_delay_days,
    open_accounts: report.open_accounts,
    recent_inquiries: report.recent_inquiries,
    thin_file: report.score === null,
  };
}

/**
 * The query's report is kept (a real bureau's answer as received, encrypted) and the query ends,
 * with the decision or (decided already) alone. A bureau that audits consents is owed the
 * consent's evidence for the query it answered: the audit is due from the same transaction.
 */
async function answer(deps: BureauDeps, tx: Executor, { query, attempt, subject, report }: Answered, at: Date) {
  const { raw, ...kept } = report;
  const auditOwed = !!report.folio && !!deps.bureau.auditConsent;
  const own = raw || auditOwed ? await queryPersonCipher(deps, tx, query) : null;
  const answered = await markBureauQueryAnswered(tx, query, {
    attempts: attempt,
    report: { ...kept },
    reportRawEncrypted: raw && own ? own.encrypt(raw.toString('base64')) : null,
    subjectEncrypted: auditOwed && own ? own.encrypt(JSON.stringify(subject)) : null,
    provider: deps.bureau.name,
    at,
  });
  if (answered && auditOwed) {
    const auditId = await insertConsentAudit(tx, { queryId: query.id, userId: query.userId, at });
    if (auditId) await scheduleAttempt(tx, CONSENT_AUDIT_JOB, auditId, at, 0);
  }
  return answered;
}

/**
 * An attempt that ran past its lease while another attempt took the query: its decision is rolled
 * back (the query's holder decides), and nothing of it is kept.
 */
export class AttemptOutlivedClaim extends Error {}

/** What a decision moves, stores and records beside the query's ids, the policy's version and the report's folio. */
interface DecisionMove {
  transition: TransitionName;
  to: ApplicationState;
  decision: Pick<NewDecision, 'avalId' | 'inputs' | 'rules' | 'result' | 'amount' | 'currency'>;
  /** The version that decided (its label is what the decision records). */
  policy: Pick<LivePolicy, 'label'>;
  event: { type: string; payload: Record<string, unknown> };
  /** More writes of the same transaction. */
  alsoWrite?: (tx: Tx, at: Date, decisionId: string) => Promise<void>;
}

/**
 * The decision is stored and the query's report kept as the application moves, in one transaction.
 * Decided already (another process, or an operator): the report is kept, with no second decision.
 */
async function moveWithDecision(deps: BureauDeps, answered: Answered, move: DecisionMove): Promise<void> {
  const { query, report } = answered;
  const now = deps.clock();
  const decisionId = randomUUID();
  try {
    await moveApplication(engineOf(deps), {
      userId: query.userId,
      transition: move.transition,
      to: move.to,
      actor: 'system',
      write: async (tx) => {
        await insertDecision(tx, {
          id: decisionId,
          userId: query.userId,
          consentId: query.consentId,
          policyVersion: move.policy.label,
          ...move.decision,
          bureauReportFolio: report.folio,
          createdAt: now,
        });
        if (!(await answer(deps, tx, answered, now)))
          throw new AttemptOutlivedClaim('bureau attempt outlived its claim');
        await move.alsoWrite?.(tx, now, decisionId);
      },
      event: {
        type: move.event.type,
        payload: {
          decision_id: decisionId,
          ...move.event.payload,
          // The rules that refused, by name (the lender's systems hear them: issue 30).
          reasons: move.decision.rules.filter((rule) => !rule.passed).map((rule) => rule.rule),
          policy_version: move.policy.label,
          bureau_report_folio: report.folio,
        },
      },
    });
  } catch (error) {
    if (!(error instanceof StepConflict)) throw error;
    await deps.db.transaction((tx) => answer(deps, tx, answered, now));
  }
}

/** The policy's decision, stored with its inputs and every rule's outcome; the application moves on. */
export async function decideApplicant(deps: BureauDeps, answered: Answered & { applicant: Applicant }) {
  const inputs = await decisionInputs(deps, answered.applicant, answered.report);
  const live = await deps.policies.live();
  const { rules, result, amount } = evaluate(live.policy, inputs);
  const currency = getCountry(deps.config.COUNTRY).currency;
  await moveWithDecision(deps, answered, {
    transition: 'decision',
    to: { step: 'PASSWORD', status: result === 'APPROVED' ? 'IN_PROGRESS' : 'REJECTED' },
    decision: { inputs: { ...inputs }, rules, result, amount, currency },
    policy: live,
    event: { type: 'decision.made', payload: { result, amount, currency } },
    // The shadow version's outcome beside it, compared and never acted on (issue 33).
    alsoWrite: (tx, at, decisionId) => recordShadowDecision(tx, live, { id: decisionId, inputs, at }, deps.log),
  });
}

/**
 * The policy's guarantor rules on a guarantor's bureau answer: approved, the application waits for
 * the lender (PENDING_APPROVAL); refused, it asks for another partner or collateral guarantor.
 */
export async function decideGuarantor(deps: BureauDeps, answered: Answered & { avalId: string; avalType: AvalType }) {
  const { report, avalId, avalType } = answered;
  const steps = AVAL_STEPS[avalType];
  const inputs = { score: report.score, delinquencies: report.delinquencies, thin_file: report.score === null };
  const live = await deps.policies.live();
  const { rules, result } = evaluateGuarantor(live.policy, inputs);
  const approved = result === 'APPROVED';
  await moveWithDecision(deps, answered, {
    transition: steps.decision,
    to: { step: approved ? 'PENDING_APPROVAL' : steps.refused, status: 'IN_PROGRESS' },
    decision: {
      avalId,
      inputs: { ...inputs },
      rules,
      result,
      amount: 0,
      currency: getCountry(deps.config.COUNTRY).currency,
    },
    policy: live,
    event: { type: 'guarantor.decision_made', payload: { aval_id: avalId, aval_type: avalType, result } },
    alsoWrite: (tx, at) => deps.guarantorBureau.decided(tx, avalId, approved, at),
  });
}

/** The shopkeeper's latest approval (amount and currency), or null. */
export async function latestApprovedDecision(deps: Pick<CreditDeps, 'db'>, userId: string) {
  return (await findLatestApprovedDecision(deps.db, userId)) ?? null;
}
