import { z } from 'zod';
import { ANNUAL_RATE_PERCENT, TERM_MONTHS } from '../lender-decision.js';

/**
 * The lender's decision after PENDING_APPROVAL (issue 30), as the back office and the partner API
 * send it: approve with the final amount and terms, decline with a reason, or mark disbursed.
 */
export const lenderDecisionBody = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('APPROVED'),
    amount: z
      .number('Escribe el monto aprobado.')
      .int('El monto va sin centavos.')
      .positive('El monto debe ser mayor que cero.'),
    term_months: z
      .number('Escribe el plazo en meses.')
      .int('El plazo va en meses enteros.')
      .min(TERM_MONTHS.min, `El plazo es de ${TERM_MONTHS.min} a ${TERM_MONTHS.max} meses.`)
      .max(TERM_MONTHS.max, `El plazo es de ${TERM_MONTHS.min} a ${TERM_MONTHS.max} meses.`),
    annual_rate: z
      .number('Escribe la tasa anual.')
      .min(ANNUAL_RATE_PERCENT.min, `La tasa anual va de ${ANNUAL_RATE_PERCENT.min} a ${ANNUAL_RATE_PERCENT.max} %.`)
      .max(ANNUAL_RATE_PERCENT.max, `La tasa anual va de ${ANNUAL_RATE_PERCENT.min} a ${ANNUAL_RATE_PERCENT.max} %.`)
      .refine(
        (rate) => Math.abs(rate * 100 - Math.round(rate * 100)) < 1e-6,
        'La tasa lleva como máximo dos decimales.',
      ),
  }),
  z.object({
    outcome: z.literal('DECLINED'),
    reason: z
      .string('Escribe el motivo del rechazo.')
      .trim()
      .min(3, 'Escribe el motivo del rechazo.')
      .max(500, 'Usa como máximo 500 caracteres.'),
  }),
  z.object({
    outcome: z.literal('DISBURSED'),
    reference: z.string().trim().max(100, 'Usa como máximo 100 caracteres.').optional(),
  }),
]);
export type LenderDecisionBody = z.input<typeof lenderDecisionBody>;

/** A recorded decision as the back office and the partner API show it. */
export const lenderDecisionView = z.object({
  id: z.string(),
  outcome: z.enum(['APPROVED', 'DECLINED', 'DISBURSED']),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  term_months: z.number().nullable(),
  annual_rate: z.number().nullable(),
  reason: z.string().nullable(),
  reference: z.string().nullable(),
  decided_by: z.string(),
  decided_at: z.string(),
});
export type LenderDecisionView = z.infer<typeof lenderDecisionView>;
