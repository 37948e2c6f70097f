import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidHomePhone, sanitizePhoneInput } from './phone.js';

describe('home phone rule (SPEC §5)', () => {
  it.each(['8095551234', '5512345678', '+809555123'.slice(1) + '4'])('accepts %s', (value) => {
    expect(isValidHomePhone(value)).toBe(true);
  });

  it.each(['', '809555123', '80955512345', 'abcdefghij', '809/555/12', '809-555-1234'])('refuses %j', (value) => {
    expect(isValidHomePhone(value)).toBe(false);
  });

  it('accepts every ten-digit number and nothing longer than 10 characters', () => {
    fc.assert(fc.property(fc.stringMatching(/^\d{10}$/), (digits) => isValidHomePhone(digits)));
    fc.assert(fc.property(fc.string({ minLength: 11 }), (value) => !isValidHomePhone(value)));
  });

  it('sanitizing keeps at most 10 digits and nothing else', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const clean = sanitizePhoneInput(value);
        return /^\d{0,10}$/.test(clean);
      }),
    );
    expect(sanitizePhoneInput('(809) 555-1234 99')).toBe('8095551234');
  });
});
