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

/** '$10,000 MXN', 'RD$10,000 DOP'…: the amount as the locale writes it, with the currency code. */
export function formatAmount(amount: number, currency: string, locale: string): string {
  const number = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    maximumFractionDigits: 0,
  }).format(amount);
  return `${number} ${currency}`;
}

/** A yearly rate given in percent (36.5) as the locale writes it: '36.5%'. */
export function formatPercent(percent: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
}

/** A calendar day in words: the domain's, beside the value formatter of 'Mis datos' that uses it. */
export { formatDay } from '@provee/domain';
