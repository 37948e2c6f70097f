import { ZIP_CODE_LENGTH, ZIP_CODE_NOT_INCLUDED } from '../constants.js';
import type { CountryConfig } from '../country.js';
import { isValidCedula } from './cedula.js';
import { isoDate } from './dates.js';
import { nameError } from './names.js';
import { CIVIL_STATUS_VALUES, OTHER_BUSINESS_TYPE } from './options.js';
import { isValidRfc } from './rfc.js';

/** Field → message; empty when the form may be sent. Shared by the screens and the API. */
export type FieldErrors = Record<string, string>;

function collect(entries: [string, string | undefined][]): FieldErrors {
  return Object.fromEntries(entries.filter((entry): entry is [string, string] => Boolean(entry[1])));
}

const inChoices = (value: string, max: number) => /^\d$/.test(value) && Number(value) >= 1 && Number(value) <= max;

export interface AboutYouValues {
  name: string;
  lastname: string;
  maternal_lastname: string;
  day: string;
  month: string;
  year: string;
  length_of_residency_in_years: string;
  marital_status: string;
}

export const ABOUT_YOU_MESSAGES = {
  day: '* Ingresa tu día de nacimiento !',
  month: '* Ingresa tu mes de nacimiento !',
  year: '* Ingresa tu año de nacimiento !',
  dateInvalid: '* La fecha de nacimiento no existe, revísala.',
  residency: '* Selecciona el tiempo viviendo ahí !',
  maritalStatus: '* Selecciona su estado civil !',
} as const;

/** Step 1 'Sobre ti' (SPEC §5). The exact-date age check is the credit policy's, on the server. */
export function aboutYouErrors(values: AboutYouValues): FieldErrors {
  const { day, month, year } = values;
  const dateMissing = !day || !month || !year;
  const dateInvalid = !dateMissing && !isoDate(Number(year), Number(month), Number(day));
  return collect([
    ['name', nameError('name', values.name)],
    ['lastname', nameError('lastname', values.lastname)],
    ['maternal_lastname', nameError('maternal_lastname', values.maternal_lastname)],
    ['day', !day ? ABOUT_YOU_MESSAGES.day : dateInvalid ? ABOUT_YOU_MESSAGES.dateInvalid : undefined],
    ['month', !month ? ABOUT_YOU_MESSAGES.month : undefined],
    ['year', !year ? ABOUT_YOU_MESSAGES.year : undefined],
    ['length_of_residency_in_years', inChoices(values.length_of_residency_in_years, 4) ? undefined : ABOUT_YOU_MESSAGES.residency],
    ['marital_status', (CIVIL_STATUS_VALUES as readonly string[]).includes(values.marital_status) ? undefined : ABOUT_YOU_MESSAGES.maritalStatus],
  ]);
}


/** What the tax-id field keeps (digits for a cédula, RFC characters for an RFC). */
export function taxIdError(country: CountryConfig, value: string): string | undefined {
  const { label, length } = country.taxId;
  if (!value) return `* Ingresa el ${label} !`;
  if (value.length !== length) return `* El ${label} debe tener ${length} caracteres.`;
  if (country.code === 'do' ? !isValidCedula(value) : !isValidRfc(value)) return `* El ${label} no es válido, revísalo.`;
  return undefined;
}

export interface AddressValues {
  zip_code: string;
  state: string;
  city: string;
  neighborhood: string;
  street_name: string;
  street_number: string;
  apartment_number: string;
  /** 'Mi sector no aparece': the shopkeeper typed the neighbourhood instead of choosing it. */
  neighborhood_typed?: boolean;
}

/** 'el sector' (do) / 'la colonia' (mx), for the messages of a typed neighbourhood. */
const theNeighborhood = (country: CountryConfig) => (country.code === 'mx' ? 'la colonia' : 'el sector');

export const ADDRESS_MESSAGES = {
  zip: '* Ingresa un código postal !',
  zipFormat: '* El código postal tiene 5 dígitos.',
  state: '* Ingresa el estado !',
  neighborhood: '* Selecciona la colonia !',
  street: '* Ingresa la calle !',
  streetAmpersand: '* La calle no puede contener el carácter &.',
  streetNumber: '* Ingresa el número exterior !',
  city: '* Selecciona el municipio !',
  tooLong: (max: number) => `* Máximo ${max} caracteres.`,
  neighborhoodTyped: (country: CountryConfig) => `* Ingresa ${theNeighborhood(country)} !`,
  neighborhoodAmpersand: (country: CountryConfig) => `* ${theNeighborhood(country).replace(/^./, (c) => c.toUpperCase())} no puede contener el carácter &.`,
} as const;

