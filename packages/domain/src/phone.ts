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
