import {
  formatTaxId,
  fromE164,
  getCountry,
  type ApplicationStatus,
  type CountryCode,
  type NextStep,
} from '@provee/domain';
import type { AppCipher, FieldCipher } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { personCipher } from '../privacy/index.js';
import { findApplicantRows, type BusinessAddressRow, type BusinessRow, type UserRow } from './users.store.js';

/**
 * The applicant as the other modules read them: the person, their tax id and phone in the forms
 * each use needs, their business and its address. The birth date and the tax id are stored
 * encrypted with the applicant's own data key (decision 032); this file is the one place that seals
 * and opens them (docs/CONVENTIONS.md). The helpers that take `{ cipher }` want the applicant's cipher
 * (`applicantKeys`), never the application's.
 */
export interface Applicant {
  id: string;
  /** Where the application stands (the database refuses any step or status the domain does not list). */
  nextStep: NextStep;
  status: ApplicationStatus;
  person: ApplicantPerson;
  taxId: TaxIdForms | null;
  phone: { e164: string; national: string };
  business: Pick<
    BusinessRow,
    'name' | 'businessType' | 'businessTypeOther' | 'salesRangeId' | 'businessAgeYears'
  > | null;
  address: Omit<BusinessAddressRow, 'userId' | 'updatedAt'> | null;
}

export interface ApplicantPerson {
  name: string | null;
  lastname: string | null;
  maternalLastname: string | null;
  /** 'yyyy-MM-dd'. */
  birthDate: string | null;
  lengthOfResidencyInYears: number | null;
  maritalStatus: string | null;
}

export interface TaxIdForms {
  /** As stored, hashed and sent to the bureau (normalizeTaxId). */
  canonical: string;
  /** As people read it: the cédula dashed 3-7-1, the RFC as it is (formatTaxId). */
  shown: string;
}

export interface ApplicantDeps {
  db: Executor;
  cipher: AppCipher;
  config: { COUNTRY: CountryCode };
}

/** What seals and opens one applicant's fields: their own cipher, and the country for the tax id's forms. */
export interface ApplicantKeys {
  cipher: FieldCipher;
  config: { COUNTRY: CountryCode };
}

/**
 * The applicant's keys (their data key is made on first use). `db` may be the caller's
 * transaction; on PGlite, never the database while a transaction of the caller is open.
 */
export async function applicantKeys(
  deps: { cipher: AppCipher; config: { COUNTRY: CountryCode } },
  db: Executor,
  userId: string,
): Promise<ApplicantKeys> {
  return { cipher: await personCipher(deps, db, userId), config: deps.config };
}

/** The applicant of an application, each personal field decrypted once; undefined when there is none. */
export async function describeApplicant(deps: ApplicantDeps, applicationId: string): Promise<Applicant | undefined> {
  const rows = await findApplicantRows(deps.db, applicationId);
  if (!rows) return undefined;
  const { user, business, address } = rows;
  const keys = await applicantKeys(deps, deps.db, user.id);
  return {
    id: user.id,
    nextStep: user.nextStep as NextStep,
    status: user.status as ApplicationStatus,
    person: applicantPerson(keys, user),
    taxId: applicantTaxId(keys, user),
    phone: { e164: user.phoneE164, national: fromE164(deps.config.COUNTRY, user.phoneE164) },
    business: business && {
      name: business.name,
      businessType: business.businessType,
      businessTypeOther: business.businessTypeOther,
      salesRangeId: business.salesRangeId,
      businessAgeYears: business.businessAgeYears,
    },
    address: address && {
      zipCode: address.zipCode,
      state: address.state,
      city: address.city,
      neighborhood: address.neighborhood,
      neighborhoodTyped: address.neighborhoodTyped,
      neighborhoodReviewedAt: address.neighborhoodReviewedAt,
      neighborhoodReviewedBy: address.neighborhoodReviewedBy,
      streetName: address.streetName,
      streetNumber: address.streetNumber,
      apartmentNumber: address.apartmentNumber,
      municipalityId: address.municipalityId,
    },
  };
}

/** The person of an application row a caller already holds (a step's answer, a row locked in a transaction). */
export function applicantPerson(
  deps: { cipher: FieldCipher },
  row: Pick<UserRow, 'name' | 'lastname' | 'maternalLastname' | 'dobEncrypted'> &
    Partial<Pick<UserRow, 'lengthOfResidencyInYears' | 'maritalStatus'>>,
): ApplicantPerson {
  return {
    name: row.name,
    lastname: row.lastname,
    maternalLastname: row.maternalLastname,
    birthDate: row.dobEncrypted ? deps.cipher.decrypt(row.dobEncrypted) : null,
    lengthOfResidencyInYears: row.lengthOfResidencyInYears ?? null,
    maritalStatus: row.maritalStatus ?? null,
  };
}

/** The tax id of an application row a caller already holds, or null before the tax-id step. */
export function applicantTaxId(deps: ApplicantKeys, row: Pick<UserRow, 'taxIdEncrypted'>): TaxIdForms | null {
  if (!row.taxIdEncrypted) return null;
  const canonical = deps.cipher.decrypt(row.taxIdEncrypted);
  return { canonical, shown: formatTaxId(getCountry(deps.config.COUNTRY), canonical) };
}

/** The birth date's column as stored. */
export function birthDateColumn(deps: { cipher: FieldCipher }, birthDate: string): Pick<UserRow, 'dobEncrypted'> {
  return { dobEncrypted: deps.cipher.encrypt(birthDate) };
}

/**
 * The tax id's columns as stored: encrypted, and a keyed hash of the country and the canonical value
 * for exact lookups (one application per person; the back office's search by tax id).
 */
export function taxIdColumns(deps: ApplicantKeys, canonical: string): Pick<UserRow, 'taxIdEncrypted' | 'taxIdHash'> {
  return { taxIdEncrypted: deps.cipher.encrypt(canonical), taxIdHash: taxIdLookupHash(deps, canonical) };
}

/** The keyed hash an application's tax id is found by, never by decrypting. */
export function taxIdLookupHash(deps: { cipher: FieldCipher; config: { COUNTRY: CountryCode } }, canonical: string) {
  return deps.cipher.lookupHash(`${deps.config.COUNTRY}:${canonical}`);
}
