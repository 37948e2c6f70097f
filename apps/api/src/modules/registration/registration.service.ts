import { randomUUID } from 'node:crypto';
import {
  ageOn,
  aboutYouErrors,
  businessErrors,
  countryToday,
  getCountry,
  parseIsoDate,
  type AddressValues,
} from '@provee/domain';
import type { Config } from '../../config.js';
import type { AppCipher } from '../../crypto.js';
import type { Db, Tx } from '../../db/client.js';
import { AppError, assertNoErrors, notEligible } from '../../errors.js';
import type { Secrets } from '../../secrets.js';
import { assertAt, createApplication, engineOf, moveApplication, type ApplicationRow } from '../application/index.js';
import { appendAuditEvent, phoneAuditId } from '../audit/index.js';
import { addressInCatalog, listBusinessTypes, listSalesRanges } from '../catalog/index.js';
import type { PolicyBook } from '../policies/index.js';
import {
  applicantKeys,
  birthDateColumn,
  upsertBusiness,
  upsertBusinessAddress,
  type ApplicantKeys,
  type UserRow,
} from '../users/index.js';

/** What the registration steps use (routes pass the app, which has all of it). */
export interface RegistrationDeps {
  db: Db;
  clock: () => Date;
  config: Pick<Config, 'COUNTRY'>;
  cipher: AppCipher;
  /** The credit policy's live version: its ages, business age and sales minimums. */
  policies: PolicyBook;
  /** The audit id of a phone with no application yet (an age refusal). */
  secrets: Secrets;
}

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

export async function policyRefused(
  deps: Pick<RegistrationDeps, 'db' | 'clock'>,
  applicationId: string,
  rule: string,
  payload: Record<string, unknown>,
) {
  await appendAuditEvent(deps.db, {
    applicationId,
    actor: 'system',
    type: 'policy.refused',
    payload: { rule, ...payload },
    at: deps.clock(),
  });
}

/** The rules of step 1 and the policy's ages; `auditId` is where a refusal is recorded. */
type PersonalFields = Pick<
  PersonalData,
  'name' | 'lastname' | 'maternal_lastname' | 'dob' | 'length_of_residency_in_years' | 'marital_status'
>;

/** The application's columns of the personal data (the birth date sealed): step 1 writes them, a correction again. */
export function personalDataColumns(deps: Pick<ApplicantKeys, 'cipher'>, data: PersonalFields) {
  return {
    name: data.name,
    lastname: data.lastname,
    maternalLastname: data.maternal_lastname || null,
    ...birthDateColumn(deps, data.dob),
    lengthOfResidencyInYears: data.length_of_residency_in_years,
    maritalStatus: data.marital_status,
  };
}

export async function checkPersonalData(deps: RegistrationDeps, auditId: string, data: PersonalFields): Promise<void> {
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

  const country = getCountry(deps.config.COUNTRY);
  const age = ageOn(data.dob, countryToday(country, deps.clock()));
  const live = await deps.policies.live();
  const { eligibility } = live.policy;
  if (age < eligibility.min_age || age > eligibility.max_age) {
    await policyRefused(deps, auditId, 'age', {
      age,
      min_age: eligibility.min_age,
      max_age: eligibility.max_age,
      policy_version: live.label,
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
  deps: RegistrationDeps,
  phoneE164: string,
  data: PersonalData,
): Promise<ApplicationRow> {
  await checkPersonalData(deps, phoneAuditId(deps, phoneE164), data);
  // The id is chosen first: the birth date is sealed with the new applicant's own key (decision 032).
  // The key is made in the creating transaction, so a refused creation (USER_EXISTS) leaves none.
  const id = randomUUID();
  return createApplication(engineOf(deps), {
    id,
    phoneE164,
    set: async (tx) => ({
      ...personalDataColumns(await applicantKeys(deps, tx, id), data),
      anonymousId: data.anonymous_id,
      utmSource: data.utm_source,
      utmName: data.utm_name,
      utmMedium: data.utm_medium,
      salesIdentifier: data.sales_identifier,
      flowVersionId: data.kiban_flow_version_id,
    }),
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

/** The address by the rules, the catalogue and the served area: the row to store and what the event records. */
export async function checkAddress(deps: RegistrationDeps, user: UserRow, values: AddressValues) {
  const { address, allowed } = await addressInCatalog(deps.db, getCountry(deps.config.COUNTRY), values);
  if (!allowed) {
    await policyRefused(deps, user.id, 'allowed-cities', { city: address.city, state: address.state });
    throw new AppError(
      412,
      'OUT_OF_SERVICE_AREA',
      'city not served',
      'Por ahora solo damos servicio en algunos municipios.',
    );
  }
  const row = { ...address, updatedAt: deps.clock() };
  return {
    write: (tx: Tx) => upsertBusinessAddress(tx, user.id, row),
    payload: { municipality_id: address.municipalityId, neighborhood_typed: address.neighborhoodTyped },
  };
}

/** Step 4: the business address, in the catalogue and inside the area the lender serves. */
export async function saveAddress(
  deps: RegistrationDeps,
  user: UserRow,
  values: AddressValues,
): Promise<ApplicationRow> {
  const engine = engineOf(deps);
  await assertAt(engine, user, 'address');
  const { write, payload } = await checkAddress(deps, user, values);
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
export async function saveBusiness(deps: RegistrationDeps, user: UserRow, data: BusinessData): Promise<ApplicationRow> {
  const engine = engineOf(deps);
  await assertAt(engine, user, 'business');
  const country = deps.config.COUNTRY;
  const [types, ranges] = await Promise.all([listBusinessTypes(deps.db, country), listSalesRanges(deps.db, country)]);
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
  const live = await deps.policies.live();
  const { eligibility } = live.policy;
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
    updatedAt: deps.clock(),
  };
  // A refusal is final: the application moves on as rejected rather than back to the form.
  const moved = await moveApplication(engine, {
    userId: user.id,
    transition: 'business',
    to: { step: 'ACCOUNT_NIP', status: refusal ? 'REJECTED' : 'IN_PROGRESS' },
    actor: `user:${user.id}`,
    write: async (tx) => {
      await upsertBusiness(tx, user.id, row);
      if (refusal) {
        const payload = {
          rule: refusal.rule,
          business_age: data.business_age,
          sales_range: range!.position + 1,
          policy_version: live.label,
        };
        await appendAuditEvent(tx, {
          applicationId: user.id,
          actor: 'system',
          type: 'policy.refused',
          payload,
          at: deps.clock(),
        });
      }
    },
  });
  if (refusal) throw notEligible(refusal.code);
  return moved.row;
}
