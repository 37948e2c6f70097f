import {
  addressErrors,
  ageOn,
  aboutYouErrors,
  businessErrors,
  cleanTaxId,
  countryToday,
  getCountry,
  parseIsoDate,
  TAX_ID_MESSAGES,
  taxIdError,
  type AddressValues,
} from '@provee/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { businessAddresses, businesses, users } from '../../db/schema.js';
import { AppError, assertNoErrors, invalidFields, notEligible } from '../../errors.js';
import { assertAt, createApplication, engineOf, moveApplication, type ApplicationRow } from '../application/index.js';
import { appendAuditEvent, phoneAuditId } from '../audit/index.js';
import { listBusinessTypes, listSalesRanges, resolveAddressNames } from '../catalog/index.js';
import type { Tx } from '../../db/client.js';
import type { UserRow } from '../users/index.js';

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

async function policyRefused(
  app: FastifyInstance,
  applicationId: string,
  rule: string,
  payload: Record<string, unknown>,
) {
  await appendAuditEvent(app.db, {
    applicationId,
    actor: 'system',
    type: 'policy.refused',
    payload: { rule, ...payload },
    at: app.clock(),
  });
}

/** The rules of step 1 and the policy's ages; `auditId` is where a refusal is recorded. */
export async function checkPersonalData(
  app: FastifyInstance,
  auditId: string,
  data: Pick<
    PersonalData,
    'name' | 'lastname' | 'maternal_lastname' | 'dob' | 'length_of_residency_in_years' | 'marital_status'
  >,
): Promise<void> {
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
    await policyRefused(app, auditId, 'age', {
      age,
      min_age: eligibility.min_age,
      max_age: eligibility.max_age,
      policy_version: app.policy.version,
    });
    // The reason the person can act on, not the business one.
    const reason =
      age < eligibility.min_age
        ? `Debes tener al menos ${eligibility.min_age} años para solicitar el crédito.`
        : `Por ahora el crédito es para personas de hasta ${eligibility.max_age} años.`;
    throw notEligible('NOT_ELIGIBLE_AGE', 422, reason);
  }
}

/** Step 1: the shopkeeper's personal data creates the application (next step: tax id). */
export async function registerShopkeeper(
  app: FastifyInstance,
  phoneE164: string,
  data: PersonalData,
): Promise<ApplicationRow> {
  await checkPersonalData(app, phoneAuditId(app, phoneE164), data);
  return createApplication(engineOf(app), {
    phoneE164,
    set: {
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
    },
    event: {
      type: 'user.registered',
      payload: {
        step: 'PERSONAL_DATA',
        utm_source: data.utm_source,
        utm_medium: data.utm_medium,
        flow_version_id: data.kiban_flow_version_id,
      },
    },
  });
}

const RFC_NOT_YOURS = '* El RFC no corresponde a tu fecha de nacimiento.';

/**
 * The tax id by the country's rule (and, in Mexico, the birth date it carries): the columns to
 * store and the refusal of a tax id another application holds (recorded when it is thrown).
 */
export async function checkTaxId(app: FastifyInstance, user: UserRow, taxPayerId: string, dobIso?: string) {
  const country = getCountry(app.config.COUNTRY);
  const shown = cleanTaxId(country, taxPayerId);
  const error = taxIdError(country, shown);
  if (error) throw invalidFields({ tax_payer_id: error });
  const canonical = shown.replace(/-/g, '');
  if (country.code === 'mx' && (dobIso || user.dobEncrypted)) {
    const dob = dobIso ?? app.cipher.decrypt(user.dobEncrypted!);
    if (canonical.slice(4, 10) !== dob.slice(2).replace(/-/g, '')) {
      throw invalidFields({ tax_payer_id: RFC_NOT_YOURS });
    }
  }
  const hash = app.cipher.lookupHash(`${country.code}:${canonical}`);
  const taken = new AppError(422, 'TAX_ID_IN_USE', 'tax id already registered', TAX_ID_MESSAGES[country.code].inUse);
  const refuse = async () => {
    await policyRefused(app, user.id, 'tax-id-in-use', {});
    return taken;
  };
  // The cheap answer first; the unique index decides when two applications race for one tax id.
  const [other] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.taxIdHash, hash), ne(users.id, user.id)))
    .limit(1);
  if (other) throw await refuse();
  return {
    canonical,
    set: { taxIdEncrypted: app.cipher.encrypt(canonical), taxIdHash: hash },
    taken,
    refuse,
    onUniqueViolation: (constraint: string) => (constraint.includes('tax_id_hash') ? taken : undefined),
  };
}

/**
 * Mexico: a saved RFC carries the birth date (the six digits after its letters). Checked on the row
 * as the correction leaves it, locked: a correction of the other one that committed meanwhile is
 * seen, and the two can never end up apart.
 */
