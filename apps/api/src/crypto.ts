import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Data at rest: AES-256-GCM with a random IV per value, and a keyed hash for exact lookups.
 * Two formats (decision 032):
 * - v1, the application key itself: text "v1.<iv>.<tag>.<ciphertext>" (base64url), bytes 0x01|iv|tag|ct.
 *   Non-personal secrets (staff TOTP, webhook secrets, sealed SMS jobs) and personal data written
 *   before per-person keys.
 * - v2, a person's data key (modules/privacy/person-keys.ts): "v2.…" and 0x02|iv|tag|ct, so erasing
 *   the person (destroying that key) makes every v2 value of theirs unreadable.
 */
export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  lookupHash(value: string): string;
  /** Files at rest (identity documents, signatures): version byte, IV, tag, then the ciphertext. */
  encryptBytes(plain: Uint8Array): Buffer;
  decryptBytes(stored: Uint8Array): Buffer;
}

/** An application key and its id: a fingerprint of the key, so the id can never name another key. */
export interface AppKey {
  id: string;
  key: Buffer;
}

/** The application's cipher (v1) and its keys: the current one encrypts and wraps, older ones only open. */
export interface AppCipher extends FieldCipher {
  readonly keys: { current: AppKey; previous: readonly AppKey[] };
}

const V1 = { text: 'v1', byte: 1 } as const;
const V2 = { text: 'v2', byte: 2 } as const;
type Version = typeof V1 | typeof V2;

/** A non-secret id of a key (HMAC of a fixed label): what `person_keys.wrapped_by` records. */
export function appKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('provee:app-key-id').digest('hex').slice(0, 16);
}

function assertKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('the data encryption key must be 32 bytes');
}

function seal(key: Buffer, plain: Uint8Array, aad?: Buffer): [Buffer, Buffer, Buffer] {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext];
}

function open(key: Buffer, iv: Buffer, tag: Buffer, ciphertext: Buffer, aad?: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

function encryptText(version: Version, key: Buffer, plain: string): string {
  return [version.text, ...seal(key, Buffer.from(plain, 'utf8')).map((part) => part.toString('base64url'))].join('.');
}

/** The parts of a text ciphertext, or null when it is not of this version. */
function textParts(version: Version, stored: string): [Buffer, Buffer, Buffer] | null {
  const [tag, iv, authTag, ciphertext, extra] = stored.split('.');
  if (tag !== version.text || !iv || !authTag || ciphertext === undefined || extra !== undefined) return null;
  return [Buffer.from(iv, 'base64url'), Buffer.from(authTag, 'base64url'), Buffer.from(ciphertext, 'base64url')];
}

function encryptBytesWith(version: Version, key: Buffer, plain: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([version.byte]), ...seal(key, plain)]);
}

function bytesParts(version: Version, stored: Uint8Array): [Buffer, Buffer, Buffer] | null {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes.length < 29 || bytes[0] !== version.byte) return null;
  return [bytes.subarray(1, 13), bytes.subarray(13, 29), bytes.subarray(29)];
}

/** Opens with the first key that authenticates (GCM refuses every other one). */
function openWithAny(keys: readonly Buffer[], parts: [Buffer, Buffer, Buffer]): Buffer {
  for (const key of keys.slice(0, -1)) {
    try {
      return open(key, ...parts);
    } catch {
      // Written under another key (before a rotation): try the next one.
    }
  }
  return open(keys[keys.length - 1]!, ...parts);
}

/**
 * The application cipher: writes v1 with the current key; reads v1 written under the current or
 * any previous key, so a rotation never strands a value.
 */
export function createAppCipher(current: Buffer, previous: readonly Buffer[], hashKey: Buffer): AppCipher {
  [current, ...previous].forEach(assertKey);
  const all = [current, ...previous];
  const unknown = () => new Error('unknown ciphertext format');
  return {
    keys: {
      current: { id: appKeyId(current), key: current },
      previous: previous.map((key) => ({ id: appKeyId(key), key })),
    },
    encrypt: (plain) => encryptText(V1, current, plain),
    decrypt(stored) {
      const parts = textParts(V1, stored);
      if (!parts) throw unknown();
      return openWithAny(all, parts).toString('utf8');
    },
    lookupHash: (value) => createHmac('sha256', hashKey).update(value).digest('hex'),
    encryptBytes: (plain) => encryptBytesWith(V1, current, plain),
    decryptBytes(stored) {
      const parts = bytesParts(V1, stored);
      if (!parts) throw unknown();
      return openWithAny(all, parts);
    },
  };
}

/** One key, no rotation: the v1 cipher as it always was. */
export function createFieldCipher(encryptionKey: Buffer, hashKey: Buffer): FieldCipher {
  return createAppCipher(encryptionKey, [], hashKey);
}

/**
 * A person's cipher: writes v2 with their data key; still reads v1 (through the application
 * cipher) so values written before per-person keys keep working. The lookup hash stays the
 * application's, so a tax id is found whoever's key encrypted it.
 */
export function createPersonFieldCipher(dataKey: Buffer, app: FieldCipher): FieldCipher {
  assertKey(dataKey);
  return {
    encrypt: (plain) => encryptText(V2, dataKey, plain),
    decrypt(stored) {
      const parts = textParts(V2, stored);
      return parts ? open(dataKey, ...parts).toString('utf8') : app.decrypt(stored);
    },
    lookupHash: (value) => app.lookupHash(value),
    encryptBytes: (plain) => encryptBytesWith(V2, dataKey, plain),
    decryptBytes(stored) {
      const parts = bytesParts(V2, stored);
      return parts ? open(dataKey, ...parts) : app.decryptBytes(stored);
    },
  };
}

/**
 * A data key wrapped by an application key, bound to its person (GCM's additional data), so a
 * wrapped key copied onto another person's row does not open: "<iv>.<tag>.<ciphertext>".
 */
export function wrapDataKey(appKey: Buffer, dataKey: Buffer, personId: string): string {
  return seal(appKey, dataKey, Buffer.from(personId, 'utf8'))
    .map((part) => part.toString('base64url'))
    .join('.');
}

export function unwrapDataKey(appKey: Buffer, wrapped: string, personId: string): Buffer {
  const [iv, tag, ciphertext] = wrapped.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !ciphertext) throw new Error('unknown wrapped key format');
  return open(appKey, iv, tag, ciphertext, Buffer.from(personId, 'utf8'));
}
