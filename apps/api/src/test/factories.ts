import { toE164 } from '@provee/domain';
import { avals, users } from '../db/schema.js';
import type { App } from '../types.js';
import { createPhone } from './phone.js';

export interface UserOverrides {
  phone?: string;
  nextStep?: string;
  status?: string;
  avals?: { avalType: 'PARTNER' | 'COLLATERAL'; phone: string | null }[];
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
