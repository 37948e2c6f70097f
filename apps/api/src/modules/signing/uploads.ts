import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { invalidFields } from '../../errors.js';
import type { DecodeRefusal, Encoded } from './decode.js';
import { checkIdentityImage, checkSignaturePng, tooManyJpegScans } from './image.js';

/**
 * What the signing calls take from outside: the signature and the three identity photos. Each is
 * checked by its header (a cheap first refusal), then decoded in full and encoded again off the
 * event loop (decode.ts); what is returned is the product's own copy, the only one kept.
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A refused image: the signing screens have no field to mark, so the modal says what was wrong (SPEC §8). */
export const imageRefused = (errors: Record<string, string>) => invalidFields(errors, 'body', true);

const SIGNATURE_MESSAGES: Record<'type' | 'size' | 'dimensions' | DecodeRefusal, string> = {
  type: 'La firma debe ser una imagen PNG.',
  size: 'La firma es demasiado grande.',
  dimensions: 'La firma debe medir entre 20 y 2000 píxeles por lado.',
  pixels: 'La firma debe medir entre 20 y 2000 píxeles por lado.',
  animated: 'La firma debe ser una imagen fija, no una animación.',
  corrupt: 'La firma no es una imagen PNG válida.',
  blank: 'La firma está en blanco. Dibuja tu firma en el recuadro.',
};

/** The signature as sent (base64 PNG), decoded, refused when blank, and encoded again as RGBA PNG. */
export async function signatureImage(app: FastifyInstance, encoded: string): Promise<Encoded> {
  const compact = encoded.replace(/\s/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    throw imageRefused({ signature: 'La firma debe enviarse como una imagen PNG en base64, sin prefijo.' });
  const png = Buffer.from(compact, 'base64');
  const check = checkSignaturePng(png);
  if (!check.ok) throw imageRefused({ signature: SIGNATURE_MESSAGES[check.reason] });
  // The header is not the image (issue 26: a cut IDAT once froze the process in the PDF library).
  const decoded = await app.images.signature(png);
  if (!decoded.ok) throw imageRefused({ signature: SIGNATURE_MESSAGES[decoded.reason] });
  return decoded.value;
}

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
  app: FastifyInstance,
  kind: IdentityDocumentKind,
  bytes: Buffer,
): Promise<IdentityPhoto | { kind: IdentityDocumentKind; error: string }> {
  const check = checkIdentityImage(bytes);
  if (!check.ok) return { kind, error: PHOTO_MESSAGES[check.reason](photoLabel(kind)) };
  if (check.info.format === 'jpeg' && (await tooManyJpegScans(bytes)))
    return { kind, error: PHOTO_MESSAGES.corrupt(photoLabel(kind)) };
  const decoded = await app.images.photo(bytes, check.info.format);
  if (!decoded.ok) return { kind, error: PHOTO_MESSAGES[decoded.reason](photoLabel(kind)) };
  return { kind, ...decoded.value };
}

/**
 * The three photos, each decoded and kept as the product's JPEG (upright, no EXIF), or the field
 * messages of those missing or refused (every field is checked, so the screen can name them all).
 */
export async function identityPhotos(
  app: FastifyInstance,
  files: Partial<Record<IdentityDocumentKind, Buffer>>,
): Promise<{ ok: true; photos: IdentityPhoto[] } | { ok: false; errors: Record<string, string> }> {
  const results = await Promise.all(
    IDENTITY_DOCUMENT_KINDS.map((kind) => {
      const bytes = files[kind];
      return bytes ? identityPhoto(app, kind, bytes) : { kind, error: `Falta ${DOCUMENT_LABELS[kind]}.` };
    }),
  );
  const errors = Object.fromEntries(results.flatMap((one) => ('error' in one ? [[one.kind, one.error]] : [])));
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, photos: results.filter((one): one is IdentityPhoto => !('error' in one)) };
}
