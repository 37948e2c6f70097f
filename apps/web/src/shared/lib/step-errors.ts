import type { NavigateFunction } from 'react-router';
import { ApiError } from './api-client.js';
import { rememberRejection } from './rejection.js';
import { uiState } from './ui-state.js';
import { routeAfterConflict } from './users-api.js';

export type FieldErrors = Record<string, string>;

/**
 * SPEC §8 for a registration step: field messages under the fields (400), /rejected on the
 * credit policy's refusals (with the server's reason), /rejected-location outside the served
 * area, where the application stands on a 409 (no modal), the modal otherwise.
 * The form keeps every value in all cases.
 */
export function handleStepError(
  error: unknown,
  navigate: NavigateFunction,
  setErrors: (errors: FieldErrors) => void,
  options: {
    outOfArea?: boolean;
    fieldAlias?: Record<string, string>;
    user?: { phone: string; userId?: string };
    /** The step was saved meanwhile (409): what the server has wins over this tab's draft. */
    dropDraft?: () => void;
  } = {},
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
  if (error instanceof ApiError && error.status === 409 && options.user) {
    options.dropDraft?.();
    const { phone, userId } = options.user;
    routeAfterConflict(phone, userId, error).then((target) => navigate(target, { replace: true }), uiState.showError);
    return;
  }
  if (error instanceof ApiError && error.status === 412) {
    if (!options.outOfArea) rememberRejection(error);
    navigate(options.outOfArea ? '/rejected-location' : '/rejected', { replace: true });
    return;
  }
  if (error instanceof ApiError && error.status === 422) {
    rememberRejection(error);
    navigate('/rejected', { replace: true });
    return;
  }
  uiState.showError(error);
}
