import { fromE164, generateRfc, getCountry, type CountryCode } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { avals, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByPhone(db: Db, phoneE164: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.phoneE164, phoneE164)).limit(1);
  return user;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** The SPEC §3 user answer the web app routes on. */
export async function userResponse(db: Db, country: CountryCode, user: UserRow) {
  const rows = await db
    .select()
    .from(avals)
    .where(and(eq(avals.userId, user.id), ne(avals.status, 'REPLACED')))
    .orderBy(asc(avals.createdAt));
  return {
    user_id: user.id,
    id: user.id,
    user_type: user.userType,
    next_step: user.nextStep,
    status: user.status,
    request: { next_step: user.nextStep, status: user.status, welcome_screen_number: 1 },
    avals: rows.map((aval) => ({
      aval_type: aval.avalType as 'PARTNER' | 'COLLATERAL',
      phone: aval.phoneE164 ? fromE164(country, aval.phoneE164) : null,
    })),
    phone_number: fromE164(country, user.phoneE164),
  };
}

/** Mexico: the RFC the SAT algorithm gives for the person, to prefill the tax-id step (SPEC §5). */
export function taxIdSuggestion(app: FastifyInstance, user: UserRow): string | null {
  if (!getCountry(app.config.COUNTRY).taxId.generated || !user.name || !user.lastname || !user.dobEncrypted)
    return null;
  return generateRfc({
    name: user.name,
    lastname: user.lastname,
    maternalLastname: user.maternalLastname ?? undefined,
    dob: app.cipher.decrypt(user.dobEncrypted),
  });
}
