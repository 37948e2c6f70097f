import { and, asc, desc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { changedAnyRow, firstRow, returnedRow } from '../../db/rows.js';
import { applicationEvents, webhookEndpoints, webhookSends } from '../../db/schema.js';

// The lender's feed (issue 30): the public events, the webhook endpoints and each event's sends.

export type ApplicationEventRow = typeof applicationEvents.$inferSelect;
export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type SendRow = typeof webhookSends.$inferSelect;

/** The application's last sequence number (call under its audit chain's lock). */
export async function lastSequence(tx: Executor, applicationId: string): Promise<number> {
  const [row] = await tx
    .select({ last: sql<number>`coalesce(max(${applicationEvents.sequence}), 0)::int` })
    .from(applicationEvents)
    .where(eq(applicationEvents.applicationId, applicationId));
  return Number(row?.last ?? 0);
}

export async function insertApplicationEvents(
  tx: Executor,
  rows: (typeof applicationEvents.$inferInsert)[],
): Promise<ApplicationEventRow[]> {
  return tx.insert(applicationEvents).values(rows).returning();
}

/** Where a reader of the feed stands: the transaction and id of the last event it read. */
export interface FeedPosition {
  txId: string;
  id: number;
}

/**
 * Events after `after` (the feed's cursor), by the transaction that wrote them, then id; of one
 * application when given. Only events of transactions older than every one still running are
 * read: one that commits late has a transaction id at least as high as those, so a cursor never
 * passes an event that is not there yet.
 */
export async function listApplicationEvents(
  db: Executor,
  options: { after?: FeedPosition | undefined; limit: number; applicationId?: string | undefined },
): Promise<ApplicationEventRow[]> {
  const { after } = options;
  return db
    .select()
    .from(applicationEvents)
    .where(
      and(
        sql`${applicationEvents.txId} < pg_snapshot_xmin(pg_current_snapshot())`,
        after
          ? sql`(${applicationEvents.txId}, ${applicationEvents.id}) > (${after.txId}::xid8, ${after.id})`
          : undefined,
        options.applicationId ? eq(applicationEvents.applicationId, options.applicationId) : undefined,
      ),
    )
    .orderBy(asc(applicationEvents.txId), asc(applicationEvents.id))
    .limit(options.limit);
}

export async function findApplicationEvent(db: Executor, id: number): Promise<ApplicationEventRow | undefined> {
  return firstRow(db.select().from(applicationEvents).where(eq(applicationEvents.id, id)));
}

// ---- endpoints -------------------------------------------------------------------------------

/** Every endpoint, with whether it is disabled: a disabled one keeps its sends for when it is enabled again. */
export async function endpointsToAnnounce(
  db: Executor,
): Promise<(Pick<EndpointRow, 'id' | 'eventTypes'> & { disabled: boolean })[]> {
  return db
    .select({
      id: webhookEndpoints.id,
      eventTypes: webhookEndpoints.eventTypes,
      disabled: sql<boolean>`${webhookEndpoints.disabledAt} is not null`.mapWith(Boolean),
    })
    .from(webhookEndpoints);
}

export async function insertEndpoint(db: Executor, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
  return (await returnedRow(db.insert(webhookEndpoints).values(row).returning()))!;
}

export async function findEndpoint(db: Executor, id: string): Promise<EndpointRow | undefined> {
  return firstRow(db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)));
}

export async function listEndpoints(db: Executor): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.createdAt));
}

export async function updateEndpoint(
  db: Executor,
  id: string,
  set: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<EndpointRow | undefined> {
  return returnedRow(db.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).returning());
}

