import { REMINDED_STEPS } from '@provee/domain';
import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, ne, notExists, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  applicationReminders,
  avals,
  contractLinks,
  contractSigners,
  linkReminders,
  reminderStops,
  users,
} from '../../db/schema.js';
import { notErased } from '../application/index.js';

export type ReminderRow = typeof applicationReminders.$inferSelect;

/** How many stopped applications one sweep looks at (the next sweep, a minute later, goes on). */
const BATCH = 200;

/**
 * The applicant came back (moved on from where they were reminded): their latest reminder says so,
 * which ends their reminders and counts in the funnel.
 */
export async function markCameBack(db: Executor, at: Date): Promise<void> {
  await db
    .update(applicationReminders)
    .set({ cameBackAt: at })
    .where(
      and(
        isNull(applicationReminders.cameBackAt),
        // A reminder older than a month brought no one back by now.
        gte(applicationReminders.sentAt, new Date(at.getTime() - 30 * 86_400_000)),
        sql`exists (select 1 from ${users} u where u.id = ${applicationReminders.applicationId}
          and (u.next_step <> ${applicationReminders.step} or u.status <> ${applicationReminders.status}))`,
        sql`not exists (select 1 from ${applicationReminders} newer
          where newer.application_id = ${applicationReminders.applicationId} and newer.number > ${applicationReminders.number})`,
      ),
    );
}

/**
 * Applications stopped between the phone proof and the password whose next reminder is due at
 * `now` (its delay after their last step has passed), oldest first, with the highest reminder number
 * they were sent. Left out: those who came back, got every reminder, were stopped (opted out), or
 * stopped longer ago than the last delay and a day (never reminded late; the next sweep goes on
 * with the rest of a batch that was full).
 */
export async function dueApplications(db: Executor, now: Date, delaysMinutes: readonly number[], only?: string) {
  const lastSent = sql<number>`coalesce(max(${applicationReminders.number}), 0)`;
  const nextDelay = sql`(array[${sql.raw(delaysMinutes.map((minutes) => String(Math.trunc(minutes))).join(','))}]::int[])[${lastSent} + 1]`;
  const horizon = new Date(now.getTime() - (Math.max(...delaysMinutes) + 24 * 60) * 60_000);
  return db
    .select({
      id: users.id,
      phoneE164: users.phoneE164,
      nextStep: users.nextStep,
      status: users.status,
      stoppedAt: users.updatedAt,
      lastSent: lastSent.mapWith(Number),
    })
    .from(users)
    .leftJoin(applicationReminders, eq(applicationReminders.applicationId, users.id))
    .where(
      and(
        eq(users.status, 'IN_PROGRESS'),
        inArray(users.nextStep, [...REMINDED_STEPS]),
        gte(users.updatedAt, horizon),
        lte(users.updatedAt, new Date(now.getTime() - Math.min(...delaysMinutes) * 60_000)),
        notErased(users.phoneE164),
        notExists(
          db
            .select({ one: sql`1` })
            .from(reminderStops)
            .where(eq(reminderStops.applicationId, users.id)),
        ),
        only ? eq(users.id, only) : undefined,
      ),
    )
    .groupBy(users.id)
    .having(
      and(
        sql`count(${applicationReminders.cameBackAt}) = 0`,
        sql`${lastSent} < ${delaysMinutes.length}`,
        sql`${users.updatedAt} <= ${now.toISOString()}::timestamptz - make_interval(mins => ${nextDelay})`,
      ),
    )
    .orderBy(asc(users.updatedAt), asc(users.id))
    .limit(BATCH);
}

/** No more reminders for these applications (their number opted out). */
export async function stopReminders(tx: Executor, applicationIds: string[], reason: string, at: Date): Promise<void> {
  if (applicationIds.length === 0) return;
  await tx
    .insert(reminderStops)
    .values(applicationIds.map((applicationId) => ({ applicationId, reason, createdAt: at })))
    .onConflictDoNothing();
}

/** A new reminder's link replaces the ones before it: they stop working. */
export async function expireResumeLinks(tx: Executor, applicationId: string, at: Date): Promise<void> {
  await tx
    .update(applicationReminders)
    .set({ resumeExpiresAt: at })
    .where(
      and(
        eq(applicationReminders.applicationId, applicationId),
        isNull(applicationReminders.resumeUsedAt),
        gt(applicationReminders.resumeExpiresAt, at),
      ),
    );
}

