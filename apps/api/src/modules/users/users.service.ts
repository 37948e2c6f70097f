import { fromE164, generateRfc, getCountry, type CountryCode } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { avals, creditDecisions, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByPhone(db: Db, phoneE164: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.phoneE164, phoneE164)).limit(1);
  return user;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

interface AvalSummary {
  avalType: string;
  phoneE164: string | null;
}

/**
 * The user with what the detail answer adds (their current guarantors and latest pre-approval) in
 * one query: on PGlite every query is a round trip to the database's thread, and this read is
 * the one the web app makes most (docs/PERFORMANCE.md).
 */
// `users.id` is spelled out in the subqueries: Drizzle writes a column inside a selected `sql` as its
// bare name, which there would mean the subquery's own `id`.
function userDetailQuery(db: Db) {
  const { id, userType, nextStep, status, phoneE164, name, lastname, maternalLastname, dobEncrypted } =
    getTableColumns(users);
  return db
    .select({
      // What the answer and the Mexican RFC suggestion use, nothing more.
      user: { id, userType, nextStep, status, phoneE164, name, lastname, maternalLastname, dobEncrypted },
      avals: sql<AvalSummary[]>`coalesce((
        select json_agg(json_build_object('avalType', a.aval_type, 'phoneE164', a.phone_e164) order by a.created_at)
        from ${avals} a where a.user_id = users.id and a.status <> 'REPLACED'), '[]'::json)`,
      preApproval: sql<{ amount: number; currency: string } | null>`(
        select json_build_object('amount', d.amount, 'currency', d.currency) from ${creditDecisions} d
        where d.user_id = users.id and d.aval_id is null and d.result = 'APPROVED'
        order by d.created_at desc limit 1)`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('user_detail');
}

/** Built once per database: Drizzle then skips assembling the SQL on every request. */
const userDetailQueries = new WeakMap<Db, ReturnType<typeof userDetailQuery>>();

export async function findUserDetail(db: Db, id: string) {
  let query = userDetailQueries.get(db);
  if (!query) userDetailQueries.set(db, (query = userDetailQuery(db)));
  const [row] = await query.execute({ id });
  return row;
}

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
export async function userResponse(db: Db, country: CountryCode, user: UserRow) {
  const rows = await db
    .select({ avalType: avals.avalType, phoneE164: avals.phoneE164 })
    .from(avals)
    .where(and(eq(avals.userId, user.id), ne(avals.status, 'REPLACED')))
    .orderBy(asc(avals.createdAt));
  return userAnswer(country, user, rows);
}

/** Mexico: the RFC the SAT algorithm gives for the person, to prefill the tax-id step (SPEC §5). */
export function taxIdSuggestion(
  app: FastifyInstance,
  user: Pick<UserRow, 'name' | 'lastname' | 'maternalLastname' | 'dobEncrypted'>,
): string | null {
  if (!getCountry(app.config.COUNTRY).taxId.generated || !user.name || !user.lastname || !user.dobEncrypted)
    return null;
  return generateRfc({
    name: user.name,
    lastname: user.lastname,
    maternalLastname: user.maternalLastname ?? undefined,
    dob: app.cipher.decrypt(user.dobEncrypted),
  });
}
