import { canAmend, type SavedRegistration } from '@provee/domain';
import type { Db } from '../../db/client.js';
import { resolveAddressNames } from '../catalog/index.js';
import { describeApplicant, type ApplicantDeps, type UserRow } from '../users/index.js';

/**
 * What each registration step saved, as its screen shows it, and which steps may still be
 * corrected (issue 27: going back shows a step with its data). Only for the application's owner.
 */
export async function savedRegistration(deps: ApplicantDeps & { db: Db }, user: UserRow): Promise<SavedRegistration> {
  const applicant = await describeApplicant(deps, user.id);
  if (!applicant) throw new Error(`application ${user.id} not found`);
  const { person, address, business } = applicant;
  const state = { step: applicant.nextStep, status: applicant.status };
  const ids = address ? await resolveAddressNames(deps.db, deps.config.COUNTRY, address) : undefined;
  return {
    user_id: applicant.id,
    next_step: applicant.nextStep,
    status: applicant.status,
    personal:
      person.name && person.lastname && person.birthDate
        ? {
            name: person.name,
            lastname: person.lastname,
            maternal_lastname: person.maternalLastname ?? '',
            dob: person.birthDate,
            length_of_residency_in_years: person.lengthOfResidencyInYears ?? 0,
            marital_status: person.maritalStatus ?? '',
          }
        : null,
    tax_payer_id: applicant.taxId?.shown ?? null,
    address: address
      ? {
          zip_code: address.zipCode,
          state: address.state,
          city: address.city,
          neighborhood: address.neighborhood,
          neighborhood_typed: address.neighborhoodTyped,
          street_name: address.streetName,
          street_number: address.streetNumber,
          apartment_number: address.apartmentNumber ?? '',
          state_id: ids?.state?.id ?? null,
          city_id: ids?.city?.id ?? null,
          // A typed sector is not a catalogue row, even when one has its name since.
          neighborhood_id: address.neighborhoodTyped ? null : (ids?.neighborhood?.id ?? null),
        }
      : null,
    business: business
      ? {
          name: business.name,
          business_type: business.businessType,
          business_type_other: business.businessTypeOther ?? '',
          sales_average_range_id: business.salesRangeId,
          business_age: business.businessAgeYears,
        }
      : null,
    editable: {
      personal: canAmend('personal', state),
      tax_id: canAmend('tax-id', state),
      address: canAmend('address', state),
      business: canAmend('business', state),
    },
  };
}
