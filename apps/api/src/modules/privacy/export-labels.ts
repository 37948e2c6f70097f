import {
  APPLICATION_STATUS_NAMES,
  AVAL_STATUS_NAMES,
  AVAL_TYPE_NAMES,
  CIVIL_STATUSES,
  LENDER_OUTCOME_NAMES,
  STEP_NAMES,
  YEAR_CHOICES,
} from '@provee/domain';

/**
 * The Spanish words a person reads for the codes the export meets (issue 31): the labels the
 * registration screens offered (packages/domain's options), the back office's names of states.
 * An unknown code (one added after this list) shows as it is stored rather than vanish.
 */

const named =
  (names: Readonly<Record<string, string>>) =>
  (code: unknown): string =>
    typeof code === 'string' || typeof code === 'number' ? (names[String(code)] ?? String(code)) : String(code);

const choices = (list: readonly { value: string; label: string }[]) =>
  Object.fromEntries(list.map((choice) => [choice.value, choice.label]));

const CREDIT_RESULT_NAMES = { APPROVED: 'Preaprobada', REJECTED: 'No aprobada' };

export const statusName = named(APPLICATION_STATUS_NAMES);
export const stepName = named(STEP_NAMES);
export const avalTypeName = named(AVAL_TYPE_NAMES);
export const avalStatusName = named(AVAL_STATUS_NAMES);
export const creditResultName = named(CREDIT_RESULT_NAMES);
export const lenderOutcomeName = named(LENDER_OUTCOME_NAMES);

/** Columns whose stored value is a code of a choice the registration screens offered. */
export const CHOICE_LABELS: Record<string, (code: unknown) => string> = {
  'users.marital_status': named(choices(CIVIL_STATUSES)),
  'users.length_of_residency_in_years': named(choices(YEAR_CHOICES)),
  'businesses.business_age_years': named(choices(YEAR_CHOICES)),
};
