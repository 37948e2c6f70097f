import type { ApplicationsFilter, ApplicationsOrder } from '@provee/domain';
import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  lt,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { searchableName } from '../../db/searchable-name.js';
import {
  advisorEvents,
  avals,
  bureauConsentAudits,
  bureauConsents,
  bureauQueries,
  businessAddresses,
  businesses,
  contracts,
  contractSigners,
  creditDecisions,
  identityDocuments,
  identityVerifications,
  staff,
  users,
} from '../../db/schema.js';

// What the back office reads of an application across the modules' tables: the list with its
// filters, and every record of one application. The back office is the one read side across
// modules (docs/decisions/026); what it changes goes through each module's own code.

/** What a search box text was read as (service: applications.service.ts `searchTerms`). */
export interface SearchTerms {
  phoneE164?: string;
  /** The keyed hash of an exact tax id (never a decrypted comparison). */
  taxIdHash?: string;
  /** Part of a name, without LIKE's wildcards. */
  words?: string;
}

export type ApplicationsWhere = Pick<ApplicationsFilter, 'next_step' | 'status' | 'utm_source' | 'utm_campaign'> & {
  search?: SearchTerms;
  start?: Date;
  end?: Date;
};

function searchCondition(search: SearchTerms): SQL {
  const conditions: SQL[] = [];
  if (search.phoneE164) conditions.push(eq(users.phoneE164, search.phoneE164));
  if (search.taxIdHash) conditions.push(eq(users.taxIdHash, search.taxIdHash));
  // The very expression of the trigram index (migration 0033), or the index does not apply.
  if (search.words) conditions.push(ilike(searchableName(users), `%${search.words}%`));
  return conditions.length > 0 ? or(...conditions)! : sql`false`;
}

export function applicationsWhere(filter: ApplicationsWhere): SQL | undefined {
  return and(
    filter.search ? searchCondition(filter.search) : undefined,
    filter.next_step ? eq(users.nextStep, filter.next_step) : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
    filter.utm_source ? eq(users.utmSource, filter.utm_source) : undefined,
    filter.utm_campaign ? eq(users.utmName, filter.utm_campaign) : undefined,
    filter.start ? gte(users.createdAt, filter.start) : undefined,
    filter.end ? lt(users.createdAt, filter.end) : undefined,
  );
}

/**
 * Whether a guarantor phone of the row's application is named on another application too (issue
 * 26): one person guaranteeing several shopkeepers, or a number made up more than once. Written so
 * that each listed row reads its own guarantors (by user) and each of their phones (by phone), on
 * the avals' indexes, whatever the statistics say (issue 35): as one EXISTS over a join, the planner
 * hashed or merged every guarantor of the table for each page (21 ms at 100,000 applications on
 * PostgreSQL, 475 ms on PGlite, which never gathers statistics).
 */
const guarantorPhoneShared = () =>
  sql<boolean>`coalesce((
    select true from ${avals} mine
    where mine.user_id = ${users.id} and (
      select true from ${avals} theirs
      where theirs.phone_e164 = mine.phone_e164 and theirs.user_id <> mine.user_id limit 1
    )
    limit 1
  ), false)`.mapWith(Boolean);

/** A row of the list's order ((updated_at or created_at) desc, id desc): its timestamp as the database wrote it (µs, UTC), and the id. */
export interface ListPosition {
  at: string;
  id: string;
}

/** Where a page starts: after (`older`) or before (`newer`) a position of the list's order. */
export interface PageFrom {
  older?: ListPosition;
  newer?: ListPosition;
}

/** A page's rows after or before its position, and its order, by a time column and an id column. */
function keyset(time: SQLWrapper, id: SQLWrapper, from: PageFrom) {
  const at = (position: ListPosition) => sql`(${position.at}::timestamptz, ${position.id}::uuid)`;
  const key = sql`(${time}, ${id})`;
  return {
    from: and(
      from.older ? sql`${key} < ${at(from.older)}` : undefined,
      from.newer ? sql`${key} > ${at(from.newer)}` : undefined,
    ),
    order: from.newer !== undefined ? [asc(time), asc(id)] : [desc(time), desc(id)],
  };
}

const listTime = (order: ApplicationsOrder) => (order === 'start' ? users.createdAt : users.updatedAt);

