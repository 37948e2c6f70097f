import { toE164 } from '@provee/domain';
import { avals, users } from '../db/schema.js';
import type { App } from '../types.js';
import { seedApplication } from '../modules/dev/application-factory.js';
import { createPhone } from './phone.js';

export interface UserOverrides {
  phone?: string;
  nextStep?: string;
  status?: string;
  avals?: { avalType: 'PARTNER' | 'COLLATERAL'; phone: string | null }[];
}

/** A complete registration at ACCOUNT_NIP (or another step), with this tax id. */
export async function createApplication(app: App, overrides: { taxId: string; nextStep?: string; status?: string; dob?: string; businessAgeYears?: number; salesRange?: number }) {
  const phone = createPhone();
  const user = await seedApplication(app, {
    phone,
    nextStep: overrides.nextStep ?? 'ACCOUNT_NIP',
    status: overrides.status,
    complete: { taxId: overrides.taxId, dob: overrides.dob, businessAgeYears: overrides.businessAgeYears, salesRange: overrides.salesRange },
  });
  return { ...user, phone };
}

export async function createUser(app: App, overrides: UserOverrides = {}) {
  const phone = overrides.phone ?? createPhone();
  const [user] = await app.db
    .insert(users)
    .values({
      phoneE164: toE164(app.config.COUNTRY, phone),
      nextStep: overrides.nextStep ?? 'TAX_ACCOUNT',
      status: overrides.status ?? 'IN_PROGRESS',
    })
    .returning();
  for (const aval of overrides.avals ?? []) {
    await app.db.insert(avals).values({
      userId: user!.id,
      avalType: aval.avalType,
      phoneE164: aval.phone ? toE164(app.config.COUNTRY, aval.phone) : null,
    });
  }
  return { ...user!, phone };
}
