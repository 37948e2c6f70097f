import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFieldCipher } from './crypto.js';

describe('field cipher', () => {
  const cipher = createFieldCipher(randomBytes(32), randomBytes(32));

  it('decrypts what it encrypted, and never stores the same value twice the same way', () => {
    fc.assert(fc.property(fc.string(), (plain) => cipher.decrypt(cipher.encrypt(plain)) === plain));
    expect(cipher.encrypt('1990-01-31')).not.toBe(cipher.encrypt('1990-01-31'));
    expect(cipher.encrypt('00113918205')).not.toContain('00113918205');
  });

  it('refuses a changed ciphertext or another key', () => {
    const stored = cipher.encrypt('00113918205');
    const parts = stored.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => cipher.decrypt([...parts.slice(0, 3), flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => createFieldCipher(randomBytes(32), randomBytes(32)).decrypt(stored)).toThrow();
  });

  it('hashes the same value the same way (exact lookups) and depends on the key', () => {
    expect(cipher.lookupHash('00113918205')).toBe(cipher.lookupHash('00113918205'));
    expect(createFieldCipher(randomBytes(32), randomBytes(32)).lookupHash('00113918205')).not.toBe(
      cipher.lookupHash('00113918205'),
    );
  });

  it('encrypts files: round trip, random IV, a changed byte or another key is refused', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (plain) =>
        Buffer.from(plain).equals(cipher.decryptBytes(cipher.encryptBytes(plain))),
      ),
    );
    const image = randomBytes(4096);
    const stored = cipher.encryptBytes(image);
    expect(stored.equals(cipher.encryptBytes(image))).toBe(false);
    expect(stored.includes(image.subarray(0, 64))).toBe(false);
    const flipped = Buffer.from(stored);
    flipped[40]! ^= 1;
    expect(() => cipher.decryptBytes(flipped)).toThrow();
    expect(() => createFieldCipher(randomBytes(32), randomBytes(32)).decryptBytes(stored)).toThrow();
    expect(() => cipher.decryptBytes(new Uint8Array(10))).toThrow();
  });
});
