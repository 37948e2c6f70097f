import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind, type IdentityPhotosAnswer } from '@provee/domain';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { contractSigners, identityDocuments, identityPhotoUploads } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { SignerRow } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { sha256Off } from './decode.js';
import {
  checkOfSamePhotos,
  mayStartCheck,
  refuseCheck,
  requireBuiltinWidget,
  sameCheckAnswer,
  startBuiltinCheck,
  type CheckAnswer,
  type DocumentHashes,
} from './identity-check.js';
import { identityPhoto, imageRefused, photoLabel } from './uploads.js';

/**
 * The built-in widget's photos one at a time (issue 27, decision 024): each is sent as soon as the
 * person accepts it, named by the SHA-256 of its bytes, decoded in full and kept as the product's
 * copy (uploads.ts, decision 021) until a check takes the three. Sending a photo again is
 * harmless (the same hash changes nothing), so a phone that lost an answer asks what the server
 * holds and sends only what is missing.
 */

type Hashes = Record<IdentityDocumentKind, string>;

const photosMissing = (missing: IdentityDocumentKind[]) =>
  new AppError(409, 'PHOTOS_MISSING', 'photos missing', 'Aún no recibimos todas tus fotos. Las enviamos de nuevo.', {
    missing,
  });

/** Whether the signer's current check was started with this photo (its PUT sent again after the check). */
async function currentCheckHas(app: FastifyInstance, signer: SignerRow, kind: IdentityDocumentKind, sha256: string) {
  if (!signer.currentVerificationId) return false;
  const [found] = await app.db
    .select({ id: identityDocuments.id })
    .from(identityDocuments)
    .where(
      and(
        eq(identityDocuments.verificationId, signer.currentVerificationId),
        eq(identityDocuments.kind, kind),
        eq(identityDocuments.uploadSha256, sha256),
      ),
    )
    .limit(1);
  return found !== undefined;
}

/**
 * PUT …/identity-photos/:kind/:sha256: one photo kept for the next check. Refused when no check
 * can start (signed, under review, no attempt left) unless it is already the current check's; the
 * bytes must be the ones the path names; a photo of the same kind sent before is replaced.
 */
export async function receivePhoto(
  app: FastifyInstance,
  signer: SignerRow,
  kind: IdentityDocumentKind,
  uploadSha256: string,
  body: Buffer,
): Promise<{ kind: IdentityDocumentKind; sha256: string }> {
  requireBuiltinWidget(app);
  const answer = { kind, sha256: uploadSha256 };
  if (!mayStartCheck(app, signer)) {
    // Its PUT sent again after the check that took it started (the answer lost): nothing to keep.
    if (await currentCheckHas(app, signer, kind, uploadSha256)) return answer;
    throw refuseCheck(app, signer);
  }
  // A check may start: the photo is kept for it, even when the current check has the same bytes
  // (a reverification with the same ID photo, a file chosen again after a refusal).
  if ((await sha256Off(body)) !== uploadSha256)
    throw imageRefused({ [kind]: `${photoLabel(kind)} llegó incompleta. Envíala de nuevo.` });
  const [staged] = await app.db
    .select({ uploadSha256: identityPhotoUploads.uploadSha256 })
    .from(identityPhotoUploads)
    .where(and(eq(identityPhotoUploads.signerId, signer.id), eq(identityPhotoUploads.kind, kind)))
    .limit(1);
  // Decoded when it first came: the same bytes again change nothing.
  if (staged?.uploadSha256 === uploadSha256) return answer;

  const photo = await identityPhoto(app, kind, body);
  if ('error' in photo) throw imageRefused({ [kind]: photo.error });
  const facts = {
    format: photo.format,
    bytes: photo.bytes.length,
    width: photo.width,
    height: photo.height,
    sha256: photo.sha256,
  };
  const now = app.clock();
  await app.db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(identityPhotoUploads)
      .values({
        signerId: signer.id,
        kind,
        uploadSha256,
        ...facts,
        dataEncrypted: app.cipher.encryptBytes(photo.bytes),
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [identityPhotoUploads.signerId, identityPhotoUploads.kind],
        set: {
          uploadSha256: sql`excluded.upload_sha256`,
          format: sql`excluded.format`,
          bytes: sql`excluded.bytes`,
          width: sql`excluded.width`,
          height: sql`excluded.height`,
          sha256: sql`excluded.sha256`,
          dataEncrypted: sql`excluded.data_encrypted`,
          createdAt: sql`excluded.created_at`,
        },
        // The same photo stored meanwhile by a parallel request: nothing to replace, nothing to record.
        setWhere: sql`${identityPhotoUploads.uploadSha256} <> excluded.upload_sha256`,
      })
      .returning({ id: identityPhotoUploads.id });
    if (!stored) return;
    await appendAuditEvent(tx, {
      applicationId: signer.userId,
      actor: `signer:${signer.id}`,
      type: 'identity.photo_received',
      payload: { signer_id: signer.id, kind, upload_sha256: uploadSha256, ...facts },
      at: now,
    });
  });
  return answer;
}

