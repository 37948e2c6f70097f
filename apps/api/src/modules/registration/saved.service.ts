import { canAmend, formatCedula, getCountry, type ApplicationState, type SavedRegistration } from '@provee/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { businessAddresses, businesses } from '../../db/schema.js';
import { resolveAddressNames } from '../catalog/index.js';
import type { UserRow } from '../users/index.js';

/**
 * What each registration step saved, as its screen shows it, and which steps may still be
 * corrected (issue 27: going back shows a step with its data). Only for the application's owner.
 */
export async function savedRegistration(app: FastifyInstance, user: UserRow): Promise<SavedRegistration> {
  const country = getCountry(app.config.COUNTRY);
  const state = { step: user.nextStep, status: user.status } as ApplicationState;
  const [[address], [business]] = await Promise.all([
    app.db.select().from(businessAddresses).where(eq(businessAddresses.userId, user.id)).limit(1),
    app.db.select().from(businesses).where(eq(businesses.userId, user.id)).limit(1),
  ]);
  const ids = address ? await resolveAddressNames(app.db, country.code, address) : undefined;
  const taxId = user.taxIdEncrypted ? app.cipher.decrypt(user.taxIdEncrypted) : null;
  return {
    user_id: user.id,
    next_step: user.nextStep,
    status: user.status,
    personal:
      user.name && user.lastname && user.dobEncrypted
        ? {
            name: user.name,
            lastname: user.lastname,
            maternal_lastname: user.maternalLastname ?? '',
            dob: app.cipher.decrypt(user.dobEncrypted),
            length_of_residency_in_years: user.lengthOfResidencyInYears ?? 0,
            marital_status: user.maritalStatus ?? '',
          }
        : null,
    tax_payer_id: taxId === null ? null : country.taxId.format ? formatCedula(taxId) : taxId,
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
