import {
  addressErrors,
  ageOn,
  aboutYouErrors,
  businessErrors,
  cleanRfc,
  countryToday,
  formatCedula,
  getCountry,
  parseIsoDate,
  taxIdError,
  type AddressValues,
} from '@provee/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { businessAddresses, businesses, users } from '../../db/schema.js';
import { AppError, assertNoErrors, invalidFields, notEligible, stepNotCurrent } from '../../errors.js';
import { appendAuditEvent } from '../audit/audit.service.js';
import { listBusinessTypes, listSalesRanges, resolveAddressNames } from '../catalog/catalog.service.js';
import type { UserRow } from '../users/users.service.js';

export interface PersonalData {
  name: string;
  lastname: string;
  maternal_lastname: string;
  dob: string;
  length_of_residency_in_years: number;
  marital_status: string;
  utm_source: string | null;
  utm_name: string | null;
  utm_medium: string | null;
  sales_identifier: string;
  anonymous_id: string | null;
  kiban_flow_version_id: number | null;
}

function assertStep(user: UserRow, step: string): void {
  if (user.nextStep !== step) throw stepNotCurrent();
}

async function stepSaved(app: FastifyInstance, userId: string, step: string, payload: Record<string, unknown> = {}) {
  await appendAuditEvent(app.db, { applicationId: userId, actor: `user:${userId}`, type: 'step.saved', payload: { step, ...payload } });
}

async function policyRefused(app: FastifyInstance, applicationId: string, rule: string, payload: Record<string, unknown>) {
  await appendAuditEvent(app.db, { applicationId, actor: 'system', type: 'policy.refused', payload: { rule, ...payload } });
}

/** Step 1: the shopkeeper's personal data creates the application (next step: tax id). */
export async function registerShopkeeper(app: FastifyInstance, phoneE164: string, data: PersonalData): Promise<UserRow> {
  const date = parseIsoDate(data.dob);
  const errors = aboutYouErrors({
    name: data.name,
    lastname: data.lastname,
    maternal_lastname: data.maternal_lastname,
    day: date ? String(date.day) : data.dob ? '0' : '',
    month: date ? String(date.month) : data.dob ? '1' : '',
    year: date ? String(date.year) : data.dob ? '1' : '',
    length_of_residency_in_years: String(data.length_of_residency_in_years),
    marital_status: data.marital_status,
  });
  const { day, month, year, ...rest } = errors;
  const dobMessage = day ?? month ?? year;
  assertNoErrors({ ...rest, ...(dobMessage ? { dob: dobMessage } : {}) });

  const country = getCountry(app.config.COUNTRY);
  const age = ageOn(data.dob, countryToday(country, app.clock()));
  const { eligibility } = app.policy;
  if (age < eligibility.min_age || age > eligibility.max_age) {
    await policyRefused(app, `phone:${phoneE164}`, 'age', { age, min_age: eligibility.min_age, max_age: eligibility.max_age, policy_version: app.policy.version });
    throw notEligible('NOT_ELIGIBLE_AGE');
  }

  const [created] = await app.db
    .insert(users)
    .values({
      phoneE164,
      nextStep: 'TAX_ACCOUNT',
      status: 'IN_PROGRESS',
      name: data.name,
      lastname: data.lastname,
      maternalLastname: data.maternal_lastname || null,
      dobEncrypted: app.cipher.encrypt(data.dob),
      lengthOfResidencyInYears: data.length_of_residency_in_years,
      maritalStatus: data.marital_status,
      anonymousId: data.anonymous_id,
      utmSource: data.utm_source,
      utmName: data.utm_name,
      utmMedium: data.utm_medium,
      salesIdentifier: data.sales_identifier,
      flowVersionId: data.kiban_flow_version_id,
    })
    .onConflictDoNothing({ target: users.phoneE164 })
    .returning();
  if (!created) {
    throw new AppError(409, 'USER_EXISTS', 'phone already registered', 'Este número ya tiene un registro. Te llevamos a donde te quedaste.');
  }
  await appendAuditEvent(app.db, {
    applicationId: created.id,
    actor: `user:${created.id}`,
    type: 'user.registered',
    payload: { step: 'PERSONAL_DATA', utm_source: data.utm_source, utm_medium: data.utm_medium, flow_version_id: data.kiban_flow_version_id },
  });
  return created;
}

/** Step 2: the tax id, checked by the country's rule, encrypted, one application per person. */
export async function saveTaxId(app: FastifyInstance, user: UserRow, taxPayerId: string): Promise<void> {
  assertStep(user, 'TAX_ACCOUNT');
  const country = getCountry(app.config.COUNTRY);
  const shown = country.taxId.format ? formatCedula(taxPayerId) : cleanRfc(taxPayerId);
  const error = taxIdError(country, shown);
  if (error) throw invalidFields({ tax_payer_id: error });
  const canonical = shown.replace(/-/g, '');
  if (country.code === 'mx' && user.dobEncrypted) {
    const dob = app.cipher.decrypt(user.dobEncrypted);
    if (canonical.slice(4, 10) !== dob.slice(2).replace(/-/g, '')) {
      throw invalidFields({ tax_payer_id: '* El RFC no corresponde a tu fecha de nacimiento.' });
    }
  }
  const hash = app.cipher.lookupHash(`${country.code}:${canonical}`);
  const [taken] = await app.db.select({ id: users.id }).from(users).where(and(eq(users.taxIdHash, hash), ne(users.id, user.id))).limit(1);
  if (taken) {
    await policyRefused(app, user.id, 'tax-id-in-use', {});
    throw new AppError(422, 'TAX_ID_IN_USE', 'tax id already registered', `Ya existe una solicitud con este ${country.taxId.label}. Contacta a soporte.`);
  }
  await app.db
    .update(users)
    .set({ taxIdEncrypted: app.cipher.encrypt(canonical), taxIdHash: hash, nextStep: 'BUSINESS_ADDRESS', updatedAt: app.clock() })
    .where(eq(users.id, user.id));
  await stepSaved(app, user.id, 'TAX_ACCOUNT');
}

