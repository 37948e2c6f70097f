import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { preparedPerDatabase } from '../../db/prepared.js';
import { staff, staffSessions } from '../../db/schema.js';
import type { StaffRow } from './accounts.store.js';

/**
 * Back-office sessions (the `staff_sessions` table), keyed by the SHA-256 of the session id
 * (`idHash`): the caller hashes, so a copy of this table opens nothing.
 */
export type StaffSessionRow = typeof staffSessions.$inferSelect;

/** What a login's step writes on its session. */
export type StaffSessionState = Pick<StaffSessionRow, 'stage' | 'authMethod' | 'factorAt' | 'challenge'>;

/** The limits a session must be within to be read: active since `idleSince`, begun after `bornAfter`. */
export interface SessionLimits {
  idleSince: Date;
  bornAfter: Date;
}

export async function insertStaffSession(
  db: Executor,
  values: StaffSessionState &
    Pick<StaffSessionRow, 'idHash' | 'staffId' | 'epoch' | 'createdAt' | 'lastSeenAt' | 'ip' | 'userAgent'>,
): Promise<void> {
  await db.insert(staffSessions).values(values);
}

/** Writes a login's state on this person's session (none when the row is gone: an ended session stays ended). */
export async function updateStaffSession(
  db: Executor,
  idHash: string,
  staffId: string,
  values: StaffSessionState & Pick<StaffSessionRow, 'lastSeenAt'>,
): Promise<void> {
  await db
    .update(staffSessions)
    .set(values)
    .where(and(eq(staffSessions.idHash, idHash), eq(staffSessions.staffId, staffId)));
}

/**
 * How old a session's recorded activity may get before a read moves it: a read of a session seen
 * within the last minute writes nothing (no commit to wait for on each back-office request; the
 * idle limit is then kept to within a minute).
 */
const ACTIVITY_STEP_MS = 60_000;

const liveSessionQuery = preparedPerDatabase((db) =>
  db
    .select({ session: staffSessions, member: staff })
    .from(staffSessions)
    // The account is active and nothing ended its sessions since this one began.
    .innerJoin(
      staff,
      and(eq(staff.id, staffSessions.staffId), eq(staff.active, true), eq(staff.sessionEpoch, staffSessions.epoch)),
    )
    .where(
      and(
        eq(staffSessions.idHash, sql.placeholder('idHash')),
        gt(staffSessions.lastSeenAt, sql.placeholder('idleSince')),
        gt(staffSessions.createdAt, sql.placeholder('bornAfter')),
      ),
    )
    .limit(1)
    .prepare('staff_live_session'),
);

/** A live session and its account, as one read gives them. */
export interface LiveStaffSession {
  session: StaffSessionRow;
  member: StaffRow;
}

/**
 * Reads a live session and its account, and moves the session's last activity to `now` when it is
 * older than ACTIVITY_STEP_MS: live is within the limits, of an active account, and begun under the
 * account's current session_epoch. Every back-office request reads it: one prepared statement, the
 * account joined (it was a second round trip before each request's own work; issue 35).
 */
export async function touchLiveStaffSession(
  db: Db,
  idHash: string,
  now: Date,
  limits: SessionLimits,
): Promise<LiveStaffSession | undefined> {
  // A placeholder's value reaches the driver as it is given: the instants as text.
  const [live] = await liveSessionQuery(db).execute({
    idHash,
    idleSince: limits.idleSince.toISOString(),
    bornAfter: limits.bornAfter.toISOString(),
  });
  const stale = new Date(now.getTime() - ACTIVITY_STEP_MS);
  if (live && live.session.lastSeenAt <= stale)
    await db
      .update(staffSessions)
      .set({ lastSeenAt: now })
      .where(and(eq(staffSessions.idHash, idHash), lte(staffSessions.lastSeenAt, stale)));
  return live;
}

export async function deleteStaffSession(db: Executor, idHash: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.idHash, idHash));
}

/** Every session of an account (or only those in one login stage). */
export async function deleteStaffSessionsOf(
  tx: Executor,
  staffId: string,
  options: { stage?: StaffSessionRow['stage'] } = {},
): Promise<void> {
  await tx
    .delete(staffSessions)
    .where(
      options.stage === undefined
        ? eq(staffSessions.staffId, staffId)
        : and(eq(staffSessions.staffId, staffId), eq(staffSessions.stage, options.stage)),
    );
}

/** An account's sessions past either limit. */
export async function deleteLapsedStaffSessions(db: Executor, staffId: string, limits: SessionLimits): Promise<void> {
  await db
    .delete(staffSessions)
    .where(
      and(
        eq(staffSessions.staffId, staffId),
        or(lte(staffSessions.lastSeenAt, limits.idleSince), lte(staffSessions.createdAt, limits.bornAfter)),
      ),
    );
}
