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
});
