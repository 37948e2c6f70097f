import { BACKTEST_FLIPS_LISTED, type BacktestView } from '@provee/domain';
import { evaluate, type CreditPolicy, type DecisionInputs, type LivePolicy } from '../policies/index.js';
import type { StoredDecision } from './backtest.store.js';

/**
 * A stored decision's inputs as the policy reads them, or null when they cannot be replayed: erased
 * by the retention schedule (`{}`), or written by a release before an input existed (the worst
 * delay came with the Círculo adapter). A guess would count an outcome no version gave.
 */
export function storedInputs(inputs: Record<string, unknown>): DecisionInputs | null {
  const number = (key: string) => (typeof inputs[key] === 'number' ? (inputs[key] as number) : undefined);
  const [age, businessAge, salesRange, delinquencies, openAccounts, inquiries] = [
    'age',
    'business_age_years',
    'sales_range',
    'delinquencies',
    'open_accounts',
    'recent_inquiries',
  ].map(number);
  const score = inputs.score;
  const delay = inputs.worst_past_due_delay_days;
  if (
    age === undefined ||
    businessAge === undefined ||
    salesRange === undefined ||
    delinquencies === undefined ||
    openAccounts === undefined ||
    inquiries === undefined ||
    typeof inputs.city_allowed !== 'boolean' ||
    typeof inputs.thin_file !== 'boolean' ||
    !(score === null || typeof score === 'number') ||
    !(delay === null || typeof delay === 'number')
  )
    return null;
  return {
    age,
    city: String(inputs.city ?? ''),
    city_allowed: inputs.city_allowed,
    business_age_years: businessAge,
    sales_range: salesRange,
    score,
    delinquencies,
    worst_past_due_delay_days: delay,
    open_accounts: openAccounts,
    recent_inquiries: inquiries,
    thin_file: inputs.thin_file,
  };
}

/** The replay of one stored decision by a version (null: its inputs cannot be replayed). */
export function replay(version: Pick<LivePolicy, 'policy'>, inputs: Record<string, unknown>) {
  const read = storedInputs(inputs);
  return read ? evaluate(version.policy, read) : null;
}

type Outcome = 'APPROVED' | 'REJECTED';
const rate = (approved: number, decisions: number) =>
  decisions === 0 ? 0 : Math.round((approved / decisions) * 10_000) / 10_000;

/** What a backtest counts, page after page: the live version and the tested one on the same inputs. */
export class Tally {
  decisions = 0;
  skipped = 0;
  asDecided = 0;
  live = 0;
  tested = 0;
  approvedToRejected = 0;
  rejectedToApproved = 0;
  flips: NonNullable<BacktestView['result']>['flips'] = [];
  reasons = new Map<string, { live: number; tested: number }>();

  constructor(
    private readonly livePolicy: CreditPolicy,
    private readonly testedPolicy: CreditPolicy,
  ) {}

  add(decision: StoredDecision) {
    const inputs = storedInputs(decision.inputs);
    if (!inputs) {
      this.skipped += 1;
      return;
    }
    const byLive = evaluate(this.livePolicy, inputs);
    const byTested = evaluate(this.testedPolicy, inputs);
    this.decisions += 1;
    if (decision.result === 'APPROVED') this.asDecided += 1;
    if (byLive.result === 'APPROVED') this.live += 1;
    if (byTested.result === 'APPROVED') this.tested += 1;
    for (const [version, outcome] of [
      ['live', byLive],
      ['tested', byTested],
    ] as const)
      for (const rule of outcome.rules)
        if (!rule.passed) {
          const counts = this.reasons.get(rule.rule) ?? { live: 0, tested: 0 };
          counts[version] += 1;
          this.reasons.set(rule.rule, counts);
        }
    if (byLive.result === byTested.result) return;
    if (byLive.result === 'APPROVED') this.approvedToRejected += 1;
    else this.rejectedToApproved += 1;
    // The rules of whichever version refuses: the tested one's, or the live one's it no longer applies.
    const refusing = byTested.result === 'REJECTED' ? byTested : byLive;
    if (this.flips.length < BACKTEST_FLIPS_LISTED)
      this.flips.push({
        decision_id: decision.id,
        application_id: decision.userId,
        decided_at: decision.createdAt.toISOString(),
        live: byLive.result as Outcome,
        tested: byTested.result as Outcome,
        reasons: refusing.rules.filter((rule) => !rule.passed).map((rule) => rule.rule),
      });
  }

  result(durationMs: number): NonNullable<BacktestView['result']> {
    const counts = (approved: number) => ({
      decisions: this.decisions,
      approved,
      approval_rate: rate(approved, this.decisions),
    });
    return {
      as_decided: counts(this.asDecided),
      live: counts(this.live),
      tested: counts(this.tested),
      approved_to_rejected: this.approvedToRejected,
      rejected_to_approved: this.rejectedToApproved,
      skipped: this.skipped,
      flips: this.flips,
      reasons: [...this.reasons].map(([rule, counts]) => ({ rule, ...counts })).sort((a, b) => b.tested - a.tested),
      duration_ms: durationMs,
    };
  }
}