/** A typed neighbourhood follows the street's rules (and its length). */
export const ADDRESS_LIMITS = { street: 80, neighborhood: 80, number: 10, name: 100 } as const;

/** The street's rules: required, no '&', at most `max` characters. */
function lineError(value: string, max: number, messages: { required: string; ampersand: string }): string | undefined {
  const line = value.trim();
  if (!line) return messages.required;
  if (line.includes('&')) return messages.ampersand;
  if (line.length > max) return ADDRESS_MESSAGES.tooLong(max);
  return undefined;
}

export function addressErrors(country: CountryConfig, values: AddressValues): FieldErrors {
  const zip = country.hasZipCode
    ? !values.zip_code
      ? ADDRESS_MESSAGES.zip
      : !new RegExp(`^\\d{${ZIP_CODE_LENGTH}}$`).test(values.zip_code)
        ? ADDRESS_MESSAGES.zipFormat
        : undefined
    : values.zip_code === ZIP_CODE_NOT_INCLUDED
      ? undefined
      : ADDRESS_MESSAGES.zipFormat;
  return collect([
    ['zip_code', zip],
    ['state', values.state ? undefined : ADDRESS_MESSAGES.state],
    ['city', values.city ? undefined : ADDRESS_MESSAGES.city],
    [
      'neighborhood',
      values.neighborhood_typed
        ? lineError(values.neighborhood, ADDRESS_LIMITS.neighborhood, { required: ADDRESS_MESSAGES.neighborhoodTyped(country), ampersand: ADDRESS_MESSAGES.neighborhoodAmpersand(country) })
        : values.neighborhood
          ? undefined
          : ADDRESS_MESSAGES.neighborhood,
    ],
    ['street_name', lineError(values.street_name, ADDRESS_LIMITS.street, { required: ADDRESS_MESSAGES.street, ampersand: ADDRESS_MESSAGES.streetAmpersand })],
    [
      'street_number',
      !values.street_number.trim()
        ? ADDRESS_MESSAGES.streetNumber
        : values.street_number.length > ADDRESS_LIMITS.number
          ? ADDRESS_MESSAGES.tooLong(ADDRESS_LIMITS.number)
          : undefined,
    ],
    ['apartment_number', values.apartment_number.length > ADDRESS_LIMITS.number ? ADDRESS_MESSAGES.tooLong(ADDRESS_LIMITS.number) : undefined],
  ]);
}

export interface BusinessValues {
  name: string;
  business_age: string;
  business_type: string;
  business_type_other: string;
  sales_average_range_id: string;
}

/** SPEC §5 leaves these rules to us; same style as the rest of the SPEC's messages. */
export const BUSINESS_MESSAGES = {
  name: '* Ingresa el nombre de tu negocio !',
  nameFormat: '* El nombre solo acepta letras, números, espacios y . , - \' &',
  age: '* Selecciona el tiempo con tu negocio !',
  type: '* Selecciona el giro de tu negocio !',
  typeOther: '* Escribe a qué se dedica tu negocio !',
  sales: '* Selecciona tus ventas semanales !',
  tooLong: (max: number) => `* Máximo ${max} caracteres.`,
} as const;

export const BUSINESS_LIMITS = { name: 60, typeOther: 40 } as const;
const BUSINESS_NAME_PATTERN = /^[A-Za-zÁÉÍÓÚÜÑáéíóúüñ0-9][A-Za-zÁÉÍÓÚÜÑáéíóúüñ0-9 .,'&-]*$/;

export function businessErrors(values: BusinessValues, businessTypes: readonly string[]): FieldErrors {
  const name = values.name.trim();
  const other = values.business_type_other.trim();
  return collect([
    [
      'name',
      !name
        ? BUSINESS_MESSAGES.name
        : name.length > BUSINESS_LIMITS.name
          ? BUSINESS_MESSAGES.tooLong(BUSINESS_LIMITS.name)
          : BUSINESS_NAME_PATTERN.test(name)
            ? undefined
            : BUSINESS_MESSAGES.nameFormat,
    ],
    ['business_age', inChoices(values.business_age, 4) ? undefined : BUSINESS_MESSAGES.age],
    ['business_type', businessTypes.includes(values.business_type) ? undefined : BUSINESS_MESSAGES.type],
    [
      'business_type_other',
      values.business_type !== OTHER_BUSINESS_TYPE
        ? undefined
        : !other
          ? BUSINESS_MESSAGES.typeOther
          : other.length > BUSINESS_LIMITS.typeOther
            ? BUSINESS_MESSAGES.tooLong(BUSINESS_LIMITS.typeOther)
            : undefined,
    ],
    ['sales_average_range_id', values.sales_average_range_id ? undefined : BUSINESS_MESSAGES.sales],
  ]);
}
