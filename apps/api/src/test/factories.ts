import { toE164 } from '@provee/domain';
import type { App } from '../types.js';
import { seedApplication } from '../modules/dev/application-factory.js';
import { createPhone } from './phone.js';

export { seedApplication };
export { createJpeg, createPng } from '../modules/signing/test-images.js';

export interface UserOverrides {
  phone?: string;
  nextStep?: string;
  status?: string;
  avals?: { avalType: 'PARTNER' | 'COLLATERAL'; phone: string | null }[];
}

/** A complete registration at ACCOUNT_NIP (or another step), with this tax id. */
export async function createApplication(
  app: App,
  overrides: {
    taxId: string;
    nextStep?: string;
    status?: string;
    dob?: string;
    businessAgeYears?: number;
    salesRange?: number;
  },
) {
  const phone = createPhone();
  const user = await seedApplication(app, {
    phone,
    nextStep: overrides.nextStep ?? 'ACCOUNT_NIP',
    status: overrides.status,
    complete: {
      taxId: overrides.taxId,
      dob: overrides.dob,
      businessAgeYears: overrides.businessAgeYears,
      salesRange: overrides.salesRange,
    },
  });
  return { ...user, phone };
}

/** A user at any step, without registration data (what the phone proof and routing need). */
export async function createUser(app: App, overrides: UserOverrides = {}) {
  const phone = overrides.phone ?? createPhone();
  const user = await seedApplication(app, {
    phone,
    nextStep: overrides.nextStep ?? 'TAX_ACCOUNT',
    status: overrides.status,
    avals: overrides.avals,
  });
  return { ...user, phone };
}

/** The bearer header of a user's own token, as the registration answer would hand it over. */
export function userAuth(app: App, user: { id: string; phone: string }): { authorization: string } {
  const { token } = app.tokens.issue({
    kind: 'user',
    userId: user.id,
    phoneE164: toE164(app.config.COUNTRY, user.phone),
  });
  return { authorization: `Bearer ${token}` };
}

/** The largest identity photo the upload takes (the fuzzing suite sends one byte more). */
export { MAX_IMAGE_BYTES } from '../modules/signing/image.js';
