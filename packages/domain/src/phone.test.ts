import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anonymousId, fromE164, isValidHomePhone, isValidNationalNumber, sanitizePhoneInput, toE164 } from './phone.js';

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

describe('numbering plans and E.164', () => {
  it.each(['8095551234', '8292345678', '8499876543'])('do accepts %s', (digits) => {
    expect(isValidNationalNumber('do', digits)).toBe(true);
    expect(toE164('do', digits)).toBe(`+1${digits}`);
  });

  it.each(['7865551234', '8091551234', '809555123', '80955512345', '+18095551234'])('do refuses %s', (digits) => {
    expect(isValidNationalNumber('do', digits)).toBe(false);
  });

  it('mx takes any 10 digits not starting with 0', () => {
    expect(isValidNationalNumber('mx', '5512345678')).toBe(true);
    expect(isValidNationalNumber('mx', '0512345678')).toBe(false);
    expect(toE164('mx', '5512345678')).toBe('+525512345678');
  });

  it('fromE164 gives back the national number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(809|829|849)[2-9]\d{6}$/), (digits) => fromE164('do', toE164('do', digits)) === digits),
    );
  });

  it('anonymous_id is the fixed prefix plus the digits', () => {
    expect(anonymousId('8095551234')).toBe('anon-8095551234');
  });
});
