import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anonymousId,
  formatNationalNumber,
  fromE164,
  isValidHomePhone,
  isValidNationalNumber,
  normalizePhone,
  phoneTypingChars,
  sanitizePhoneInput,
  toE164,
} from './phone.js';

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
      fc.property(
        fc.stringMatching(/^(809|829|849)[2-9]\d{6}$/),
        (digits) => fromE164('do', toE164('do', digits)) === digits,
      ),
    );
  });

  it('anonymous_id is the fixed prefix plus the digits', () => {
    expect(anonymousId('8095551234')).toBe('anon-8095551234');
  });
});

const doNumber = fc.stringMatching(/^(809|829|849)[2-9]\d{6}$/);
const mxNumber = fc.stringMatching(/^[1-9]\d{9}$/);
/** The national number written the ways people write it: spaces, dashes, dots, brackets. */
const written = (digits: string) =>
  fc
    .tuple(fc.constantFrom('', ' ', '-', '.', ') '), fc.constantFrom('', ' ', '-', '.'), fc.boolean())
    .map(
      ([first, second, brackets]) =>
        `${brackets ? '(' : ''}${digits.slice(0, 3)}${brackets && first === ') ' ? '' : brackets ? ')' : ''}${first}${digits.slice(3, 6)}${second}${digits.slice(6)}`,
    );

describe('normalizePhone: what people paste or type → the 10 national digits', () => {
  it('do: formatting and a leading +1 or 1 are dropped', () => {
    fc.assert(
      fc.property(
        doNumber.chain((digits) =>
          fc.tuple(
            fc.constant(digits),
            written(digits),
            fc.constantFrom('', '1', '1 ', '+1', '+1 ', '+1-', ' +1 (', '1-'),
          ),
        ),
        ([digits, text, prefix]) => normalizePhone('do', `${prefix}${text}`) === digits,
      ),
    );
  });

  it('mx: +52 (and the old mobile 1) dropped, a number starting with 52 kept', () => {
    fc.assert(
      fc.property(
        mxNumber.chain((digits) =>
          fc.tuple(fc.constant(digits), written(digits), fc.constantFrom('', '+52', '+52 ', '52 ', '+52 1 ', '521')),
        ),
        ([digits, text, prefix]) => normalizePhone('mx', `${prefix}${text}`) === digits,
      ),
    );
    expect(normalizePhone('mx', '5255123456')).toBe('5255123456');
  });

  it('never gives more than 10 digits or anything but digits', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('do' as const, 'mx' as const), (value, country) =>
        /^\d{0,10}$/.test(normalizePhone(country, value)),
      ),
    );
  });

  it.each([
    ['(809) 555-1234', '8095551234'],
    ['+1 809-555-1234', '8095551234'],
    ['+18095551234', '8095551234'],
    ['1 809 555 1234', '8095551234'],
  ])('do %j → %s', (typed, digits) => {
    expect(normalizePhone('do', typed)).toBe(digits);
  });

  it('typing +18095551234 key by key is a valid number only at the last key', () => {
    const typed = '+18095551234';
    const valid = Array.from({ length: typed.length }, (_, i) =>
      isValidNationalNumber('do', normalizePhone('do', typed.slice(0, i + 1))),
    );
    expect(valid).toEqual([...Array<boolean>(typed.length - 1).fill(false), true]);
    const mx = '+525512345678';
    const mxValid = Array.from({ length: mx.length }, (_, i) =>
      isValidNationalNumber('mx', normalizePhone('mx', mx.slice(0, i + 1))),
    );
    expect(mxValid).toEqual([...Array<boolean>(mx.length - 1).fill(false), true]);
  });

  it('0000000000 and numbers outside the plan are not valid', () => {
    expect(isValidNationalNumber('do', normalizePhone('do', '0000000000'))).toBe(false);
    expect(isValidNationalNumber('mx', normalizePhone('mx', '0000000000'))).toBe(false);
  });

  it('phoneTypingChars keeps digits, +, spaces, dashes, dots and brackets only', () => {
    expect(phoneTypingChars('+1 (809) 555-1234 ext')).toBe('+1 (809) 555-1234 ');
    fc.assert(fc.property(fc.string(), (value) => /^[\d+\s().-]{0,20}$/.test(phoneTypingChars(value))));
  });
});

describe('formatNationalNumber: grouped the country way', () => {
  it('do 3-3-4, mx 2-4-4 for the two-digit areas and 3-3-4 otherwise', () => {
    expect(formatNationalNumber('do', '8095551234')).toBe('809 555 1234');
    expect(formatNationalNumber('mx', '5512345678')).toBe('55 1234 5678');
    expect(formatNationalNumber('mx', '2221234567')).toBe('222 123 4567');
  });

  it('keeps every digit in order, three groups', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          doNumber.map((d) => ['do', d] as const),
          mxNumber.map((d) => ['mx', d] as const),
        ),
        ([country, digits]) => {
          const shown = formatNationalNumber(country, digits);
          return shown.replace(/ /g, '') === digits && shown.split(' ').length === 3;
        },
      ),
    );
  });
});
