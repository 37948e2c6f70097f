import { useState, type ChangeEvent } from 'react';
import type { FieldErrors } from '../../../shared/lib/step-errors.js';

/**
 * A step form's field errors, and what ties a field to its value in the draft: a change is kept
 * and clears that field's error (the whole form is checked again on Continuar).
 */
export function useStepFields<Values extends object>(values: Values, update: (patch: Partial<Values>) => void) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const clearError = (field: string) => setErrors(({ [field]: _removed, ...rest }) => rest);
  const change = (field: keyof Values & string) => (value: string) => {
    update({ [field]: value } as Partial<Values>);
    if (errors[field]) clearError(field);
  };
  /** A TextField's value, onChange and error. */
  const textField = (field: keyof Values & string) => ({
    value: String(values[field]),
    onChange: change(field),
    error: errors[field],
  });
  /** A Select's value, onChange and error. */
  const selectField = (field: keyof Values & string) => ({
    value: String(values[field]),
    onChange: (event: ChangeEvent<HTMLSelectElement>) => change(field)(event.currentTarget.value),
    error: errors[field],
  });
  return { errors, setErrors, clearError, change, textField, selectField };
}