/** GET …/identity-photos: what the server holds for the next check, by the hashes the phone knows. */
export async function stagedPhotos(app: FastifyInstance, signer: SignerRow): Promise<IdentityPhotosAnswer> {
  const rows = await app.db
    .select({ kind: identityPhotoUploads.kind, sha256: identityPhotoUploads.uploadSha256 })
    .from(identityPhotoUploads)
    .where(eq(identityPhotoUploads.signerId, signer.id));
  const photos = IDENTITY_DOCUMENT_KINDS.flatMap((kind) => rows.filter((row) => row.kind === kind)).map((row) => ({
    kind: row.kind as IdentityDocumentKind,
    sha256: row.sha256,
  }));
  return { photos };
}

/**
 * POST …/identity-checks: a check with the three photos sent before, moved (not copied: the
 * encrypted bytes stay in the database, INSERT … SELECT) into identity_documents in the check's
 * transaction, where the attempt is counted (identity-check.ts). The same request sent again after
 * its check started (its answer lost) answers that check; a photo the server does not hold (never
 * arrived, or replaced meanwhile) is a 409 naming the kinds to send again.
 */
export async function submitStagedPhotos(app: FastifyInstance, signer: SignerRow, named: Hashes): Promise<CheckAnswer> {
  requireBuiltinWidget(app);
  const sameAs = (db: Parameters<typeof checkOfSamePhotos>[0], current: SignerRow) =>
    checkOfSamePhotos(db, current, named as DocumentHashes, 'upload');
  const staged = await app.db
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
    .where(eq(identityPhotoUploads.signerId, signer.id));
  const held = (kind: IdentityDocumentKind) =>
    staged.find((photo) => photo.kind === kind && photo.uploadSha256 === named[kind]);
  const missing = IDENTITY_DOCUMENT_KINDS.filter((kind) => !held(kind));
  if (missing.length > 0) {
    // Taken by a check that started since this request came in (the same request sent twice at once).
    const [now] = await app.db.select().from(contractSigners).where(eq(contractSigners.id, signer.id)).limit(1);
    const latest = now ?? signer;
    const current = await sameAs(app.db, latest);
    if (current) return sameCheckAnswer(app, latest, current);
    if (!mayStartCheck(app, latest)) throw refuseCheck(app, latest);
    throw photosMissing(missing);
  }
  const facts = IDENTITY_DOCUMENT_KINDS.map((kind) => {
    const { uploadSha256: _sent, ...copy } = held(kind)!;
    return { ...copy, kind };
  });
  const taken = or(
    ...IDENTITY_DOCUMENT_KINDS.map((kind) =>
      and(eq(identityPhotoUploads.kind, kind), eq(identityPhotoUploads.uploadSha256, named[kind])),
    ),
  );
  return startBuiltinCheck(app, signer, {
    facts,
    sameAs,
    write: async (tx, verificationId, now) => {
      // The three rows locked: a photo replaced before this (its hash changed) is not taken, and one
      // replaced after waits for this transaction, then stays for the next check.
      const locked = await tx
        .select({ id: identityPhotoUploads.id, kind: identityPhotoUploads.kind })
        .from(identityPhotoUploads)
        .where(and(eq(identityPhotoUploads.signerId, signer.id), taken))
        .for('update');
      if (locked.length !== IDENTITY_DOCUMENT_KINDS.length)
        throw photosMissing(IDENTITY_DOCUMENT_KINDS.filter((kind) => !locked.some((row) => row.kind === kind)));
      const ids = inArray(
        identityPhotoUploads.id,
        locked.map((row) => row.id),
      );
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
            createdAt: sql<Date>`${now.toISOString()}::timestamptz`.as('created_at'),
          })
          .from(identityPhotoUploads)
          .where(ids),
      );
      await tx.delete(identityPhotoUploads).where(ids);
    },
  });
}