/** A reminder, unless that number was sent already (two sweeps at once send it once). */
export async function insertReminder(
  tx: Executor,
  values: typeof applicationReminders.$inferInsert,
): Promise<ReminderRow | undefined> {
  const [row] = await tx.insert(applicationReminders).values(values).onConflictDoNothing().returning();
  return row;
}

export async function setReminderMessage(tx: Executor, id: string, messageId: string): Promise<void> {
  await tx.update(applicationReminders).set({ messageId }).where(eq(applicationReminders.id, id));
}

export async function findReminder(db: Executor, id: string): Promise<ReminderRow | undefined> {
  const [row] = await db.select().from(applicationReminders).where(eq(applicationReminders.id, id)).limit(1);
  return row;
}

/** Spends a resume link: the reminder whose token it is, if it still works (unused, unexpired). */
export async function redeemResumeToken(tx: Executor, tokenSha256: string, at: Date) {
  const [row] = await tx
    .update(applicationReminders)
    .set({
      resumeUsedAt: at,
      cameBackAt: sql`coalesce(${applicationReminders.cameBackAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        eq(applicationReminders.resumeTokenSha256, tokenSha256),
        isNull(applicationReminders.resumeUsedAt),
        gt(applicationReminders.resumeExpiresAt, at),
      ),
    )
    .returning();
  return row;
}

/** Guarantors still to consent whose invitation expires before `until`, not reminded yet. */
export async function invitationsExpiring(db: Executor, now: Date, until: Date) {
  return db
    .select({ aval: avals, expiresAt: avals.invitationExpiresAt })
    .from(avals)
    .where(
      and(
        eq(avals.status, 'PENDING'),
        gt(avals.invitationExpiresAt, now),
        lte(avals.invitationExpiresAt, until),
        notErased(avals.phoneE164),
        notExists(
          db
            .select({ one: sql`1` })
            .from(linkReminders)
            .where(
              and(eq(linkReminders.linkKind, 'aval-invitation'), eq(linkReminders.linkId, sql`${avals.id}::text`)),
            ),
        ),
      ),
    )
    .limit(BATCH);
}

/** Signing links (not the copy's) still open that expire before `until`, of signers yet to sign, not reminded yet. */
export async function signingLinksExpiring(db: Executor, now: Date, until: Date) {
  return db
    .select({ link: contractLinks, signer: contractSigners })
    .from(contractLinks)
    .innerJoin(contractSigners, eq(contractSigners.id, contractLinks.signerId))
    .where(
      and(
        eq(contractLinks.purpose, 'sign'),
        isNull(contractLinks.usedAt),
        isNull(contractLinks.revokedAt),
        gt(contractLinks.expiresAt, now),
        lte(contractLinks.expiresAt, until),
        ne(contractSigners.state, 'SIGNED'),
        notErased(contractSigners.phoneE164),
        notExists(
          db
            .select({ one: sql`1` })
            .from(linkReminders)
            .where(
              and(eq(linkReminders.linkKind, 'signing-link'), eq(linkReminders.linkId, sql`${contractLinks.id}::text`)),
            ),
        ),
      ),
    )
    .limit(BATCH);
}

/** Records a link's reminder; false when it was already sent (another sweep). */
export async function claimLinkReminder(tx: Executor, values: typeof linkReminders.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(linkReminders)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: linkReminders.linkId });
  return rows.length > 0;
}

/** Per reminder number: how many were sent in [from, to) and how many of those applicants came back. */
export async function reminderCounts(db: Executor, from: Date, to: Date) {
  return db
    .select({
      number: applicationReminders.number,
      sent: sql<number>`count(*)`.mapWith(Number),
      cameBack: sql<number>`count(${applicationReminders.cameBackAt})`.mapWith(Number),
    })
    .from(applicationReminders)
    .where(and(gte(applicationReminders.sentAt, from), lt(applicationReminders.sentAt, to)))
    .groupBy(applicationReminders.number)
    .orderBy(asc(applicationReminders.number));
}