/** A listed row's columns. */
const listColumns = (order: ApplicationsOrder) => ({
  id: users.id,
  phoneE164: users.phoneE164,
  name: users.name,
  lastname: users.lastname,
  maternalLastname: users.maternalLastname,
  nextStep: users.nextStep,
  status: users.status,
  utmSource: users.utmSource,
  utmName: users.utmName,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  // A Date holds milliseconds only: the cursor keeps the microseconds the row has.
  position: sql<string>`to_char(${listTime(order)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  businessName: businesses.name,
  guarantorPhoneShared: guarantorPhoneShared(),
});

/**
 * Rows after (`older`) or before (`newer`) a position, in the walk's own order, on the
 * (updated_at, id) index, or (created_at, id) for the order by start: each page costs the same
 * wherever it is (keyset, no OFFSET). The query itself (awaiting it runs it), so a test can read its plan.
 */
export function applicationsPage(
  db: Db,
  where: SQL | undefined,
  order: ApplicationsOrder,
  from: PageFrom,
  limit: number,
) {
  const page = keyset(listTime(order), users.id, from);
  return db
    .select(listColumns(order))
    .from(users)
    .leftJoin(businesses, eq(businesses.userId, users.id))
    .where(and(where, page.from))
    .orderBy(...page.order)
    .limit(limit);
}

/**
 * A search's page and how many match (`matched`, counted up to `upTo`), in one statement that finds
 * the matches once (issue 35): a name's matches through the trigram index, the page's rows chosen
 * among them by the list's order, and only those read. Written apart because the planner, given the
 * name alone, could walk the whole list in its order and test the name on each row: it counts that
 * test as nearly free, and it is not (a case-blind LIKE on the full name: "María Peña" at 400,000
 * applications, 49 ms walking, 21 ms by the index). Exact only while the matches are fewer than
 * `upTo`: the caller reads a capped search's page with `applicationsPage`. The query itself, as above.
 */
export function searchPage(
  db: Db,
  where: SQL | undefined,
  order: ApplicationsOrder,
  from: PageFrom,
  limit: number,
  upTo: number,
) {
  const matches = db.$with('matches').as(
    db
      .select({ id: users.id, at: listTime(order) })
      .from(users)
      .where(where)
      .limit(upTo),
  );
  const chosen = keyset(matches.at, matches.id, from);
  const page = db
    .select({ id: matches.id })
    .from(matches)
    .where(chosen.from)
    .orderBy(...chosen.order)
    .limit(limit)
    .as('page');
  return db
    .with(matches)
    .select({ ...listColumns(order), matched: sql<number>`(select count(*)::int from ${matches})` })
    .from(page)
    .innerJoin(users, eq(users.id, page.id))
    .leftJoin(businesses, eq(businesses.userId, users.id))
    .orderBy(...keyset(listTime(order), users.id, from).order);
}

/** How many rows match, counting no further than `upTo` (the count's cost is bounded by it); the query, as above. */
export function countMatches(db: Db, where: SQL | undefined, upTo: number) {
  const matches = db
    .select({ one: sql`1` })
    .from(users)
    .where(where)
    .limit(upTo)
    .as('matches');
  return db.select({ count: sql<number>`count(*)::int` }).from(matches);
}

/** How many other applications name each of these phones as a guarantor's. */
export async function otherApplicationsNaming(db: Db, userId: string, phones: string[]): Promise<Map<string, number>> {
  if (phones.length === 0) return new Map();
  const rows = await db
    .select({ phone: avals.phoneE164, applications: sql<number>`count(distinct ${avals.userId})::int` })
    .from(avals)
    .where(and(inArray(avals.phoneE164, phones), ne(avals.userId, userId)))
    .groupBy(avals.phoneE164);
  return new Map(rows.map((row) => [row.phone!, row.applications]));
}

/** Staff members' names and roles, by id (the timeline names its actors). */
export async function staffNames(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db.select({ id: staff.id, name: staff.name, role: staff.role }).from(staff).where(inArray(staff.id, ids));
}

/** Every record of one application, oldest first in each list; undefined when there is none. */
export async function applicationRecords(db: Db, applicationId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, applicationId)).limit(1);
  if (!user) return undefined;
  const byUser = <T extends { userId: unknown }>(table: T) => eq(table.userId as never, user.id);
  const [business, address, consents, queries, audits, decisions, guarantors, signers, contract, contacts] =
    await Promise.all([
      db.select().from(businesses).where(byUser(businesses)).limit(1),
      db.select().from(businessAddresses).where(byUser(businessAddresses)).limit(1),
      db.select().from(bureauConsents).where(byUser(bureauConsents)).orderBy(asc(bureauConsents.createdAt)),
      // Without the raw answer: it is read one at a time, audited (bureauQueryRaw).
      db
        .select({
          id: bureauQueries.id,
          consentId: bureauQueries.consentId,
          status: bureauQueries.status,
          attempts: bureauQueries.attempts,
          lastError: bureauQueries.lastError,
          failure: bureauQueries.failure,
          provider: bureauQueries.provider,
          report: bureauQueries.report,
          hasRaw: isNotNull(bureauQueries.reportRawEncrypted),
          createdAt: bureauQueries.createdAt,
          updatedAt: bureauQueries.updatedAt,
        })
        .from(bureauQueries)
        .where(byUser(bureauQueries))
        .orderBy(asc(bureauQueries.createdAt)),
      db.select().from(bureauConsentAudits).where(byUser(bureauConsentAudits)),
      db.select().from(creditDecisions).where(byUser(creditDecisions)).orderBy(asc(creditDecisions.createdAt)),
      db.select().from(avals).where(byUser(avals)).orderBy(asc(avals.createdAt)),
      db.select().from(contractSigners).where(byUser(contractSigners)).orderBy(asc(contractSigners.createdAt)),
      db
        .select({
          id: contracts.id,
          templateVersion: contracts.templateVersion,
          unsignedSha256: contracts.unsignedSha256,
          signedSha256: contracts.signedSha256,
          createdAt: contracts.createdAt,
        })
        .from(contracts)
        .where(byUser(contracts))
        .limit(1),
      db.select().from(advisorEvents).where(byUser(advisorEvents)).orderBy(asc(advisorEvents.createdAt)),
    ]);
  const signerIds = signers.map((signer) => signer.id);
  const checks = signerIds.length
    ? await db
        .select()
        .from(identityVerifications)
        .where(inArray(identityVerifications.signerId, signerIds))
        .orderBy(asc(identityVerifications.createdAt))
    : [];
  const documents = checks.length
    ? await db
        .select({
          id: identityDocuments.id,
          verificationId: identityDocuments.verificationId,
          kind: identityDocuments.kind,
          format: identityDocuments.format,
          bytes: identityDocuments.bytes,
        })
        .from(identityDocuments)
        .where(
          inArray(
            identityDocuments.verificationId,
            checks.map((check) => check.id),
          ),
        )
    : [];
  return {
    user,
    business: business[0],
    address: address[0],
    consents,
    queries,
    audits,
    decisions,
    guarantors,
    signers,
    contract: contract[0],
    contacts,
    checks,
    documents,
  };
}

/** One identity image of the application's signers (still encrypted). */
export async function identityDocument(db: Db, applicationId: string, documentId: string) {
  return firstRow(
    db
      .select({
        format: identityDocuments.format,
        data: identityDocuments.dataEncrypted,
        // Whose key sealed it (decision 032): the signer's person.
        signer: { userId: contractSigners.userId, avalId: contractSigners.avalId },
      })
      .from(identityDocuments)
      .innerJoin(identityVerifications, eq(identityVerifications.id, identityDocuments.verificationId))
      .innerJoin(contractSigners, eq(contractSigners.id, identityVerifications.signerId))
      .where(and(eq(identityDocuments.id, documentId), eq(contractSigners.userId, applicationId))),
  );
}

/** A bureau query's answer as received (still encrypted), when the query is of this application. */
export async function bureauQueryRaw(db: Executor, applicationId: string, queryId: string) {
  return firstRow(
    db
      .select({
        raw: bureauQueries.reportRawEncrypted,
        userId: bureauQueries.userId,
        consentId: bureauQueries.consentId,
      })
      .from(bureauQueries)
      .where(and(eq(bureauQueries.id, queryId), eq(bureauQueries.userId, applicationId))),
  );
}

export async function contractOf(db: Db, applicationId: string) {
  return firstRow(db.select().from(contracts).where(eq(contracts.userId, applicationId)));
}
