import { ZIP_CODE_LENGTH, ZIP_CODE_NOT_INCLUDED } from '../constants.js';
import type { CountryCode, CountryConfig } from '../country.js';
import { dashCedula, formatCedula, isValidCedula } from './cedula.js';
import { ageOn, isoDate } from './dates.js';
import { MIN_AGE_YEARS } from '../constants.js';
import { nameError } from './names.js';
import { CIVIL_STATUS_VALUES, OTHER_BUSINESS_TYPE } from './options.js';
import { cleanRfc, isValidRfc } from './rfc.js';

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
  underAge: `Debes tener al menos ${MIN_AGE_YEARS} años`,
  residency: '* Selecciona el tiempo viviendo ahí !',
  maritalStatus: '* Selecciona su estado civil !',
} as const;

/** Step 1 'Sobre ti' (SPEC §5). The exact-date age check is the credit policy's, on the server. */
export function aboutYouErrors(values: AboutYouValues, today?: string): FieldErrors {
  const { day, month, year } = values;
  const dateMissing = !day || !month || !year;
  const date = dateMissing ? undefined : isoDate(Number(year), Number(month), Number(day));
  const dateInvalid = !dateMissing && !date;
  // The screen knows the day (country time zone): under 18 is said before any call.
  const underAge = !!date && !!today && ageOn(date, today) < MIN_AGE_YEARS;
  return collect([
    ['name', nameError('name', values.name)],
    ['lastname', nameError('lastname', values.lastname)],
    ['maternal_lastname', nameError('maternal_lastname', values.maternal_lastname)],
    [
      'day',
      !day
        ? ABOUT_YOU_MESSAGES.day
        : dateInvalid
          ? ABOUT_YOU_MESSAGES.dateInvalid
          : underAge
            ? ABOUT_YOU_MESSAGES.underAge
            : undefined,
    ],
    ['month', !month ? ABOUT_YOU_MESSAGES.month : undefined],
    ['year', !year ? ABOUT_YOU_MESSAGES.year : undefined],
    [
      'length_of_residency_in_years',
      inChoices(values.length_of_residency_in_years, 4) ? undefined : ABOUT_YOU_MESSAGES.residency,
    ],
    [
      'marital_status',
      (CIVIL_STATUS_VALUES as readonly string[]).includes(values.marital_status)
        ? undefined
        : ABOUT_YOU_MESSAGES.maritalStatus,
    ],
  ]);
}

/**
 * Tax-id messages with the article and gender of each country's document: 'la cédula' (do),
 * 'el RFC' (mx). SPEC §5 gives the pattern '* Ingresa el {tax id label} !'.
 */
export const TAX_ID_MESSAGES: Record<
  CountryCode,
  { required: string; length: (length: number) => string; invalid: string; inUse: string; letters?: string }
> = {
  do: {
    // SPEC §5's '* Ingresa el {tax id label} !' with the label, and the article of 'la cédula'.
    required: '* Ingresa la Cédula / RNC !',
    letters: '* La cédula o RNC solo lleva números.',
    length: (length) => `* La cédula debe tener ${length} caracteres.`,
    invalid: '* La cédula no es válida, revísala.',
    inUse: 'Ya existe una solicitud con esta cédula. Contacta a soporte.',
  },
  mx: {
    required: '* Ingresa el RFC !',
    length: (length) => `* El RFC debe tener ${length} caracteres.`,
    invalid: '* El RFC no es válido, revísalo.',
    inUse: 'Ya existe una solicitud con este RFC. Contacta a soporte.',
  },
};

/**
 * What the tax-id field keeps of what is typed or pasted (SPEC §5): non-alphanumerics stripped,
 * upper-cased; a cédula grouped 3-7-1. A letter in a cédula stays, so taxIdError can name it
 * instead of the field dropping it without a word.
 */
