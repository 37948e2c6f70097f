/** The one error envelope of every non-2xx answer (zod-free: the browser bundle imports this). */
export interface ErrorEnvelope {
  code: string;
  message: string;
  readable_message: string;
  issues?: { field: string; message: string }[] | undefined;
}

export const GENERIC_ERROR_MESSAGE = 'Ocurrió un error inesperado. Intenta de nuevo en unos minutos.';
export const VALIDATION_ERROR_MESSAGE = 'Revisa los datos marcados e intenta de nuevo.';

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (!value || typeof value !== 'object') return false;
  const { code, message, readable_message } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && typeof readable_message === 'string';
}
