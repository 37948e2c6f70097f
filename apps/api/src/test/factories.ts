import { toE164 } from '@provee/domain';
import type { App } from '../types.js';
import { seedApplication } from '../modules/dev/seed.store.js';
import { fakePerson, fakeTaxId } from './fake.js';
import { flushSms } from './jobs.js';
import { createPhone } from './phone.js';

export { seedApplication };
export { createJpeg, createPng } from './test-images.js';

export interface UserOverrides {
  phone?: string;
  nextStep?: string;
  status?: string;
  avals?: { avalType: 'PARTNER' | 'COLLATERAL'; phone: string | null }[];
}

/**
 * A complete registration at ACCOUNT_NIP (or another step). The person (names, birth date, tax id)
 * and the phone are made up for each call; a test that reads one back sets it here. A made-up RFC
 * carries the made-up birth date (or the one given), as the registration requires.
 */
export async function createApplication(
  app: App,
  overrides: {
    taxId?: string;
    nextStep?: string;
    status?: string;
    name?: string;
    lastname?: string;
    dob?: string;
    businessAgeYears?: number;
    salesRange?: number;
  } = {},
) {
  const phone = createPhone(app.config.COUNTRY);
  const made = fakePerson();
  const person = {
    ...made,
    name: overrides.name ?? made.name,
    lastname: overrides.lastname ?? made.lastname,
    dob: overrides.dob ?? made.dob,
  };
  const user = await seedApplication(app, {
    phone,
    nextStep: overrides.nextStep ?? 'ACCOUNT_NIP',
    status: overrides.status,
    complete: {
      taxId: overrides.taxId ?? fakeTaxId(app.config.COUNTRY, person),
      name: person.name,
      lastname: person.lastname,
      dob: person.dob,
      businessAgeYears: overrides.businessAgeYears,
      salesRange: overrides.salesRange,
    },
  });
  return { ...user, phone };
}

/** A tax id of the app's country that no simulator treats as a test identity, new on every call. */
export const createTaxId = (app: App) => fakeTaxId(app.config.COUNTRY);

/** A user at any step, without registration data (what the phone proof and routing need). */
export async function createUser(app: App, overrides: UserOverrides = {}) {
  const phone = overrides.phone ?? createPhone(app.config.COUNTRY);
  const user = await seedApplication(app, {
    phone,
    nextStep: overrides.nextStep ?? 'TAX_ACCOUNT',
    status: overrides.status,
    avals: overrides.avals,
  });
  return { ...user, phone };
}

/** A user's own token, as the registration answer would hand it over. */
export function userToken(app: App, user: { id: string; phone: string }): string {
  return app.tokens.issue({ kind: 'user', userId: user.id, phoneE164: toE164(app.config.COUNTRY, user.phone) }).token;
}

/** The bearer header of a user's own token. */
export function userAuth(app: App, user: { id: string; phone: string }): { authorization: string } {
  return { authorization: `Bearer ${userToken(app, user)}` };
}

/** A call of the shopkeeper's own API (`/api/v1/users/:id/SK…`) with their token. */
export function shopkeeperCall(
  app: App,
  user: { id: string; phone: string },
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  payload?: object,
) {
  return app.inject({
    method,
    url: `/api/v1/users/${user.id}/SK${path}`,
    headers: userAuth(app, user),
    ...(payload ? { payload } : {}),
  });
}

/** The PIN (consent or guarantor) of the newest SMS to `phone` (a national number) that carries one. */
export async function lastSmsPin(app: App, phone: string): Promise<string> {
  await flushSms(app);
  const to = encodeURIComponent(toE164(app.config.COUNTRY, phone));
  const { messages } = (await app.inject({ method: 'GET', url: `/dev/outbox.json?to=${to}` })).json() as {
    messages: { body: string }[];
  };
  const sms = messages.find((message) => message.body.includes('NIP'));
  if (!sms) throw new Error(`no PIN sent to ${phone}`);
  return /\b(\d{4})\b/.exec(sms.body)![1]!;
}

/** The largest identity photo the upload takes (the fuzzing suite sends one byte more). */
export { MAX_IMAGE_BYTES } from '../modules/identity/image.js';
