import { PHONE_MAX_LENGTH } from './constants.js';

/** SPEC §5 home rule: optional plus, three digits, optional separator, three digits, then 4–6 digits. */
const HOME_PHONE_PATTERN = /^\+?\d{3}[-. ]?\d{3}[-. ]?\d{4,6}$/;

export function isValidHomePhone(value: string): boolean {
  return value.length <= PHONE_MAX_LENGTH && HOME_PHONE_PATTERN.test(value);
}

/** What the numeric phone field keeps of what was typed or pasted. */
export function sanitizePhoneInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, PHONE_MAX_LENGTH);
}
