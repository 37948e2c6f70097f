import { readFileSync } from 'node:fs';
import { creditPolicySchema, type CountryCode, type CreditPolicyDocument } from '@provee/domain';
import defaultPolicy from './default-policy.json' with { type: 'json' };
import mexicoPolicy from './default-policy-mx.json' with { type: 'json' };

/** The policy a fresh start decides with, by country (CREDIT_POLICY_FILE replaces it). */
const DEFAULT_POLICY: Record<CountryCode, unknown> = { do: defaultPolicy, mx: mexicoPolicy };

/**
 * The credit policy is data: a versioned document (its schema in packages/domain, credit-policy.ts).
 * Every decision stores the version it was made under, its inputs and each rule's outcome
 * (docs/decisions/007); the versions themselves are rows (issue 33, decision 037).
 */
export type CreditPolicy = CreditPolicyDocument;

export class PolicyError extends Error {}

export function loadPolicy(file: string | undefined, country: CountryCode = 'do'): CreditPolicy {
  let raw: unknown = DEFAULT_POLICY[country];
  if (file) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new PolicyError(`CREDIT_POLICY_FILE: no se pudo leer ${file}: ${(error as Error).message}`);
    }
  }
  const parsed = creditPolicySchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new PolicyError(`CREDIT_POLICY_FILE: la política no es válida:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export interface DecisionInputs {
  age: number;
  city: string;
  city_allowed: boolean;
  business_age_years: number;
  sales_range: number;
  score: number | null;
  delinquencies: number;
  /** null: the bureau did not say (a maximum on it then fails). */
  worst_past_due_delay_days: number | null;
  open_accounts: number;
  recent_inquiries: number;
  thin_file: boolean;
}

export interface RuleOutcome {
  rule: string;
  passed: boolean;
  value: unknown;
  threshold: unknown;
  /** The policy's reason for this rule, on a rule that failed. */
  reason?: string;
}

export interface Evaluation {
  result: 'APPROVED' | 'REJECTED';
  rules: RuleOutcome[];
  amount: number;
}

/** Applies every rule (none short-circuits, so the record says all that failed) and sizes the amount. */
export function evaluate(policy: CreditPolicy, inputs: DecisionInputs): Evaluation {
  const rules = policy.eligibility;
  const outcome = (rule: string, passed: boolean, value: unknown, threshold: unknown): RuleOutcome => ({
    rule,
    passed,
    value,
    threshold,
  });
  const outcomes = [
    outcome('min_age', inputs.age >= rules.min_age, inputs.age, rules.min_age),
    outcome('max_age', inputs.age <= rules.max_age, inputs.age, rules.max_age),
    outcome('allowed_city', !rules.allowed_cities_only || inputs.city_allowed, inputs.city, rules.allowed_cities_only),
    outcome(
      'min_business_age_years',
      inputs.business_age_years >= rules.min_business_age_years,
      inputs.business_age_years,
      rules.min_business_age_years,
    ),
    outcome('min_sales_range', inputs.sales_range >= rules.min_sales_range, inputs.sales_range, rules.min_sales_range),
    inputs.thin_file
      ? outcome('thin_file', rules.thin_file === 'approve', true, rules.thin_file)
      : outcome('min_score', (inputs.score ?? 0) >= rules.min_score, inputs.score, rules.min_score),
    ...atMost('max_delinquencies', inputs.delinquencies, rules.max_delinquencies),
    ...atMost('max_past_due_delay_days', inputs.worst_past_due_delay_days, rules.max_past_due_delay_days),
    ...atMost('max_recent_inquiries', inputs.recent_inquiries, rules.max_recent_inquiries),
  ].map((item) => withReason(policy, item));
  const approved = outcomes.every((item) => item.passed);
  const { by_sales_range: bases, score_bands: bands, cap } = policy.amount;
  const base = bases[Math.min(inputs.sales_range, bases.length) - 1] ?? bases[0]!;
  const band =
    [...bands].sort((a, b) => b.min_score - a.min_score).find((item) => (inputs.score ?? 0) >= item.min_score) ??
    bands[0]!;
  const amount = approved ? Math.min(cap, Math.round(base * band.factor)) : 0;
  return { result: approved ? 'APPROVED' : 'REJECTED', rules: outcomes, amount };
}

export interface GuarantorInputs {
  score: number | null;
  delinquencies: number;
  thin_file: boolean;
}

/** The policy's guarantor rules on a guarantor's bureau answer (every rule recorded, amount 0). */
export function evaluateGuarantor(policy: CreditPolicy, inputs: GuarantorInputs): Evaluation {
  const rules = policy.guarantor;
  const outcomes: RuleOutcome[] = [
    inputs.thin_file
      ? { rule: 'guarantor_thin_file', passed: rules.thin_file === 'approve', value: true, threshold: rules.thin_file }
      : {
          rule: 'guarantor_min_score',
          passed: (inputs.score ?? 0) >= rules.min_score,
          value: inputs.score,
          threshold: rules.min_score,
        },
    {
      rule: 'guarantor_max_delinquencies',
      passed: inputs.delinquencies <= rules.max_delinquencies,
      value: inputs.delinquencies,
      threshold: rules.max_delinquencies,
    },
  ];
  const recorded = outcomes.map((item) => withReason(policy, item));
  return { result: recorded.every((rule) => rule.passed) ? 'APPROVED' : 'REJECTED', rules: recorded, amount: 0 };
}

/** A maximum the policy may name: its outcome, or none when the policy does not name it. */
function atMost(rule: string, value: number | null, threshold: number | undefined): RuleOutcome[] {
  return threshold === undefined ? [] : [{ rule, passed: value !== null && value <= threshold, value, threshold }];
}

/** A failed rule carries the policy's reason for it, when the policy gives one. */
function withReason(policy: CreditPolicy, outcome: RuleOutcome): RuleOutcome {
  const reason = policy.reasons[outcome.rule];
  return !outcome.passed && reason ? { ...outcome, reason } : outcome;
}
