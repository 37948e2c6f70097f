import type { ContractParty } from '../types.js';

/**
 * Formatting shared by the templates. Only what cannot change the meaning of a clause lives here
 * (dates, money, role names); the wording of each version stays in its own file.
 */
export function longDate(date: Date, locale: 'es-DO' | 'es-MX', timeZone: string): string {
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone }).format(date);
}

/** 25000 → '25,000.00' (both countries group with commas and use a decimal point). */
export function decimal(amount: number, locale: 'es-DO' | 'es-MX'): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' })
    .format(amount)
    .replace(/\u00a0/g, ' ');
}

export function avalRole(party: ContractParty): string {
  if (party.avalType === 'PARTNER') return 'Aval (socio)';
  if (party.avalType === 'COLLATERAL') return 'Aval (garante)';
  return 'Aval';
}
