import {
  checkSignaturePng,
  imageRefused,
  type DecodeRefusal,
  type Encoded,
  type IdentityDeps,
} from '../identity/index.js';

/**
 * The handwritten signature as it comes from outside: checked by its header (a cheap first
 * refusal), then decoded in full and encoded again off the event loop like the identity photos
 * (identity's decode.ts); what is returned is the product's own copy, the only one kept.
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

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
export async function signatureImage(deps: Pick<IdentityDeps, 'images'>, encoded: string): Promise<Encoded> {
  const compact = encoded.replace(/\s/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    throw imageRefused({ signature: 'La firma debe enviarse como una imagen PNG en base64, sin prefijo.' });
  const png = Buffer.from(compact, 'base64');
  const check = checkSignaturePng(png);
  if (!check.ok) throw imageRefused({ signature: SIGNATURE_MESSAGES[check.reason] });
  // The header is not the image (issue 26: a cut IDAT once froze the process in the PDF library).
  const decoded = await deps.images.signature(png);
  if (!decoded.ok) throw imageRefused({ signature: SIGNATURE_MESSAGES[decoded.reason] });
  return decoded.value;
}