/** Step 4: the business address, in the catalogue and inside the area the lender serves. */
export async function saveAddress(app: FastifyInstance, user: UserRow, values: AddressValues): Promise<void> {
  assertStep(user, 'BUSINESS_ADDRESS');
  const country = getCountry(app.config.COUNTRY);
  assertNoErrors(addressErrors(country, values));
  const found = await resolveAddressNames(app.db, country.code, values);
  if (!found.state) throw invalidFields({ state: 'No encontramos este estado, elígelo de la lista.' });
  if (!found.city) throw invalidFields({ city: 'No encontramos este municipio, elígelo de la lista.' });
  // A typed neighbourhood that is in the catalogue after all is stored as the catalogue's.
  if (!found.neighborhood && !values.neighborhood_typed) {
    throw invalidFields({ neighborhood: `No encontramos este ${country.neighborhoodLabel.toLowerCase()}, elígelo de la lista.` });
  }
  if (country.hasZipCode && found.neighborhood?.zipCode && found.neighborhood.zipCode !== values.zip_code) {
    throw invalidFields({ zip_code: '* El código postal no corresponde a la colonia.' });
  }
  if (!found.city.allowed) {
    await policyRefused(app, user.id, 'allowed-cities', { city: found.city.name, state: found.state.name });
    throw new AppError(412, 'OUT_OF_SERVICE_AREA', 'city not served', 'Por ahora solo damos servicio en algunos municipios.');
  }
  const row = {
    zipCode: values.zip_code,
    state: found.state.name,
    city: found.city.name,
    neighborhood: found.neighborhood?.name ?? values.neighborhood.trim().replace(/\s+/g, ' '),
    neighborhoodTyped: !found.neighborhood,
    streetName: values.street_name.trim(),
    streetNumber: values.street_number.trim(),
    apartmentNumber: values.apartment_number.trim() || null,
    municipalityId: found.city.id,
    updatedAt: app.clock(),
  };
  await app.db.transaction(async (tx) => {
    await tx.insert(businessAddresses).values({ userId: user.id, ...row }).onConflictDoUpdate({ target: businessAddresses.userId, set: row });
    await tx.update(users).set({ nextStep: 'ABOUT_STORE', updatedAt: app.clock() }).where(eq(users.id, user.id));
  });
  await stepSaved(app, user.id, 'BUSINESS_ADDRESS', { municipality_id: found.city.id, neighborhood_typed: !found.neighborhood });
}

export interface BusinessData {
  name: string;
  business_type: string;
  business_type_other: string;
  sales_average_range_id: number;
  business_age: number;
}

/** Step 5: the business; the credit policy's minimums for business age and sales apply here. */
export async function saveBusiness(app: FastifyInstance, user: UserRow, data: BusinessData): Promise<void> {
  assertStep(user, 'ABOUT_STORE');
  const country = app.config.COUNTRY;
  const [types, ranges] = await Promise.all([listBusinessTypes(app.db, country), listSalesRanges(app.db, country)]);
  const range = ranges.find((item) => item.id === data.sales_average_range_id);
  assertNoErrors(
    businessErrors(
      {
        name: data.name,
        business_age: String(data.business_age),
        business_type: data.business_type,
        business_type_other: data.business_type_other,
        sales_average_range_id: range ? String(range.id) : '',
      },
      types,
    ),
  );
  const { eligibility } = app.policy;
  const refusal =
    data.business_age < eligibility.min_business_age_years
      ? { rule: 'min_business_age_years', code: 'NOT_ELIGIBLE_BUSINESS_AGE' }
      : range!.position + 1 < eligibility.min_sales_range
        ? { rule: 'min_sales_range', code: 'NOT_ELIGIBLE_SALES' }
        : null;
  const row = {
    name: data.name.trim(),
    businessType: data.business_type,
    businessTypeOther: data.business_type === 'Otros' ? data.business_type_other.trim() : null,
    salesRangeId: range!.id,
    businessAgeYears: data.business_age,
    updatedAt: app.clock(),
  };
  await app.db.transaction(async (tx) => {
    await tx.insert(businesses).values({ userId: user.id, ...row }).onConflictDoUpdate({ target: businesses.userId, set: row });
    // A refusal is final: the application moves on as rejected rather than back to the form.
    await tx
      .update(users)
      .set({ nextStep: 'ACCOUNT_NIP', status: refusal ? 'REJECTED' : 'IN_PROGRESS', updatedAt: app.clock() })
      .where(eq(users.id, user.id));
  });
  await stepSaved(app, user.id, 'ABOUT_STORE');
  if (refusal) {
    await policyRefused(app, user.id, refusal.rule, { business_age: data.business_age, sales_range: range!.position + 1, policy_version: app.policy.version });
    throw notEligible(refusal.code);
  }
}
