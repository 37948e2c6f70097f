import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { personKeys } from '../../db/schema.js';

/** The `person_keys` table: one data key per person, wrapped; a tombstone once destroyed. */
export type PersonKeyRow = typeof personKeys.$inferSelect;

export async function findPersonKey(db: Executor, personId: string): Promise<PersonKeyRow | undefined> {
  return firstRow(db.select().from(personKeys).where(eq(personKeys.personId, personId)));
}

/** Writes the key unless the person already has one (or had one): the first writer wins a race. */
export async function insertPersonKeyIfAbsent(
  db: Executor,
  row: { personId: string; wrappedKey: string; wrappedBy: string },
): Promise<void> {
  await db.insert(personKeys).values(row).onConflictDoNothing({ target: personKeys.personId });
}

/** Clears the wrapped key; a person never seen gets a tombstone, so no key is ever made for them later. */
export async function destroyPersonKeyRow(db: Executor, personId: string, wrappedBy: string, at: Date): Promise<void> {
  await db
    .insert(personKeys)
    .values({ personId, wrappedKey: null, wrappedBy, destroyedAt: at })
    .onConflictDoUpdate({
      target: personKeys.personId,
      set: {
        wrappedKey: null,
        destroyedAt: sql`coalesce(${personKeys.destroyedAt}, ${at.toISOString()}::timestamptz)`,
      },
    });
}

export async function liveKeys(db: Executor): Promise<PersonKeyRow[]> {
  return db.select().from(personKeys).where(isNotNull(personKeys.wrappedKey));
}

/** Live keys wrapped by another application key than `currentId`, a batch at a time. */
export async function keysNotWrappedBy(db: Executor, currentId: string, limit: number): Promise<PersonKeyRow[]> {
  return db
    .select()
    .from(personKeys)
    .where(and(isNotNull(personKeys.wrappedKey), ne(personKeys.wrappedBy, currentId)))
    .orderBy(personKeys.personId)
    .limit(limit);
}

/** Replaces a wrapping, guarded by the old one: a key destroyed meanwhile stays destroyed. */
export async function replaceWrapping(
  db: Executor,
  row: Pick<PersonKeyRow, 'personId' | 'wrappedKey' | 'wrappedBy'>,
  next: { wrappedKey: string; wrappedBy: string },
): Promise<boolean> {
  const written = await db
    .update(personKeys)
    .set(next)
    .where(
      and(
        eq(personKeys.personId, row.personId),
        eq(personKeys.wrappedKey, row.wrappedKey!),
        eq(personKeys.wrappedBy, row.wrappedBy),
      ),
    )
    .returning({ personId: personKeys.personId });
  return written.length > 0;
}
