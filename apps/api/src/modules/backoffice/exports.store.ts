import { and, asc, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { bureauConsentAudits, bureauConsents, bureauQueries, users } from '../../db/schema.js';
import type { ReportRange } from './report-range.js';

// The exports' pages: applications and bureau consents of a range (the back office is the one read
// side across modules: docs/decisions/026).

/** Where the last page ended: the exact timestamp as the database wrote it (µs), and the id. */
export interface Cursor {
  at: string;
  id: string;
}

/** Keyset pagination on (created_at, id): each page starts where the last ended, without OFFSET. */
function inPage(createdAt: PgColumn, id: PgColumn, range: ReportRange, after: Cursor | null): SQL | undefined {
  return and(
    gte(createdAt, range.start),
    lt(createdAt, range.end),
    after ? sql`(${createdAt}, ${id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
  );
}

export async function applicationsPage(db: Db, range: ReportRange, after: Cursor | null, size: number) {
  return db
    .select({ row: users, cursorAt: sql<string>`${users.createdAt}::text` })
    .from(users)
    .where(inPage(users.createdAt, users.id, range, after))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(size);
}

/** The acknowledgement of the consent's audit (Círculo's folioCDC); the latest when several queries owed one. */
const auditFolio = () =>
  sql<string | null>`(
    select consent_audit.audit_folio from ${bureauConsentAudits} consent_audit
      join ${bureauQueries} bureau_query on bureau_query.id = consent_audit.query_id
    where bureau_query.consent_id = ${bureauConsents}.id and consent_audit.audit_folio is not null
    order by consent_audit.updated_at desc limit 1
  )`;

export async function consentsPage(db: Db, range: ReportRange, after: Cursor | null, size: number) {
  // The text itself is long and the same for everyone of a version: its hash names it. The PIN
  // (encrypted, for a bureau's audit) is never exported.
  const { consentText: _text, pinEncrypted: _pin, ...evidence } = getTableColumns(bureauConsents);
  return db
    .select({
      ...evidence,
      folioCdc: auditFolio(),
      cursorAt: sql<string>`${bureauConsents.createdAt}::text`,
    })
    .from(bureauConsents)
    .where(inPage(bureauConsents.createdAt, bureauConsents.id, range, after))
    .orderBy(asc(bureauConsents.createdAt), asc(bureauConsents.id))
    .limit(size);
}