export function cleanTaxId(country: CountryConfig, value: string): string {
  if (!country.taxId.format) return cleanRfc(value);
  return dashCedula(
    value
      .toUpperCase()
      .replace(/[^0-9A-ZÑ]/g, '')
      .slice(0, 11),
  );
}

/**
 * The tax id as it is stored, hashed (one application per person) and sent to the bureau: a
 * cédula's 11 digits without dashes, an RFC upper-cased. Anything that cannot be part of one is
 * dropped, a letter in a cédula too: where the person should hear about a wrong character, check
 * what the field keeps (cleanTaxId, taxIdError) first.
 */
export function normalizeTaxId(country: CountryConfig, value: string): string {
  return country.taxId.format ? value.replace(/\D/g, '').slice(0, 11) : cleanRfc(value);
}

/** A tax id as people read it (screens, the contract): the cédula dashed 3-7-1, the RFC as it is. */
export function formatTaxId(country: CountryConfig, value: string): string {
  return country.taxId.format ? formatCedula(value) : cleanRfc(value);
}

/** The message of a tax id as the field keeps it (cleanTaxId), or undefined when it is valid. */
export function taxIdError(country: CountryConfig, value: string): string | undefined {
  const { length } = country.taxId;
  const messages = TAX_ID_MESSAGES[country.code];
  if (!value) return messages.required;
  if (messages.letters && /[^\d-]/.test(value)) return messages.letters;
  if (value.length !== length) return messages.length(length);
  if (country.code === 'do' ? !isValidCedula(value) : !isValidRfc(value)) return messages.invalid;
  return undefined;
}

/** Emoji, control and invisible formatting characters: never part of a name, street or number. */
const UNSUPPORTED_CHARACTERS =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Extended_Pictographic}\u{FE0F}\u{20E3}\u{1F1E6}-\u{1F1FF}]/u;

export function hasUnsupportedCharacters(value: string): boolean {
  return UNSUPPORTED_CHARACTERS.test(value);
}

export const UNSUPPORTED_CHARACTERS_MESSAGE = '* No uses emojis ni caracteres especiales.';

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
} as const;

/** The SPEC's texts say 'estado' and 'colonia' (Mexico); the Dominican screen says Provincia and Sector. */
const ADDRESS_OVERRIDES: Record<CountryCode, Partial<Record<'state' | 'neighborhood', string>>> = {
  do: { state: '* Ingresa la provincia !', neighborhood: '* Selecciona el sector !' },
  mx: {},
};

export function addressMessages(country: CountryConfig): {
  [key in keyof typeof ADDRESS_MESSAGES]: key extends 'tooLong' ? (max: number) => string : string;
} {
  return { ...ADDRESS_MESSAGES, ...ADDRESS_OVERRIDES[country.code] };
}

/** A typed neighbourhood follows the street's rules (and its length). */
export const ADDRESS_LIMITS = { street: 80, neighborhood: 80, number: 10, name: 100 } as const;

/** The street's rules: required, no '&', no emoji or control characters, at most `max` characters. */
function lineError(
  value: string,
  max: number,
  messages: { required: string; ampersand: string; tooLong: (max: number) => string },
): string | undefined {
  const line = value.trim();
  if (!line) return messages.required;
  if (line.includes('&')) return messages.ampersand;
  if (hasUnsupportedCharacters(line)) return UNSUPPORTED_CHARACTERS_MESSAGE;
  if (line.length > max) return messages.tooLong(max);
  return undefined;
}

/** Messages of a typed neighbourhood ('Mi sector no aparece'). */
export const typedNeighborhoodMessages = (country: CountryConfig) => ({
  required: `* Ingresa ${theNeighborhood(country)} !`,
  ampersand: `* ${theNeighborhood(country).replace(/^./, (c) => c.toUpperCase())} no puede contener el carácter &.`,
  tooLong: ADDRESS_MESSAGES.tooLong,
});

