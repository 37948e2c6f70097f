import { cleanTaxId, getCountry, normalizeTaxId, rfcHasBirthDate, TAX_ID_MESSAGES, taxIdError } from '@provee/domain';
import { AppError, invalidFields } from '../../errors.js';
import { assertAt, engineOf, moveApplication, type ApplicationRow } from '../application/index.js';
import {
  applicantKeys,
  applicantPerson,
  applicantTaxId,
  findOtherApplicationWithTaxId,
  findUserById,
  taxIdColumns,
  type ApplicantKeys,
  type UserRow,
} from '../users/index.js';
import { policyRefused, type RegistrationDeps } from './registration.service.js';

const RFC_NOT_YOURS = '* El RFC no corresponde a tu fecha de nacimiento.';

/**
 * The tax id by the country's rule (and, in Mexico, the birth date it carries): the columns to
 * store and the refusal of a tax id another application holds (recorded when it is thrown).
 */
export async function checkTaxId(deps: RegistrationDeps, user: UserRow, taxPayerId: string, dobIso?: string) {
  const country = getCountry(deps.config.COUNTRY);
  const shown = cleanTaxId(country, taxPayerId);
  const error = taxIdError(country, shown);
  if (error) throw invalidFields({ tax_payer_id: error });
  const canonical = normalizeTaxId(country, shown);
  const keys = await applicantKeys(deps, deps.db, user.id);
  if (country.code === 'mx') {
    const dob = dobIso ?? applicantPerson(keys, user).birthDate;
    if (dob && !rfcHasBirthDate(canonical, dob)) throw invalidFields({ tax_payer_id: RFC_NOT_YOURS });
  }
  const set = taxIdColumns(keys, canonical);
  const taken = new AppError(422, 'TAX_ID_IN_USE', 'tax id already registered', TAX_ID_MESSAGES[country.code].inUse);
  const refuse = async () => {
    await policyRefused(deps, user.id, 'tax-id-in-use', {});
    return taken;
  };
  // The cheap answer first; the unique index decides when two applications race for one tax id.
  if (await findOtherApplicationWithTaxId(deps.db, set.taxIdHash!, user.id)) throw await refuse();
  return {
    canonical,
    keys,
    set,
    taken,
    refuse,
    onUniqueViolation: (constraint: string) => (constraint.includes('tax_id_hash') ? taken : undefined),
  };
}

/**
 * Mexico: a saved RFC carries the birth date (the six digits after its letters). Checked on the row
 * as the correction leaves it, locked: a correction of the other one that committed meanwhile is
 * seen, and the two can never end up apart.
 */
export function rfcCarriesBirthDate(deps: ApplicantKeys, refusal: Record<string, string>) {
  return (row: ApplicationRow) => {
    if (deps.config.COUNTRY !== 'mx') return;
    const taxId = applicantTaxId(deps, row);
    const { birthDate } = applicantPerson(deps, row);
    if (taxId && birthDate && !rfcHasBirthDate(taxId.canonical, birthDate)) throw invalidFields(refusal);
  };
}

/** Step 2: the tax id, checked by the country's rule, encrypted, one application per person. */
export async function saveTaxId(deps: RegistrationDeps, user: UserRow, taxPayerId: string): Promise<ApplicationRow> {
  const engine = engineOf(deps);
  await assertAt(engine, user, 'tax-id');
  const { keys, set, taken, refuse, onUniqueViolation } = await checkTaxId(deps, user, taxPayerId);
  try {
    const { row } = await moveApplication(engine, {
      userId: user.id,
      transition: 'tax-id',
      actor: `user:${user.id}`,
      set,
      // Checked above on the birth date read then; again on the row, a correction of it committed meanwhile.
      write: async (tx) => {
        rfcCarriesBirthDate(keys, { tax_payer_id: RFC_NOT_YOURS })((await findUserById(tx, user.id))!);
      },
      onUniqueViolation,
    });
    return row;
  } catch (failure) {
    if (failure === taken) throw await refuse();
    throw failure;
  }
}
