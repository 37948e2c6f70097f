import { z } from 'zod';
import { POLICY_RULES, policyRuleLabel, type PolicyRuleSpec } from './policy-rules.js';

export { POLICY_RULES, policyRuleLabel, type PolicyRuleSpec } from './policy-rules.js';

/**
 * The credit policy as data (decisions 007 and 037): one document per version, validated here for
 * the API (the file of a first start, a draft an analyst saves) and the back office's editor alike.
 * The kinds of rule are fixed (a new kind is code, reviewed and tested); a version sets their
 * thresholds, which optional rules apply, the reason each records, and how the amount is sized.
 */

const whole = (label: string, min: number, max: number) =>
  z
    .number(`${label}: escribe un número.`)
    .int(`${label}: usa un número entero.`)
    .min(min, `${label}: de ${min} a ${max}.`)
    .max(max, `${label}: de ${min} a ${max}.`);

const thinFile = z.enum(['approve', 'reject'], 'Elige aprobar o rechazar.');

const policyObject = z.object({
  version: z.string().min(1).max(60),
  description: z.string().max(500, 'La descripción: usa como máximo 500 caracteres.').optional(),
  eligibility: z.object({
    min_age: whole('Edad mínima', 18, 120),
    max_age: whole('Edad máxima', 18, 120),
    allowed_cities_only: z.boolean(),
    min_business_age_years: whole('Antigüedad mínima del negocio', 1, 4),
    min_sales_range: whole('Rango mínimo de ventas', 1, 10),
    min_score: whole('Puntaje mínimo', 0, 1000),
    // The bureau's rules below apply when the policy names them (absent: not a rule).
    /** Open accounts with an amount past due. */
    max_delinquencies: whole('Cuentas con saldo vencido', 0, 100).optional(),
    /** The worst delay, in days, of an open account with an amount past due. */
    max_past_due_delay_days: whole('Peor atraso', 0, 3650).optional(),
    max_recent_inquiries: whole('Consultas recientes', 0, 1000).optional(),
    thin_file: thinFile,
  }),
  /** What the decision records as the reason of each rule that failed (the back office, the evidence). */
  reasons: z
    .record(
      z.string(),
      z.string().trim().min(1, 'Escribe el motivo.').max(200, 'El motivo: como máximo 200 caracteres.'),
    )
    .default({}),
  /** The guarantor's bureau answer (a partner or a collateral guarantor). */
  guarantor: z
    .object({
      min_score: whole('Puntaje mínimo del aval', 0, 1000),
      max_delinquencies: whole('Cuentas vencidas del aval', 0, 100),
      thin_file: thinFile,
    })
    .default({ min_score: 550, max_delinquencies: 0, thin_file: 'reject' }),
  amount: z.object({
    /** Base amount by weekly-sales range, lowest range first. */
    by_sales_range: z
      .array(whole('Monto por rango de ventas', 0, 10_000_000))
      .min(1, 'Da al menos un monto.')
      .max(10),
    /** The highest band whose min_score the score reaches multiplies the base. */
    score_bands: z
      .array(
        z.object({
          min_score: whole('Puntaje de la banda', 0, 1000),
          factor: z.number('Factor: escribe un número.').positive('Factor: mayor que 0.').max(10, 'Factor: hasta 10.'),
        }),
      )
      .min(1, 'Da al menos una banda.')
      .max(10),
    cap: whole('Monto máximo', 0, 10_000_000),
  }),
});

/** What no field's own check sees: the ages' order, reasons of rules that exist. */
function checkPolicy(policy: Omit<z.infer<typeof policyObject>, 'version'>, context: z.RefinementCtx) {
  if (policy.eligibility.min_age > policy.eligibility.max_age)
    context.addIssue({
      code: 'custom',
      path: ['eligibility', 'max_age'],
      message: 'La edad máxima no puede ser menor que la mínima.',
    });
  // Every score (a thin file reads as 0) finds its band: one starts at 0.
  if (!policy.amount.score_bands.some((band) => band.min_score === 0))
    context.addIssue({
      code: 'custom',
      path: ['amount', 'score_bands'],
      message: 'Una banda debe empezar en el puntaje 0: así todo puntaje tiene la suya.',
    });
  for (const rule of Object.keys(policy.reasons))
    if (!POLICY_RULE_KEYS.has(rule))
      context.addIssue({ code: 'custom', path: ['reasons', rule], message: `No hay una regla «${rule}».` });
}

export const creditPolicySchema = policyObject.superRefine(checkPolicy);
/** A draft's document as its author saves it: the version's label is the API's to give. */
export const policyDraftSchema = policyObject.omit({ version: true }).superRefine(checkPolicy);

export type CreditPolicyDocument = z.infer<typeof creditPolicySchema>;

const POLICY_RULE_KEYS = new Set(POLICY_RULES.map((spec) => spec.rule));

/** A rule's threshold in a document (undefined: an optional rule the version leaves out). */
export function ruleThreshold(policy: CreditPolicyDocument, spec: PolicyRuleSpec): unknown {
  return (policy[spec.section] as Record<string, unknown>)[spec.field];
}

export interface PolicyChange {
  /** What changed, in Spanish. */
  what: string;
  before: string;
  after: string;
}

/** A threshold in words: a number as written, the location rule, the thin file's answer, an optional rule left out. */
const shown = (value: unknown, absent = 'no se aplica'): string =>
  value === undefined
    ? absent
    : value === true
      ? 'solo municipios atendidos'
      : value === false
        ? 'todos los municipios'
        : value === 'approve'
          ? 'aprobar'
          : value === 'reject'
            ? 'rechazar'
            : String(value);

/** What a version changes from another, rule by rule, in words (the editor's and the publisher's diff). */
export function describePolicyChanges(from: CreditPolicyDocument, to: CreditPolicyDocument): PolicyChange[] {
  const changes: PolicyChange[] = [];
  const differs = (what: string, before: string, after: string) => {
    if (before !== after) changes.push({ what, before, after });
  };
  for (const spec of POLICY_RULES) {
    const label = policyRuleLabel(spec.rule);
    differs(label, shown(ruleThreshold(from, spec)), shown(ruleThreshold(to, spec)));
    differs(
      `Motivo: ${label}`,
      shown(from.reasons[spec.rule], 'sin motivo'),
      shown(to.reasons[spec.rule], 'sin motivo'),
    );
  }
  const amounts = (policy: CreditPolicyDocument) => policy.amount.by_sales_range.join(' · ');
  const bands = (policy: CreditPolicyDocument) =>
    policy.amount.score_bands.map((band) => `desde ${band.min_score}: ×${band.factor}`).join(' · ');
  differs('Montos por rango de ventas', amounts(from), amounts(to));
  differs('Bandas de puntaje', bands(from), bands(to));
  differs('Monto máximo', String(from.amount.cap), String(to.amount.cap));
  differs('Descripción', from.description ?? '', to.description ?? '');
  return changes;
}

/** A version's life: a draft its author edits, published (for good), or discarded. */
export const POLICY_VERSION_STATUSES = ['DRAFT', 'PUBLISHED', 'DISCARDED'] as const;
export type PolicyVersionStatus = (typeof POLICY_VERSION_STATUSES)[number];

/** Backtests whose range holds more decisions than this run as a job, with progress (issue 33). */
export const BACKTEST_INLINE_MAX_DECISIONS = 20_000;
/** The flipped applications a backtest lists (the counts cover them all). */
export const BACKTEST_FLIPS_LISTED = 200;
