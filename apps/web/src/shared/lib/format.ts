import { formatNationalNumber, type CountryCode } from '@provee/domain';

/**
 * '+1', '8095551234' → '+1 809 555 1234'; '+52', '5512345678' → '+52 55 1234 5678'. The spaces
 * are non-breaking, so a number never wraps in the middle, wherever the copy puts it.
 */
export function formatPhone(country: { code: CountryCode; phonePrefix: string }, digits: string): string {
  return `${country.phonePrefix} ${formatNationalNumber(country.code, digits)}`.trim().replace(/ /g, '\u00a0');
}

/** '+18095550101' → '+1 809 555 0101' for the configured country; another country's number as it is. */
export function formatE164(country: { code: CountryCode; phonePrefix: string }, e164: string): string {
  return e164.startsWith(country.phonePrefix) ? formatPhone(country, e164.slice(country.phonePrefix.length)) : e164;
}
