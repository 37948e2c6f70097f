import type { App } from '../types.js';
import { phoneToken } from './phone.js';

/** A person's data as the personal-data step sends it, and as the saved registration reads it back. */
export const PERSONAL_DATA = {
  name: 'María José',
  lastname: 'Peña',
  maternal_lastname: 'Núñez',
  dob: '1985-02-28',
  length_of_residency_in_years: 4,
  marital_status: 'MARRIED',
};

/**
 * The registration call's personal data (POST /api/v2/users) for this phone, with what a test
 * reads back set in `overrides`.
 */
export function registrationData(phone: string, overrides: Record<string, unknown> = {}) {
  return {
    account_type_id: 'SK',
    ...PERSONAL_DATA,
    phone_number: phone,
    utm_source: 'radio',
    utm_name: null,
    utm_medium: null,
    sales_identifier: '',
    anonymous_id: `anon-${phone}`,
    ...overrides,
  };
}

/** The registration call (POST /api/v2/users) of a phone proven by SMS code just before. */
export async function registerProvenPhone(app: App, phone: string, payload: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/users',
    headers: { authorization: `Bearer ${await phoneToken(app, phone)}` },
    payload,
  });
}

/** An address step's answer in a neighbourhood of the catalogue a fresh start has (Mata Hambre, Distrito Nacional). */
export const CATALOGUE_ADDRESS = {
  zip_code: '00000',
  state: 'Distrito Nacional',
  city: 'Santo Domingo de Guzmán',
  neighborhood: 'Mata Hambre',
  street_name: 'Calle Respaldo Los Robles',
  street_number: '12',
  apartment_number: '',
};
