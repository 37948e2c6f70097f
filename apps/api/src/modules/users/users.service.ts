import { fromE164, generateRfc, getCountry, type CountryCode } from '@provee/domain';
import type { AppCipher } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { applicantKeys, applicantPerson } from './applicant.js';
import { listCurrentAvals, type AvalSummary, type UserRow } from './users.store.js';

/** The SPEC §3 user answer the web app routes on, from the user and their current guarantors. */
export function userAnswer(
  country: CountryCode,
  user: Pick<UserRow, 'id' | 'userType' | 'nextStep' | 'status' | 'phoneE164'>,
  currentAvals: AvalSummary[],
) {
  return {
    user_id: user.id,
    id: user.id,
    user_type: user.userType,
    next_step: user.nextStep,
    status: user.status,
    request: { next_step: user.nextStep, status: user.status, welcome_screen_number: 1 },
    avals: currentAvals.map((aval) => ({
      aval_type: aval.avalType as 'PARTNER' | 'COLLATERAL',
      phone: aval.phoneE164 ? fromE164(country, aval.phoneE164) : null,
    })),
    phone_number: fromE164(country, user.phoneE164),
  };
}

/** The SPEC §3 user answer, reading the user's current guarantors. */
export async function userResponse(db: Executor, country: CountryCode, user: UserRow) {
  return userAnswer(country, user, await listCurrentAvals(db, user.id));
}

/** Mexico: the RFC the SAT algorithm gives for the person, to prefill the tax-id step (SPEC §5). */
export async function taxIdSuggestion(
  deps: { db: Executor; cipher: AppCipher; config: { COUNTRY: CountryCode } },
  user: Pick<UserRow, 'id' | 'name' | 'lastname' | 'maternalLastname' | 'dobEncrypted'>,
): Promise<string | null> {
  if (!getCountry(deps.config.COUNTRY).taxId.generated) return null;
  const keys = await applicantKeys(deps, deps.db, user.id);
  const { name, lastname, maternalLastname, birthDate } = applicantPerson(keys, user);
  if (!name || !lastname || !birthDate) return null;
  return generateRfc({ name, lastname, maternalLastname: maternalLastname ?? undefined, dob: birthDate });
}
