import type { NavigateFunction } from 'react-router';
import { ApiError } from './api-client.js';
import { uiState } from './ui-state.js';

export type FieldErrors = Record<string, string>;

/**
 * SPEC §8 for a registration step: field messages under the fields (400), /rejected on the
 * credit policy's refusals, /rejected-location outside the served area, the modal otherwise.
 * The form keeps every value in all cases.
 */
export function handleStepError(
  error: unknown,
  navigate: NavigateFunction,
  setErrors: (errors: FieldErrors) => void,
  options: { outOfArea?: boolean; fieldAlias?: Record<string, string> } = {},
): void {
  if (error instanceof ApiError && error.status === 400 && error.issues.length > 0) {
    const errors: FieldErrors = {};
    for (const issue of error.issues) {
      const field = issue.field.replace(/^body\./, '');
      errors[options.fieldAlias?.[field] ?? field] = issue.message;
    }
    setErrors(errors);
    return;
  }
  if (error instanceof ApiError && error.status === 412) {
    navigate(options.outOfArea ? '/rejected-location' : '/rejected', { replace: true });
    return;
  }
  if (error instanceof ApiError && error.status === 422) {
    navigate('/rejected', { replace: true });
    return;
  }
  uiState.showError(error);
}
