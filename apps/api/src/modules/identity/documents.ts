import type { IdentityDocumentKind } from '@provee/domain';
import type { SignerRow } from '../application/index.js';
import { personCipher } from '../privacy/index.js';
import { insertDocuments } from './checks.store.js';
import type { IdentityDeps } from './deps.js';
import { signerPersonId } from './signer-person.js';
import {
  checkOfSamePhotos,
  mayStartCheck,
  refuseCheck,
  requireBuiltinWidget,
  startBuiltinCheck,
  type CheckAnswer,
  type DocumentFacts,
  type DocumentHashes,
} from './identity-check.js';
import { identityPhotos, imageRefused, type IdentityPhoto } from './uploads.js';

type DocumentDeps = Pick<IdentityDeps, 'db' | 'clock' | 'config' | 'cipher' | 'images'>;

/**
 * The built-in widget's three photos in one request (multipart): checked by content (JPEG, PNG or
 * WebP; 8 MB and 40 megapixels at most), decoded in full and kept as the product's own JPEG copy
 * (uploads.ts, decision 021), stored encrypted, and a check started (identity-check.ts). The
 * photos of the current check sent again answer that check: the copies are encoded the same way
 * every time, so the same photos give the same copies and hashes. The widget itself sends its
 * photos one at a time as they are taken (photos.ts, decision 024).
 */
export async function submitDocuments(
  deps: DocumentDeps,
  signer: SignerRow,
  files: Partial<Record<IdentityDocumentKind, Buffer>>,
): Promise<CheckAnswer> {
  requireBuiltinWidget(deps);
  const documents = await decodedOrRefused(deps, signer, files);
  const facts = documents.map(factsOf);
  const hashes: DocumentHashes = Object.fromEntries(documents.map((photo) => [photo.kind, photo.sha256]));
  return startBuiltinCheck(deps, signer, {
    facts,
    sameAs: (db, current) => checkOfSamePhotos(db, current, hashes),
    write: async (tx, verificationId, now) => {
      // The signer's own key (decision 032): erasing them leaves these photos unreadable.
      const own = await personCipher(deps, tx, signerPersonId(signer));
      await insertDocuments(
        tx,
        documents.map((doc, i) => ({
          ...facts[i]!,
          verificationId,
          dataEncrypted: own.encryptBytes(doc.bytes),
          createdAt: now,
        })),
      );
    },
  });
}

/**
 * The three photos decoded, or the refusal: why no check can start for this signer first (a
 * signed signer's photos are not worth naming), else what was wrong with each photo.
 */
async function decodedOrRefused(
  deps: DocumentDeps,
  signer: SignerRow,
  files: Partial<Record<IdentityDocumentKind, Buffer>>,
): Promise<IdentityPhoto[]> {
  const decoded = await identityPhotos(deps, files);
  if (decoded.ok) return decoded.photos;
  if (!mayStartCheck(deps, signer)) throw refuseCheck(deps, signer);
  throw imageRefused(decoded.errors);
}

/** A stored copy's facts: kept with it and named in the audit event. */
const factsOf = (doc: IdentityPhoto): DocumentFacts => ({
  kind: doc.kind,
  format: doc.format,
  bytes: doc.bytes.length,
  width: doc.width,
  height: doc.height,
  sha256: doc.sha256,
});
