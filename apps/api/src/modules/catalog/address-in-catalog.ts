import { addressErrors, type AddressValues, type CountryConfig } from '@provee/domain';
import type { Db } from '../../db/client.js';
import { assertNoErrors, invalidFields } from '../../errors.js';
import { resolveAddressNames } from './place-names.js';

/** An address as it is stored: the catalogue's names, the municipality it lies in, the street as typed. */
export interface CatalogAddress {
  zipCode: string;
  state: string;
  city: string;
  neighborhood: string;
  neighborhoodTyped: boolean;
  streetName: string;
  streetNumber: string;
  apartmentNumber: string | null;
  municipalityId: number;
}

/**
 * An address by the form's rules and the catalogue: state and municipality must be the catalogue's;
 * the neighbourhood too unless it was typed ('Mi sector no aparece'); a catalogue neighbourhood's
 * postcode must be the one given. Spanish field errors (422) otherwise, prefixed with `field` for
 * an address nested in a larger body. `allowed`: whether the lender serves the municipality.
 */
export async function addressInCatalog(
  db: Db,
  country: CountryConfig,
  values: AddressValues,
  field = '',
): Promise<{ address: CatalogAddress; allowed: boolean }> {
  const fieldErrors = (errors: Record<string, string>) =>
    Object.fromEntries(Object.entries(errors).map(([key, message]) => [`${field}${key}`, message]));
  assertNoErrors(fieldErrors(addressErrors(country, values)));
  const found = await resolveAddressNames(db, country.code, values);
  if (!found.state) throw invalidFields(fieldErrors({ state: 'No encontramos este estado, elígelo de la lista.' }));
  if (!found.city) throw invalidFields(fieldErrors({ city: 'No encontramos este municipio, elígelo de la lista.' }));
  // A typed neighbourhood that is in the catalogue after all is stored as the catalogue's.
  if (!found.neighborhood && !values.neighborhood_typed) {
    const label = country.neighborhoodLabel.toLowerCase();
    throw invalidFields(fieldErrors({ neighborhood: `No encontramos este ${label}, elígelo de la lista.` }));
  }
  if (country.hasZipCode && found.neighborhood?.zipCode && found.neighborhood.zipCode !== values.zip_code)
    throw invalidFields(fieldErrors({ zip_code: '* El código postal no corresponde a la colonia.' }));
  return {
    allowed: found.city.allowed,
    address: {
      zipCode: values.zip_code,
      state: found.state.name,
      city: found.city.name,
      neighborhood: found.neighborhood?.name ?? values.neighborhood.trim().replace(/\s+/g, ' '),
      neighborhoodTyped: !found.neighborhood,
      streetName: values.street_name.trim(),
      streetNumber: values.street_number.trim(),
      apartmentNumber: values.apartment_number.trim() || null,
      municipalityId: found.city.id,
    },
  };
}
