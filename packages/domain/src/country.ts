import { z } from 'zod';

export const COUNTRY_CODES = ['do', 'mx'] as const;
export const countryCodeSchema = z.enum(COUNTRY_CODES);
export type CountryCode = z.infer<typeof countryCodeSchema>;

/** Country configuration of SPEC §3: what changes between the Dominican and the Mexican market. */
export interface CountryConfig {
  code: CountryCode;
  locale: string;
  currency: 'DOP' | 'MXN';
  phonePrefix: string;
  taxId: {
    label: string;
    /** Length of the value as shown, dashes included when `format` applies. */
    length: number;
    /** Digits are grouped 3-7-1 with dashes (Dominican cédula). */
    format: boolean;
    /** Pre-generated from names and birth date (Mexican RFC). */
    generated: boolean;
    /** Where someone who does not know their tax id can look it up. */
    lookupUrl: string;
  };
  storeType: string;
  neighborhoodLabel: string;
  hasZipCode: boolean;
  showCompanyName: boolean;
  /** ISO 3166-1 alpha-2 code the address search is restricted to. */
  addressSearchCountry: string;
  /** Where "today" is decided (ages, dates of consent), and the reminders' quiet hours. */
  timeZone: string;
}

export const COUNTRIES: Record<CountryCode, CountryConfig> = {
  do: {
    code: 'do',
    locale: 'es-DO',
    currency: 'DOP',
    phonePrefix: '+1',
    taxId: {
      label: 'Cédula / RNC',
      length: 13,
      format: true,
      generated: false,
      lookupUrl: 'https://dgii.gov.do/app/WebApps/ConsultasWeb2/ConsultasWeb/consultas/ciudadanos.aspx',
    },
    storeType: 'Colmado',
    neighborhoodLabel: 'Sector',
    hasZipCode: false,
    showCompanyName: true,
    addressSearchCountry: 'do',
    timeZone: 'America/Santo_Domingo',
  },
  mx: {
    code: 'mx',
    locale: 'es-MX',
    currency: 'MXN',
    phonePrefix: '+52',
    taxId: {
      label: 'RFC',
      length: 13,
      format: false,
      generated: true,
      lookupUrl: 'https://www.sat.gob.mx/aplicacion/operacion/31274/consulta-tu-clave-de-rfc-mediante-curp',
    },
    storeType: 'Tiendita',
    neighborhoodLabel: 'Colonia',
    hasZipCode: true,
    showCompanyName: false,
    addressSearchCountry: 'mx',
    timeZone: 'America/Mexico_City',
  },
};

export function getCountry(code: CountryCode): CountryConfig {
  return COUNTRIES[code];
}

/** 'yyyy-MM-dd' of `now` in the country's time zone. */
export function countryToday(country: CountryConfig, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: country.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** The hour (0–23) of `now` on the country's clocks. */
export function countryHour(country: CountryConfig, now: Date): number {
  return Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: country.timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now),
  );
}
