import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { preparedPerDatabase } from '../../db/prepared.js';
import { firstRow, returnedRow } from '../../db/rows.js';
import { staff } from '../../db/schema.js';

/** Staff accounts (the `staff` table): who they are, their role, password hash and session epoch. */
export type StaffRow = typeof staff.$inferSelect;

/** The columns a change to an account may write. */
export type StaffChange = Partial<
  Pick<StaffRow, 'role' | 'active' | 'passwordHash' | 'enrolRequired' | 'lastLoginAt' | 'updatedAt'>
>;

const staffByIdQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(staff)
    .where(eq(staff.id, sql.placeholder('id')))
    .limit(1)
    .prepare('staff_by_id'),
);

/** Every back-office request reads its account: a prepared statement. */
export async function findStaffById(db: Db, id: string): Promise<StaffRow | undefined> {
  return (await staffByIdQuery(db).execute({ id }))[0];
}

/** The account, row-locked until the caller's transaction ends. */
export async function lockStaffById(tx: Executor, id: string): Promise<StaffRow | undefined> {
  return (await tx.select().from(staff).where(eq(staff.id, id)).for('update'))[0];
}

export async function findActiveStaffByEmail(db: Executor, email: string): Promise<StaffRow | undefined> {
  return firstRow(
    db
      .select()
      .from(staff)
      .where(and(eq(staff.email, email), eq(staff.active, true))),
  );
}

/** Every account, by e-mail. */
export function listStaffByEmail(db: Executor): Promise<StaffRow[]> {
  return db.select().from(staff).orderBy(asc(staff.email));
}

/** A new account; undefined when its e-mail is taken. */
export async function insertStaffAccount(
  tx: Executor,
  values: Pick<StaffRow, 'email' | 'name' | 'role' | 'passwordHash' | 'createdAt' | 'updatedAt'>,
): Promise<StaffRow | undefined> {
  return returnedRow(tx.insert(staff).values(values).onConflictDoNothing({ target: staff.email }).returning());
}

/**
 * Writes a change to an account; `moveSessionEpoch` also moves its session_epoch on, so every
 * session opened before reads as none. Undefined when there is no such account.
 */
export async function updateStaffAccount(
  tx: Executor,
  id: string,
  change: StaffChange,
  options: { moveSessionEpoch?: boolean } = {},
): Promise<StaffRow | undefined> {
  return returnedRow(
    tx
      .update(staff)
      .set({ ...change, ...(options.moveSessionEpoch ? { sessionEpoch: sql`${staff.sessionEpoch} + 1` } : {}) })
      .where(eq(staff.id, id))
      .returning(),
  );
}
