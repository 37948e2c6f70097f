import { z } from 'zod';

/** The one error envelope of every non-2xx answer. */
export const errorEnvelopeSchema = z.object({
  code: z.string(),
  message: z.string(),
  readable_message: z.string(),
  issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const GENERIC_ERROR_MESSAGE = 'Ocurrió un error inesperado. Intenta de nuevo en unos minutos.';
export const VALIDATION_ERROR_MESSAGE = 'Revisa los datos marcados e intenta de nuevo.';

/** The same check without zod, for the browser bundle. */
export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (!value || typeof value !== 'object') return false;
  const { code, message, readable_message } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && typeof readable_message === 'string';
}