export function addressErrors(country: CountryConfig, values: AddressValues): FieldErrors {
  const messages = addressMessages(country);
  const zip = country.hasZipCode
    ? !values.zip_code
      ? messages.zip
      : !new RegExp(`^\\d{${ZIP_CODE_LENGTH}}$`).test(values.zip_code)
        ? messages.zipFormat
        : undefined
    : values.zip_code === ZIP_CODE_NOT_INCLUDED
      ? undefined
      : messages.zipFormat;
  const number = (value: string) =>
    hasUnsupportedCharacters(value)
      ? UNSUPPORTED_CHARACTERS_MESSAGE
      : value.length > ADDRESS_LIMITS.number
        ? messages.tooLong(ADDRESS_LIMITS.number)
        : undefined;
  return collect([
    ['zip_code', zip],
    ['state', values.state ? undefined : messages.state],
    ['city', values.city ? undefined : messages.city],
    [
      'neighborhood',
      values.neighborhood_typed
        ? lineError(values.neighborhood, ADDRESS_LIMITS.neighborhood, typedNeighborhoodMessages(country))
        : values.neighborhood
          ? undefined
          : messages.neighborhood,
    ],
    [
      'street_name',
      lineError(values.street_name, ADDRESS_LIMITS.street, {
        required: messages.street,
        ampersand: messages.streetAmpersand,
        tooLong: messages.tooLong,
      }),
    ],
    ['street_number', !values.street_number.trim() ? messages.streetNumber : number(values.street_number)],
    ['apartment_number', number(values.apartment_number)],
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
  nameFormat: '* El nombre solo acepta letras, números, espacios y . , - / # & \' "',
  age: '* Selecciona el tiempo con tu negocio !',
  type: '* Selecciona el giro de tu negocio !',
  typeOther: '* Escribe a qué se dedica tu negocio !',
  sales: '* Selecciona tus ventas semanales !',
  tooLong: (max: number) => `* Máximo ${max} caracteres.`,
} as const;

export const BUSINESS_LIMITS = { name: 60, typeOther: 40 } as const;
/** What shop signs use: letters with accents, digits, '#', quotes, '&', '.', ',', '-', '/'; at least one letter or digit. */
const BUSINESS_NAME_PATTERN = /^(?=.*[A-Za-z0-9À-ÖØ-öø-ÿ])[A-Za-z0-9À-ÖØ-öø-ÿ .,'"’‘“”&#/-]+$/;

/** The business name's rule alone (step 5, and a staff rectification of it), or undefined when valid. */
export function businessNameError(value: string): string | undefined {
  const name = value.trim();
  if (!name) return BUSINESS_MESSAGES.name;
  if (name.length > BUSINESS_LIMITS.name) return BUSINESS_MESSAGES.tooLong(BUSINESS_LIMITS.name);
  if (hasUnsupportedCharacters(name)) return UNSUPPORTED_CHARACTERS_MESSAGE;
  return BUSINESS_NAME_PATTERN.test(name) ? undefined : BUSINESS_MESSAGES.nameFormat;
}

export function businessErrors(values: BusinessValues, businessTypes: readonly string[]): FieldErrors {
  const other = values.business_type_other.trim();
  return collect([
    ['name', businessNameError(values.name)],
    ['business_age', inChoices(values.business_age, 4) ? undefined : BUSINESS_MESSAGES.age],
    ['business_type', businessTypes.includes(values.business_type) ? undefined : BUSINESS_MESSAGES.type],
    [
      'business_type_other',
      values.business_type !== OTHER_BUSINESS_TYPE
        ? undefined
        : !other
          ? BUSINESS_MESSAGES.typeOther
          : hasUnsupportedCharacters(other)
            ? UNSUPPORTED_CHARACTERS_MESSAGE
            : other.length > BUSINESS_LIMITS.typeOther
              ? BUSINESS_MESSAGES.tooLong(BUSINESS_LIMITS.typeOther)
              : undefined,
    ],
    ['sales_average_range_id', values.sales_average_range_id ? undefined : BUSINESS_MESSAGES.sales],
  ]);
}
