/**
 * The kinds of rule the credit policy has (issue 33), as data: what each reads, how it compares,
 * where its threshold is in the document and how the back office's editor shows it. Apart from
 * the document's zod schema (credit-policy.ts) so the browser takes these without zod.
 */

/** Where a rule's threshold lives in the document, and how the editor shows it. */
export interface PolicyRuleSpec {
  /** The name decisions record for the rule (and the key of its reason). */
  rule: string;
  /** What the rule reads, in Spanish. */
  input: string;
  /** How the input is compared with the threshold. */
  operator: '≥' | '≤' | 'solo' | 'sin historial →';
  /** The threshold's place in the document. */
  section: 'eligibility' | 'guarantor';
  field: string;
  kind: 'number' | 'boolean' | 'thin-file';
  unit?: string;
  /** A rule the version may leave out (absent: it decides nothing). */
  optional?: boolean;
  /** Another rule that reads the same threshold (min_score and thin_file share the score). */
  min?: number;
  max?: number;
}

/** Every kind of rule the policy has, in the order the editor, the backtest and the decisions show them. */
export const POLICY_RULES: readonly PolicyRuleSpec[] = [
  {
    rule: 'min_age',
    input: 'Edad de la persona',
    operator: '≥',
    section: 'eligibility',
    field: 'min_age',
    kind: 'number',
    unit: 'años',
    min: 18,
    max: 120,
  },
  {
    rule: 'max_age',
    input: 'Edad de la persona',
    operator: '≤',
    section: 'eligibility',
    field: 'max_age',
    kind: 'number',
    unit: 'años',
    min: 18,
    max: 120,
  },
  {
    rule: 'allowed_city',
    input: 'Ubicación del negocio',
    operator: 'solo',
    section: 'eligibility',
    field: 'allowed_cities_only',
    kind: 'boolean',
  },
  {
    rule: 'min_business_age_years',
    input: 'Antigüedad del negocio',
    operator: '≥',
    section: 'eligibility',
    field: 'min_business_age_years',
    kind: 'number',
    unit: 'años',
    min: 1,
    max: 4,
  },
  {
    rule: 'min_sales_range',
    input: 'Rango de ventas semanales',
    operator: '≥',
    section: 'eligibility',
    field: 'min_sales_range',
    kind: 'number',
    unit: '(1 = el más bajo)',
    min: 1,
    max: 10,
  },
  {
    rule: 'min_score',
    input: 'Puntaje de buró',
    operator: '≥',
    section: 'eligibility',
    field: 'min_score',
    kind: 'number',
    unit: 'puntos',
    min: 0,
    max: 1000,
  },
  {
    rule: 'thin_file',
    input: 'Sin historial en el buró',
    operator: 'sin historial →',
    section: 'eligibility',
    field: 'thin_file',
    kind: 'thin-file',
  },
  {
    rule: 'max_delinquencies',
    input: 'Cuentas abiertas con saldo vencido',
    operator: '≤',
    section: 'eligibility',
    field: 'max_delinquencies',
    kind: 'number',
    unit: 'cuentas',
    optional: true,
    min: 0,
    max: 100,
  },
  {
    rule: 'max_past_due_delay_days',
    input: 'Peor atraso de una cuenta vencida',
    operator: '≤',
    section: 'eligibility',
    field: 'max_past_due_delay_days',
    kind: 'number',
    unit: 'días',
    optional: true,
    min: 0,
    max: 3650,
  },
  {
    rule: 'max_recent_inquiries',
    input: 'Consultas recientes al buró',
    operator: '≤',
    section: 'eligibility',
    field: 'max_recent_inquiries',
    kind: 'number',
    unit: 'consultas',
    optional: true,
    min: 0,
    max: 1000,
  },
  {
    rule: 'guarantor_min_score',
    input: 'Puntaje de buró del aval',
    operator: '≥',
    section: 'guarantor',
    field: 'min_score',
    kind: 'number',
    unit: 'puntos',
    min: 0,
    max: 1000,
  },
  {
    rule: 'guarantor_max_delinquencies',
    input: 'Cuentas vencidas del aval',
    operator: '≤',
    section: 'guarantor',
    field: 'max_delinquencies',
    kind: 'number',
    unit: 'cuentas',
    min: 0,
    max: 100,
  },
  {
    rule: 'guarantor_thin_file',
    input: 'Aval sin historial en el buró',
    operator: 'sin historial →',
    section: 'guarantor',
    field: 'thin_file',
    kind: 'thin-file',
  },
];

/** The rule's name in Spanish (the backtest's reasons, the diff), or the name itself for an unknown one. */
export function policyRuleLabel(rule: string): string {
  const spec = POLICY_RULES.find((item) => item.rule === rule);
  if (!spec) return rule;
  // A comparison reads with its sign ('Puntaje de buró ≥'); the location and thin-file rules by their input alone.
  return spec.operator === '≥' || spec.operator === '≤' ? `${spec.input} ${spec.operator}` : spec.input;
}
