import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Personal data at rest (birth date, tax id): AES-256-GCM with a random IV per value, stored as
 * "v1.<iv>.<tag>.<ciphertext>" (base64url), and a keyed hash for exact lookups.
 */
export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  lookupHash(value: string): string;
  /** Files at rest (identity documents, signatures): version byte, IV, tag, then the ciphertext. */
  encryptBytes(plain: Uint8Array): Buffer;
  decryptBytes(stored: Uint8Array): Buffer;
}

const BYTES_V1 = 1;

export function createFieldCipher(encryptionKey: Buffer, hashKey: Buffer): FieldCipher {
  if (encryptionKey.length !== 32) throw new Error('the data encryption key must be 32 bytes');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, ciphertext] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('unknown ciphertext format');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
    lookupHash: (value) => createHmac('sha256', hashKey).update(value).digest('hex'),
    encryptBytes(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([BYTES_V1]), iv, cipher.getAuthTag(), ciphertext]);
    },
    decryptBytes(stored) {
      const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
      if (bytes.length < 29 || bytes[0] !== BYTES_V1) throw new Error('unknown ciphertext format');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, bytes.subarray(1, 13));
      decipher.setAuthTag(bytes.subarray(13, 29));
      return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
    },
  };
}
