import { PHONE_MAX_LENGTH } from './constants.js';
import type { CountryCode } from './country.js';

/** SPEC §5 home rule: optional plus, three digits, optional separator, three digits, then 4–6 digits. */
const HOME_PHONE_PATTERN = /^\+?\d{3}[-. ]?\d{3}[-. ]?\d{4,6}$/;

export function isValidHomePhone(value: string): boolean {
  return value.length <= PHONE_MAX_LENGTH && HOME_PHONE_PATTERN.test(value);
}

/** What the numeric phone field keeps of what was typed or pasted. */
export function sanitizePhoneInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, PHONE_MAX_LENGTH);
}

/** Characters a person types or pastes into a phone field: digits and the usual formatting. */
export const PHONE_TYPING_MAX_LENGTH = 20;
export function phoneTypingChars(value: string): string {
  return value.replace(/[^\d+\s().-]/g, '').slice(0, PHONE_TYPING_MAX_LENGTH);
}

/**
 * The national digits in what was typed or pasted: formatting dropped, then the country code.
 * do: a leading '+1' or '1' (NANP numbers never start with 1). mx: '+52' always, '52' only when
 * more than 10 digits follow it (a Mexican number may start with 52), and the old mobile '1'.
 * At most 10 digits come back.
 */
export function normalizePhone(country: CountryCode, value: string): string {
  const plus = value.trim().startsWith('+');
  let digits = value.replace(/\D/g, '');
  if (country === 'do') {
    if (digits.startsWith('1')) digits = digits.slice(1);
  } else if (digits.startsWith('52') && (plus || digits.length > PHONE_MAX_LENGTH)) {
    digits = digits.slice(2);
    if (digits.length > PHONE_MAX_LENGTH && digits.startsWith('1')) digits = digits.slice(1);
  }
  return digits.slice(0, PHONE_MAX_LENGTH);
}

/** Mexico's two-digit area codes (Mexico City, Guadalajara, Monterrey); the rest have three. */
const MX_TWO_DIGIT_AREAS = ['55', '56', '33', '81'];

/** The national number grouped the country's way: '809 555 1234', '55 1234 5678', '222 123 4567'. */
export function formatNationalNumber(country: CountryCode, digits: string): string {
  if (digits.length !== PHONE_MAX_LENGTH) return digits;
  if (country === 'mx' && MX_TWO_DIGIT_AREAS.includes(digits.slice(0, 2))) {
    return `${digits.slice(0, 2)} ${digits.slice(2, 6)} ${digits.slice(6)}`;
  }
  return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
}

/** The message under a phone field whose number the country's plan does not allow. */
export const PHONE_INVALID_MESSAGE = 'Ingresa un número celular válido de 10 dígitos.';

/** The numbering plan the server enforces: do — NANP area codes 809, 829, 849; mx — 10 digits. */
const NUMBERING_PLANS: Record<CountryCode, { pattern: RegExp; countryCode: string }> = {
  do: { pattern: /^(809|829|849)[2-9]\d{6}$/, countryCode: '1' },
  mx: { pattern: /^[1-9]\d{9}$/, countryCode: '52' },
};

export function isValidNationalNumber(country: CountryCode, digits: string): boolean {
  return NUMBERING_PLANS[country].pattern.test(digits);
}

/** '8095551234' → '+18095551234' for the configured country. */
export function toE164(country: CountryCode, digits: string): string {
  return `+${NUMBERING_PLANS[country].countryCode}${digits}`;
}

/** The national number back from E.164, as it appears in the app's paths. */
export function fromE164(country: CountryCode, e164: string): string {
  const prefix = `+${NUMBERING_PLANS[country].countryCode}`;
  return e164.startsWith(prefix) ? e164.slice(prefix.length) : e164.replace(/^\+/, '');
}

/** SPEC §3: anonymous_id is a fixed prefix plus the phone digits. */
export const ANONYMOUS_ID_PREFIX = 'anon-';

export function anonymousId(phoneDigits: string): string {
  return `${ANONYMOUS_ID_PREFIX}${phoneDigits.replace(/\D/g, '')}`;
}