export function rfcCarriesBirthDate(app: FastifyInstance, refusal: Record<string, string>) {
  return (row: ApplicationRow) => {
    if (getCountry(app.config.COUNTRY).code !== 'mx' || !row.taxIdEncrypted || !row.dobEncrypted) return;
    const rfc = app.cipher.decrypt(row.taxIdEncrypted);
    const dob = app.cipher.decrypt(row.dobEncrypted);
    if (rfc.slice(4, 10) !== dob.slice(2).replace(/-/g, '')) throw invalidFields(refusal);
  };
}

/** Step 2: the tax id, checked by the country's rule, encrypted, one application per person. */
export async function saveTaxId(app: FastifyInstance, user: UserRow, taxPayerId: string): Promise<ApplicationRow> {
  const engine = engineOf(app);
  await assertAt(engine, user, 'tax-id');
  const { set, taken, refuse, onUniqueViolation } = await checkTaxId(app, user, taxPayerId);
  try {
    const { row } = await moveApplication(engine, {
      userId: user.id,
      transition: 'tax-id',
      actor: `user:${user.id}`,
      set,
      // Checked above on the birth date read then; again on the row, a correction of it committed meanwhile.
      write: async (tx) => {
        const [saved] = await tx.select().from(users).where(eq(users.id, user.id));
        rfcCarriesBirthDate(app, { tax_payer_id: RFC_NOT_YOURS })(saved!);
      },
      onUniqueViolation,
    });
    return row;
  } catch (failure) {
    if (failure === taken) throw await refuse();
    throw failure;
  }
}

/** The address by the rules, the catalogue and the served area: the row to store and what the event records. */
export async function checkAddress(app: FastifyInstance, user: UserRow, values: AddressValues) {
  const country = getCountry(app.config.COUNTRY);
  assertNoErrors(addressErrors(country, values));
  const found = await resolveAddressNames(app.db, country.code, values);
  if (!found.state) throw invalidFields({ state: 'No encontramos este estado, elígelo de la lista.' });
  if (!found.city) throw invalidFields({ city: 'No encontramos este municipio, elígelo de la lista.' });
  // A typed neighbourhood that is in the catalogue after all is stored as the catalogue's.
  if (!found.neighborhood && !values.neighborhood_typed) {
    throw invalidFields({
      neighborhood: `No encontramos este ${country.neighborhoodLabel.toLowerCase()}, elígelo de la lista.`,
    });
  }
  if (country.hasZipCode && found.neighborhood?.zipCode && found.neighborhood.zipCode !== values.zip_code) {
    throw invalidFields({ zip_code: '* El código postal no corresponde a la colonia.' });
  }
  if (!found.city.allowed) {
    await policyRefused(app, user.id, 'allowed-cities', { city: found.city.name, state: found.state.name });
    throw new AppError(
      412,
      'OUT_OF_SERVICE_AREA',
      'city not served',
      'Por ahora solo damos servicio en algunos municipios.',
    );
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
  return {
    write: async (tx: Tx) => {
      await tx
        .insert(businessAddresses)
        .values({ userId: user.id, ...row })
        .onConflictDoUpdate({ target: businessAddresses.userId, set: row });
    },
    payload: { municipality_id: found.city.id, neighborhood_typed: !found.neighborhood },
  };
}

/** Step 4: the business address, in the catalogue and inside the area the lender serves. */
export async function saveAddress(app: FastifyInstance, user: UserRow, values: AddressValues): Promise<ApplicationRow> {
  const engine = engineOf(app);
  await assertAt(engine, user, 'address');
  const { write, payload } = await checkAddress(app, user, values);
  const moved = await moveApplication(engine, {
    userId: user.id,
    transition: 'address',
    actor: `user:${user.id}`,
    write,
    event: { payload },
  });
  return moved.row;
}

export interface BusinessData {
  name: string;
  business_type: string;
  business_type_other: string;
  sales_average_range_id: number;
  business_age: number;
}

/** Step 5: the business; the credit policy's minimums for business age and sales apply here. */
export async function saveBusiness(app: FastifyInstance, user: UserRow, data: BusinessData): Promise<ApplicationRow> {
  const engine = engineOf(app);
  await assertAt(engine, user, 'business');
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
  // A refusal is final: the application moves on as rejected rather than back to the form.
  const moved = await moveApplication(engine, {
    userId: user.id,
    transition: 'business',
    to: { step: 'ACCOUNT_NIP', status: refusal ? 'REJECTED' : 'IN_PROGRESS' },
    actor: `user:${user.id}`,
    write: async (tx) => {
      await tx
        .insert(businesses)
        .values({ userId: user.id, ...row })
        .onConflictDoUpdate({ target: businesses.userId, set: row });
      if (refusal) {
        const payload = {
          rule: refusal.rule,
          business_age: data.business_age,
          sales_range: range!.position + 1,
          policy_version: app.policy.version,
        };
        await appendAuditEvent(tx, {
          applicationId: user.id,
          actor: 'system',
          type: 'policy.refused',
          payload,
          at: app.clock(),
        });
      }
    },
  });
  if (refusal) throw notEligible(refusal.code);
  return moved.row;
}
