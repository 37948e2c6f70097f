import { VALIDATION_ERROR_MESSAGE, type FieldErrors } from '@provee/domain';
import { AppError } from '../../errors.js';

/** 400 with the field messages the screens show under each field. */
export function invalidFields(errors: FieldErrors, prefix = 'body'): AppError {
  return new AppError(400, 'VALIDATION_ERROR', 'invalid fields', VALIDATION_ERROR_MESSAGE, {
    issues: Object.entries(errors).map(([field, message]) => ({ field: `${prefix}.${field}`, message })),
  });
}

export function assertNoErrors(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw invalidFields(errors);
}

/** A refusal of the credit policy (SPEC §8: the app shows /rejected). */
export function notEligible(code: string, status: 412 | 422 = 422): AppError {
  return new AppError(status, code, 'not eligible', 'Por ahora tu negocio no cumple con los requisitos para el crédito.');
}