/** A failed send: the endpoint fails since then unless it already did (kept while it keeps failing). */
export async function markEndpointFailing(db: Executor, id: string, at: Date): Promise<EndpointRow | undefined> {
  return returnedRow(
    db
      .update(webhookEndpoints)
      // The time as text with its cast: postgres.js cannot bind a Date where the type is inferred.
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)` })
      .where(eq(webhookEndpoints.id, id))
      .returning(),
  );
}

/** Disabled only once, and only if still failing since before `failingBefore`. */
export async function disableFailingEndpoint(db: Executor, id: string, failingBefore: Date, at: Date, reason: string) {
  return changedAnyRow(
    db
      .update(webhookEndpoints)
      .set({ disabledAt: at, disabledReason: reason, updatedAt: at })
      .where(
        and(
          eq(webhookEndpoints.id, id),
          isNull(webhookEndpoints.disabledAt),
          lt(webhookEndpoints.failingSince, failingBefore),
        ),
      )
      .returning({ id: webhookEndpoints.id }),
  );
}

// ---- sends -----------------------------------------------------------------------------------

export async function insertSends(tx: Executor, rows: (typeof webhookSends.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(webhookSends).values(rows).onConflictDoNothing();
}

/**
 * When a send is due and how long it is held are the database's clock, as the job queue's (a retry
 * and its job come due together).
 *
 * The application's next send to this endpoint, held for `leaseSeconds`: the lowest pending
 * sequence, only once it is due and nobody holds it, so one event at a time goes out per
 * application and endpoint, in order (a later one waits for the one before).
 */
export async function holdNextSend(
  db: Executor,
  endpointId: string,
  applicationId: string,
  leaseSeconds: number,
): Promise<(SendRow & { leaseId: string }) | undefined> {
  const head = db
    .select({ id: webhookSends.id })
    .from(webhookSends)
    .where(
      and(
        eq(webhookSends.endpointId, endpointId),
        eq(webhookSends.applicationId, applicationId),
        eq(webhookSends.status, 'PENDING'),
      ),
    )
    .orderBy(asc(webhookSends.sequence))
    .limit(1);
  return returnedRow(
    db
      .update(webhookSends)
      .set({ leasedUntil: sql`now() + make_interval(secs => ${leaseSeconds})`, leaseId: sql`gen_random_uuid()` })
      .where(
        and(
          eq(webhookSends.id, sql`(${head})`),
          eq(webhookSends.status, 'PENDING'),
          sql`${webhookSends.nextAttemptAt} <= now()`,
          or(isNull(webhookSends.leasedUntil), sql`${webhookSends.leasedUntil} < now()`),
        ),
      )
      .returning(),
  ) as Promise<(SendRow & { leaseId: string }) | undefined>;
}

/** The application's next pending send to this endpoint, whoever holds it: due when, held until when. */
export async function pendingHead(db: Executor, endpointId: string, applicationId: string) {
  return firstRow(
    db
      .select({
        leased: sql<boolean>`${webhookSends.leasedUntil} is not null and ${webhookSends.leasedUntil} >= now()`.mapWith(
          Boolean,
        ),
        due: sql<boolean>`${webhookSends.nextAttemptAt} <= now()`.mapWith(Boolean),
      })
      .from(webhookSends)
      .where(
        and(
          eq(webhookSends.endpointId, endpointId),
          eq(webhookSends.applicationId, applicationId),
          eq(webhookSends.status, 'PENDING'),
        ),
      )
      .orderBy(asc(webhookSends.sequence)),
  );
}

/**
 * The outcome of one try: delivered, due again at `nextAttemptAt`, or failed for good; only while
 * the try's lease is still the send's (a try that outlived its lease, or a replay meanwhile, changes
 * nothing). Whether it was recorded.
 */
export async function recordAttempt(
  db: Executor,
  held: { id: string; leaseId: string },
  outcome: {
    status: 'PENDING' | 'DELIVERED' | 'FAILED';
    at: Date;
    statusCode: number | null;
    error: string | null;
    /** Due again this many seconds from now (the database's clock, as the job queue's). */
    retryInSeconds?: number;
  },
): Promise<boolean> {
  return changedAnyRow(
    db
      .update(webhookSends)
      .set({
        status: outcome.status,
        attempts: sql`${webhookSends.attempts} + 1`,
        lastAttemptAt: outcome.at,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        leasedUntil: null,
        ...(outcome.retryInSeconds !== undefined
          ? { nextAttemptAt: sql`now() + make_interval(secs => ${outcome.retryInSeconds})` }
          : {}),
        ...(outcome.status === 'DELIVERED' ? { deliveredAt: outcome.at } : {}),
        leaseId: null,
      })
      .where(
        and(eq(webhookSends.id, held.id), eq(webhookSends.status, 'PENDING'), eq(webhookSends.leaseId, held.leaseId)),
      )
      .returning({ id: webhookSends.id }),
  );
}

/** An endpoint's latest sends, newest first, with their event's type and sequence. */
export async function listSendsOfEndpoint(db: Executor, endpointId: string, limit: number) {
  return db
    .select({
      id: webhookSends.id,
      eventId: webhookSends.eventId,
      applicationId: webhookSends.applicationId,
      sequence: webhookSends.sequence,
      type: applicationEvents.type,
      status: webhookSends.status,
      attempts: webhookSends.attempts,
      lastStatusCode: webhookSends.lastStatusCode,
      lastError: webhookSends.lastError,
      lastAttemptAt: webhookSends.lastAttemptAt,
      nextAttemptAt: webhookSends.nextAttemptAt,
      deliveredAt: webhookSends.deliveredAt,
      createdAt: webhookSends.createdAt,
    })
    .from(webhookSends)
    .innerJoin(applicationEvents, eq(applicationEvents.id, webhookSends.eventId))
    .where(eq(webhookSends.endpointId, endpointId))
    .orderBy(desc(webhookSends.createdAt), desc(webhookSends.sequence))
    .limit(limit);
}

/**
 * Sends to go out again (a replay): one by id, or every failed one since a time; due now. Answers
 * the (endpoint, application) pairs to wake.
 */
export async function replaySends(
  db: Executor,
  endpointId: string,
  which: { sendId: string } | { failedSince: Date },
): Promise<{ applicationId: string }[]> {
  return db
    .update(webhookSends)
    .set({ status: 'PENDING', nextAttemptAt: sql`now()`, leasedUntil: null, leaseId: null, attempts: 0 })
    .where(
      and(
        eq(webhookSends.endpointId, endpointId),
        'sendId' in which
          ? eq(webhookSends.id, which.sendId)
          : and(eq(webhookSends.status, 'FAILED'), gte(webhookSends.lastAttemptAt, which.failedSince)),
      ),
    )
    .returning({ applicationId: webhookSends.applicationId });
}

/** The applications with sends still pending to this endpoint (to wake after it is enabled again). */
export async function pendingApplications(db: Executor, endpointId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ applicationId: webhookSends.applicationId })
    .from(webhookSends)
    .where(and(eq(webhookSends.endpointId, endpointId), eq(webhookSends.status, 'PENDING')));
  return rows.map((row) => row.applicationId);
}

/**
 * The (endpoint, application) pairs whose next send has been due for `seconds` without anyone
 * holding it, on an enabled endpoint: their job was lost (its own tries spent while the database was
 * away) and the sweep gives them one.
 */
export async function stalledSends(db: Executor, seconds: number) {
  return db
    .selectDistinct({ endpointId: webhookSends.endpointId, applicationId: webhookSends.applicationId })
    .from(webhookSends)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookSends.endpointId))
    .where(
      and(
        eq(webhookSends.status, 'PENDING'),
        isNull(webhookEndpoints.disabledAt),
        sql`${webhookSends.nextAttemptAt} <= now() - make_interval(secs => ${seconds})`,
        or(isNull(webhookSends.leasedUntil), sql`${webhookSends.leasedUntil} < now()`),
      ),
    )
    .limit(1_000);
}
