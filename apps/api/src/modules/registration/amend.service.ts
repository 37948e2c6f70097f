import type { AddressValues, PersonalDataInput } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { amendApplication, engineOf, type ApplicationRow } from '../application/index.js';
import type { UserRow } from '../users/index.js';
import { checkAddress, checkPersonalData, checkTaxId, rfcCarriesBirthDate } from './registration.service.js';

/**
 * Corrections of saved registration steps after going back (issue 27, docs/decisions/025): the same
 * rules as the first save, applied through the step engine's `amendApplication`, which refuses with
 * a 409 once the application is past the business step. Where the application stands never changes.
 */

/** Step 1 again: names, birth date (the policy's ages again), residency, civil status. */
export async function amendPersonalData(
  app: FastifyInstance,
  user: UserRow,
  data: PersonalDataInput,
): Promise<ApplicationRow> {
  await checkPersonalData(app, user.id, data);
  return amendApplication(engineOf(app), {
    userId: user.id,
    amendment: 'personal',
    actor: `user:${user.id}`,
    check: rfcCarriesBirthDate(app, {
      dob: '* Tu RFC lleva otra fecha de nacimiento. Si las dos están mal, escríbenos por el chat de ayuda.',
    }),
    set: {
      name: data.name,
      lastname: data.lastname,
      maternalLastname: data.maternal_lastname || null,
      dobEncrypted: app.cipher.encrypt(data.dob),
      lengthOfResidencyInYears: data.length_of_residency_in_years,
      maritalStatus: data.marital_status,
    },
  });
}

/** Step 2 again: the country's rule, one application per person. */
export async function amendTaxId(app: FastifyInstance, user: UserRow, taxPayerId: string): Promise<ApplicationRow> {
  const { set, taken, refuse, onUniqueViolation } = await checkTaxId(app, user, taxPayerId);
  try {
    return await amendApplication(engineOf(app), {
      userId: user.id,
      amendment: 'tax-id',
      actor: `user:${user.id}`,
      // Checked before on the birth date read then; again on the row, a correction of it committed meanwhile.
      check: rfcCarriesBirthDate(app, { tax_payer_id: '* El RFC no corresponde a tu fecha de nacimiento.' }),
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
  app: FastifyInstance,
  user: UserRow,
  values: AddressValues,
): Promise<ApplicationRow> {
  const { write, payload } = await checkAddress(app, user, values);
  return amendApplication(engineOf(app), {
    userId: user.id,
    amendment: 'address',
    actor: `user:${user.id}`,
    write,
    payload,
  });
}
