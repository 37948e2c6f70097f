/**
 * The lender's decision after PENDING_APPROVAL (issue 30), zod-free so the screens use it too:
 * what it may be and the bounds of its terms.
 */
export const LENDER_OUTCOMES = ['APPROVED', 'DECLINED', 'DISBURSED'] as const;
export type LenderOutcome = (typeof LENDER_OUTCOMES)[number];

/** The step engine's move of each outcome. */
export const LENDER_TRANSITIONS = {
  APPROVED: 'lender-approved',
  DECLINED: 'lender-declined',
  DISBURSED: 'disbursed',
} as const satisfies Record<LenderOutcome, string>;

/** A credit's term in months, and its yearly interest rate in percent, as a lender may set them. */
export const TERM_MONTHS = { min: 1, max: 60 } as const;
export const ANNUAL_RATE_PERCENT = { min: 0, max: 200 } as const;

/** Spanish names of the outcomes, as staff and the audit trail read them. */
export const LENDER_OUTCOME_NAMES: Record<LenderOutcome, string> = {
  APPROVED: 'Aprobado',
  DECLINED: 'Rechazado',
  DISBURSED: 'Desembolsado',
};
