import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { changedAnyRow } from '../../db/rows.js';
import { staff, staffPasswordLinks } from '../../db/schema.js';
import type { StaffRow } from './accounts.store.js';

/** Single-use links to set a password (the `staff_password_links` table), kept by the SHA-256 of their token. */
export type PasswordLinkRow = typeof staffPasswordLinks.$inferSelect;

/** Marks every unused link of the account used (they stop working). */
export async function retireUnusedPasswordLinks(tx: Executor, staffId: string, at: Date): Promise<void> {
  await tx
    .update(staffPasswordLinks)
    .set({ usedAt: at })
    .where(and(eq(staffPasswordLinks.staffId, staffId), isNull(staffPasswordLinks.usedAt)));
}

export async function insertPasswordLink(
  tx: Executor,
  values: Pick<PasswordLinkRow, 'staffId' | 'tokenHash' | 'issuedBy' | 'expiresAt' | 'createdAt'>,
): Promise<void> {
  await tx.insert(staffPasswordLinks).values(values);
}

/** The unused, unexpired link with this token hash, and its active account. */
export async function findLivePasswordLink(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<{ link: PasswordLinkRow; member: StaffRow } | undefined> {
  return firstRow(
    db
      .select({ link: staffPasswordLinks, member: staff })
      .from(staffPasswordLinks)
      .innerJoin(staff, eq(staff.id, staffPasswordLinks.staffId))
      .where(
        and(
          eq(staffPasswordLinks.tokenHash, tokenHash),
          isNull(staffPasswordLinks.usedAt),
          gt(staffPasswordLinks.expiresAt, now),
          eq(staff.active, true),
        ),
      ),
  );
}

/** Uses the link up, once: false when another request used it first. */
export async function markPasswordLinkUsed(tx: Executor, id: string, at: Date): Promise<boolean> {
  return changedAnyRow(
    tx
      .update(staffPasswordLinks)
      .set({ usedAt: at })
      .where(and(eq(staffPasswordLinks.id, id), isNull(staffPasswordLinks.usedAt)))
      .returning({ id: staffPasswordLinks.id }),
  );
}
