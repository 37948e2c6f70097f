import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind } from '@provee/domain';
import { invalidFields } from '../../errors.js';
import type { DecodeRefusal, Encoded } from './decode.js';
import type { IdentityDeps } from './deps.js';
import { checkIdentityImage, tooManyJpegScans } from './image.js';

/**
 * The identity photos as they come from outside (the signature is the contract's: signing's
 * signature.ts). Each is checked by its header (a cheap first refusal), then decoded in full and
 * encoded again off the event loop (decode.ts); what is returned is the product's own copy, the
 * only one kept.
 */

/** A refused image: the signing screens have no field to mark, so the modal says what was wrong (SPEC §8). */
export const imageRefused = (errors: Record<string, string>) => invalidFields(errors, 'body', true);

const DOCUMENT_LABELS: Record<IdentityDocumentKind, string> = {
  id_front: 'la foto del frente de tu identificación',
  id_back: 'la foto del reverso de tu identificación',
  selfie: 'tu selfie',
};

const PHOTO_MESSAGES: Record<'type' | 'size' | DecodeRefusal, (label: string) => string> = {
  type: (label) => `${label} debe ser una imagen JPEG, PNG o WebP.`,
  size: (label) => `${label} pesa más de 8 MB.`,
  pixels: (label) => `${label} tiene más de 40 megapíxeles.`,
  animated: (label) => `${label} debe ser una foto fija, no una animación.`,
  corrupt: (label) => `${label} está incompleta o dañada. Tómala de nuevo.`,
  blank: (label) => `${label} está en blanco. Tómala de nuevo.`,
};

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export interface IdentityPhoto extends Encoded {
  kind: IdentityDocumentKind;
}

/** The spoken name of a photo, as a refusal names it ('Tu selfie', 'La foto del frente…'). */
export const photoLabel = (kind: IdentityDocumentKind) => capitalize(DOCUMENT_LABELS[kind]);

/** One photo checked by its header, decoded in full and kept as the product's JPEG (upright, no EXIF), or why not. */
export async function identityPhoto(
  deps: Pick<IdentityDeps, 'images'>,
  kind: IdentityDocumentKind,
  bytes: Buffer,
): Promise<IdentityPhoto | { kind: IdentityDocumentKind; error: string }> {
  const check = checkIdentityImage(bytes);
  if (!check.ok) return { kind, error: PHOTO_MESSAGES[check.reason](photoLabel(kind)) };
  if (check.info.format === 'jpeg' && (await tooManyJpegScans(bytes)))
    return { kind, error: PHOTO_MESSAGES.corrupt(photoLabel(kind)) };
  const decoded = await deps.images.photo(bytes, check.info.format);
  if (!decoded.ok) return { kind, error: PHOTO_MESSAGES[decoded.reason](photoLabel(kind)) };
  return { kind, ...decoded.value };
}

/**
 * The three photos, each decoded and kept as the product's JPEG (upright, no EXIF), or the field
 * messages of those missing or refused (every field is checked, so the screen can name them all).
 */
export async function identityPhotos(
  deps: Pick<IdentityDeps, 'images'>,
  files: Partial<Record<IdentityDocumentKind, Buffer>>,
): Promise<{ ok: true; photos: IdentityPhoto[] } | { ok: false; errors: Record<string, string> }> {
  const results = await Promise.all(
    IDENTITY_DOCUMENT_KINDS.map((kind) => {
      const bytes = files[kind];
      return bytes ? identityPhoto(deps, kind, bytes) : { kind, error: `Falta ${DOCUMENT_LABELS[kind]}.` };
    }),
  );
  const errors = Object.fromEntries(results.flatMap((one) => ('error' in one ? [[one.kind, one.error]] : [])));
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, photos: results.filter((one): one is IdentityPhoto => !('error' in one)) };
}
