import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind, type IdentityPhotosAnswer } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { SignerRow } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { personCipher } from '../privacy/index.js';
import { checkHasUpload, findSigner } from './checks.store.js';
import { sha256Off } from './decode.js';
import type { IdentityDeps } from './deps.js';
import { signerPersonId } from './signer-person.js';
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
import {
  findStagedUploadSha256,
  lockNamedPhotos,
  movePhotosIntoCheck,
  stagedPhotoFacts,
  stagedPhotoHashes,
  upsertStagedPhoto,
} from './photos.store.js';
import { identityPhoto, imageRefused, photoLabel } from './uploads.js';

/**
 * The built-in widget's photos one at a time (issue 27, decision 024): each is sent as soon as the
 * person accepts it, named by the SHA-256 of its bytes, decoded in full and kept as the product's
 * copy (uploads.ts, decision 021) until a check takes the three. Sending a photo again is
 * harmless (the same hash changes nothing), so a phone that lost an answer asks what the server
 * holds and sends only what is missing.
 */

type Hashes = Record<IdentityDocumentKind, string>;
type PhotoDeps = Pick<IdentityDeps, 'db' | 'clock' | 'config' | 'cipher' | 'images'>;

const photosMissing = (missing: IdentityDocumentKind[]) =>
  new AppError(409, 'PHOTOS_MISSING', 'photos missing', 'Aún no recibimos todas tus fotos. Las enviamos de nuevo.', {
    missing,
  });

/** Whether the signer's current check was started with this photo (its PUT sent again after the check). */
async function currentCheckHas(db: Executor, signer: SignerRow, kind: IdentityDocumentKind, sha256: string) {
  if (!signer.currentVerificationId) return false;
  return checkHasUpload(db, signer.currentVerificationId, kind, sha256);
}

/**
 * PUT …/identity-photos/:kind/:sha256: one photo kept for the next check. Refused when no check
 * can start (signed, under review, no attempt left) unless it is already the current check's; the
 * bytes must be the ones the path names; a photo of the same kind sent before is replaced.
 */
export async function receivePhoto(
  deps: PhotoDeps,
  signer: SignerRow,
  kind: IdentityDocumentKind,
  uploadSha256: string,
  body: Buffer,
): Promise<{ kind: IdentityDocumentKind; sha256: string }> {
  requireBuiltinWidget(deps);
  const answer = { kind, sha256: uploadSha256 };
  if (!mayStartCheck(deps, signer)) {
    // Its PUT sent again after the check that took it started (the answer lost): nothing to keep.
    if (await currentCheckHas(deps.db, signer, kind, uploadSha256)) return answer;
    throw refuseCheck(deps, signer);
  }
  // A check may start: the photo is kept for it, even when the current check has the same bytes
  // (a reverification with the same ID photo, a file chosen again after a refusal).
  if ((await sha256Off(body)) !== uploadSha256)
    throw imageRefused({ [kind]: `${photoLabel(kind)} llegó incompleta. Envíala de nuevo.` });
  // Decoded when it first came: the same bytes again change nothing.
  if ((await findStagedUploadSha256(deps.db, signer.id, kind)) === uploadSha256) return answer;
  await stagePhoto(deps, signer, kind, uploadSha256, body);
  return answer;
}

/** The photo decoded and kept as the product's copy (encrypted), replacing the one of its kind, with its audit event. */
async function stagePhoto(
  deps: PhotoDeps,
  signer: SignerRow,
  kind: IdentityDocumentKind,
  uploadSha256: string,
  body: Buffer,
): Promise<void> {
  const photo = await identityPhoto(deps, kind, body);
  if ('error' in photo) throw imageRefused({ [kind]: photo.error });
  const facts = {
    format: photo.format,
    bytes: photo.bytes.length,
    width: photo.width,
    height: photo.height,
    sha256: photo.sha256,
  };
  const now = deps.clock();
  await deps.db.transaction(async (tx) => {
    const stored = await upsertStagedPhoto(tx, {
      signerId: signer.id,
      kind,
      uploadSha256,
      ...facts,
      // The signer's own key (decision 032), made in this transaction if it is the first use.
      dataEncrypted: (await personCipher(deps, tx, signerPersonId(signer))).encryptBytes(photo.bytes),
      createdAt: now,
    });
    // The same photo stored meanwhile by a parallel request: nothing replaced, nothing to record.
    if (!stored) return;
    await appendAuditEvent(tx, {
      applicationId: signer.userId,
      actor: `signer:${signer.id}`,
      type: 'identity.photo_received',
      payload: { signer_id: signer.id, kind, upload_sha256: uploadSha256, ...facts },
      at: now,
    });
  });
}

/** GET …/identity-photos: what the server holds for the next check, by the hashes the phone knows. */
export async function stagedPhotos(deps: Pick<IdentityDeps, 'db'>, signer: SignerRow): Promise<IdentityPhotosAnswer> {
  const rows = await stagedPhotoHashes(deps.db, signer.id);
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
export async function submitStagedPhotos(deps: PhotoDeps, signer: SignerRow, named: Hashes): Promise<CheckAnswer> {
  requireBuiltinWidget(deps);
  const sameAs = (db: Executor, current: SignerRow) =>
    checkOfSamePhotos(db, current, named as DocumentHashes, 'upload');
  const staged = await stagedPhotoFacts(deps.db, signer.id);
  const held = (kind: IdentityDocumentKind) =>
    staged.find((photo) => photo.kind === kind && photo.uploadSha256 === named[kind]);
  const missing = IDENTITY_DOCUMENT_KINDS.filter((kind) => !held(kind));
  if (missing.length > 0) return answerWithoutPhotos(deps, signer, missing, sameAs);
  const facts = IDENTITY_DOCUMENT_KINDS.map((kind) => {
    const { uploadSha256: _sent, ...copy } = held(kind)!;
    return { ...copy, kind };
  });
  return startBuiltinCheck(deps, signer, {
    facts,
    sameAs,
    write: async (tx, verificationId, now) => {
      // The three rows locked: a photo replaced before this (its hash changed) is not taken, and one
      // replaced after waits for this transaction, then stays for the next check.
      const locked = await lockNamedPhotos(tx, signer.id, named);
      if (locked.length !== IDENTITY_DOCUMENT_KINDS.length)
        throw photosMissing(IDENTITY_DOCUMENT_KINDS.filter((kind) => !locked.some((row) => row.kind === kind)));
      await movePhotosIntoCheck(
        tx,
        locked.map((row) => row.id),
        verificationId,
        now,
      );
    },
  });
}

/**
 * Photos named but not held: taken by a check that started since this request came in (the same
 * request sent twice at once), which answers; else the refusal of a new check, or the kinds to send again.
 */
async function answerWithoutPhotos(
  deps: PhotoDeps,
  signer: SignerRow,
  missing: IdentityDocumentKind[],
  sameAs: (db: Executor, current: SignerRow) => ReturnType<typeof checkOfSamePhotos>,
): Promise<CheckAnswer> {
  const latest = (await findSigner(deps.db, signer.id)) ?? signer;
  const current = await sameAs(deps.db, latest);
  if (current) return sameCheckAnswer(deps, latest, current);
  if (!mayStartCheck(deps, latest)) throw refuseCheck(deps, latest);
  throw photosMissing(missing);
}
