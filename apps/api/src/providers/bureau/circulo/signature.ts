import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Círculo de Crédito's message signature (`x-signature`), as its public clients compute it
 * (APIHub-CdC: rcc-ficoscore-client-java `interceptor/Signer.java`, signature-manager-php
 * `KeyHandler.php`, api-hub-cdc-client-nodeJS `Signer.js`): SHA256withECDSA over the exact bytes
 * of the body, the DER signature hex-encoded. The lender signs its requests with its secp384r1 key;
 * Círculo signs every answer with its own, checked against the certificate downloaded from its
 * developer portal before anything in the answer is read.
 */
export const SIGNATURE_HEADER = 'x-signature';

/** Hex of the DER ECDSA signature (SHA-256) of these bytes. */
export function signBody(body: Buffer, privateKey: KeyObject): string {
  return sign('sha256', body, privateKey).toString('hex');
}

/** Whether the header is a signature of exactly these bytes under the key; a missing, repeated or non-hex header is not. */
export function verifyBody(body: Buffer, header: string | string[] | null | undefined, publicKey: KeyObject): boolean {
  if (typeof header !== 'string') return false;
  const hex = header.trim();
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(hex)) return false;
  try {
    return verify('sha256', body, publicKey, Buffer.from(hex, 'hex'));
  } catch {
    return false; // not a DER signature at all
  }
}

/** The public key of a PEM certificate or public key (Círculo's, or the lender's for the stand-in). */
export function publicKeyFromPem(pem: string | Buffer): KeyObject {
  return createPublicKey(pem);
}
