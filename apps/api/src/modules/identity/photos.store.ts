import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind } from '@provee/domain';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
import { identityDocuments, identityPhotoUploads } from '../../db/schema.js';
import { takeFromExcluded } from '../../db/upsert.js';

/**
 * The photos the built-in widget sent one at a time, kept for the next check
 * (`identity_photo_uploads`, one per signer and kind), until a check takes them.
 */
export type StagedPhotoRow = typeof identityPhotoUploads.$inferSelect;
export type NewStagedPhoto = Omit<typeof identityPhotoUploads.$inferInsert, 'id'>;

/** The SHA-256 (as sent) of the signer's staged photo of this kind. */
export async function findStagedUploadSha256(db: Executor, signerId: string, kind: IdentityDocumentKind) {
  const staged = await firstRow(
    db
      .select({ uploadSha256: identityPhotoUploads.uploadSha256 })
      .from(identityPhotoUploads)
      .where(and(eq(identityPhotoUploads.signerId, signerId), eq(identityPhotoUploads.kind, kind))),
  );
  return staged?.uploadSha256;
}

/**
 * Keeps the photo, replacing the signer's earlier one of its kind. False when the same photo was
 * stored meanwhile by a parallel request (nothing replaced).
 */
export async function upsertStagedPhoto(tx: Executor, values: NewStagedPhoto): Promise<boolean> {
  const [stored] = await tx
    .insert(identityPhotoUploads)
    .values(values)
    .onConflictDoUpdate({
      target: [identityPhotoUploads.signerId, identityPhotoUploads.kind],
      set: takeFromExcluded(identityPhotoUploads, [
        'uploadSha256',
        'format',
        'bytes',
        'width',
        'height',
        'sha256',
        'dataEncrypted',
        'createdAt',
      ]),
      setWhere: sql`${identityPhotoUploads.uploadSha256} <> excluded.upload_sha256`,
    })
    .returning({ id: identityPhotoUploads.id });
  return stored !== undefined;
}

/** The signer's staged photos: kind and SHA-256 as sent. */
export async function stagedPhotoHashes(db: Executor, signerId: string) {
  return db
    .select({ kind: identityPhotoUploads.kind, sha256: identityPhotoUploads.uploadSha256 })
    .from(identityPhotoUploads)
    .where(eq(identityPhotoUploads.signerId, signerId));
}

/** The signer's staged photos with the facts of their copies (not the bytes). */
export async function stagedPhotoFacts(db: Executor, signerId: string) {
  return db
    .select({
      kind: identityPhotoUploads.kind,
      uploadSha256: identityPhotoUploads.uploadSha256,
      format: identityPhotoUploads.format,
      bytes: identityPhotoUploads.bytes,
      width: identityPhotoUploads.width,
      height: identityPhotoUploads.height,
      sha256: identityPhotoUploads.sha256,
    })
    .from(identityPhotoUploads)
    .where(eq(identityPhotoUploads.signerId, signerId));
}

/** Locks the signer's staged photos that are still the ones named (kind → SHA-256 as sent). */
export async function lockNamedPhotos(
  tx: Executor,
  signerId: string,
  named: Record<IdentityDocumentKind, string>,
): Promise<{ id: string; kind: string }[]> {
  const taken = or(
    ...IDENTITY_DOCUMENT_KINDS.map((kind) =>
      and(eq(identityPhotoUploads.kind, kind), eq(identityPhotoUploads.uploadSha256, named[kind])),
    ),
  );
  return tx
    .select({ id: identityPhotoUploads.id, kind: identityPhotoUploads.kind })
    .from(identityPhotoUploads)
    .where(and(eq(identityPhotoUploads.signerId, signerId), taken))
    .for('update');
}

/**
 * Moves staged photos into a check's documents (INSERT … SELECT: the encrypted bytes never leave
 * the database), then removes them from the staging table.
 */
export async function movePhotosIntoCheck(tx: Executor, ids: string[], verificationId: string, at: Date) {
  const chosen = inArray(identityPhotoUploads.id, ids);
  await tx.insert(identityDocuments).select(
    tx
      .select({
        id: sql<string>`gen_random_uuid()`.as('id'),
        verificationId: sql<string>`${verificationId}::uuid`.as('verification_id'),
        kind: identityPhotoUploads.kind,
        format: identityPhotoUploads.format,
        bytes: identityPhotoUploads.bytes,
        width: identityPhotoUploads.width,
        height: identityPhotoUploads.height,
        sha256: identityPhotoUploads.sha256,
        uploadSha256: identityPhotoUploads.uploadSha256,
        dataEncrypted: identityPhotoUploads.dataEncrypted,
        createdAt: sql<Date>`${at.toISOString()}::timestamptz`.as('created_at'),
      })
      .from(identityPhotoUploads)
      .where(chosen),
  );
  await tx.delete(identityPhotoUploads).where(chosen);
}

/** Drops every staged photo of the signer (no check starts after the signature). */
export async function deleteStagedPhotos(tx: Executor, signerId: string): Promise<void> {
  await tx.delete(identityPhotoUploads).where(eq(identityPhotoUploads.signerId, signerId));
}
