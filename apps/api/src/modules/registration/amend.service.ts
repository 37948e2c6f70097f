import type { AddressValues, PersonalDataInput } from '@provee/domain';
import { amendApplication, engineOf, type ApplicationRow } from '../application/index.js';
import { applicantKeys, type UserRow } from '../users/index.js';
import { checkAddress, checkPersonalData, personalDataColumns, type RegistrationDeps } from './registration.service.js';
import { checkTaxId, rfcCarriesBirthDate } from './tax-id.js';

/**
 * Corrections of saved registration steps after going back (issue 27, docs/decisions/025): the same
 * rules as the first save, applied through the step engine's `amendApplication`, which refuses with
 * a 409 once the application is past the business step. Where the application stands never changes.
 */

/** Step 1 again: names, birth date (the policy's ages again), residency, civil status. */
export async function amendPersonalData(
  deps: RegistrationDeps,
  user: UserRow,
  data: PersonalDataInput,
): Promise<ApplicationRow> {
  await checkPersonalData(deps, user.id, data);
  const keys = await applicantKeys(deps, deps.db, user.id);
  return amendApplication(engineOf(deps), {
    userId: user.id,
    amendment: 'personal',
    actor: `user:${user.id}`,
    check: rfcCarriesBirthDate(keys, {
      dob: '* Tu RFC lleva otra fecha de nacimiento. Si las dos están mal, escríbenos por el chat de ayuda.',
    }),
    set: personalDataColumns(keys, data),
  });
}

/** Step 2 again: the country's rule, one application per person. */
export async function amendTaxId(deps: RegistrationDeps, user: UserRow, taxPayerId: string): Promise<ApplicationRow> {
  const { keys, set, taken, refuse, onUniqueViolation } = await checkTaxId(deps, user, taxPayerId);
  try {
    return await amendApplication(engineOf(deps), {
      userId: user.id,
      amendment: 'tax-id',
      actor: `user:${user.id}`,
      // Checked before on the birth date read then; again on the row, a correction of it committed meanwhile.
      check: rfcCarriesBirthDate(keys, { tax_payer_id: '* El RFC no corresponde a tu fecha de nacimiento.' }),
      set,
      onUniqueViolation,
    });
  } catch (failure) {
    if (failure === taken) throw await refuse();
    throw failure;
  }
}

/** Step 4 again: the catalogue and the served area (412 outside it, the saved address kept). */
export async function amendAddress(
  deps: RegistrationDeps,
  user: UserRow,
  values: AddressValues,
): Promise<ApplicationRow> {
  const { write, payload } = await checkAddress(deps, user, values);
  return amendApplication(engineOf(deps), {
    userId: user.id,
    amendment: 'address',
    actor: `user:${user.id}`,
    write,
    payload,
  });
}
