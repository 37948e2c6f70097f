import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES, passwordErrors } from './password.js';

describe('password rules', () => {
  it('accepts six digits that are not obvious, confirmed', () => {
    expect(passwordErrors('583920', '583920', { dob: '1985-02-28', phone: '8095551234' })).toEqual({});
  });

  it.each(['111111', '000000', '123456', '234567', '654321', '987654', '890123', '210987'])(
    'refuses the obvious %s',
    (password) => {
      expect(passwordErrors(password, password).password).toBe(PASSWORD_MESSAGES.obvious);
    },
  );

  it('refuses the birth date as DDMMYY or YYMMDD, and the phone’s last six digits', () => {
    expect(passwordErrors('280285', '280285', { dob: '1985-02-28' }).password).toBe(PASSWORD_MESSAGES.birthDate);
    expect(passwordErrors('850228', '850228', { dob: '1985-02-28' }).password).toBe(PASSWORD_MESSAGES.birthDate);
    expect(passwordErrors('551234', '551234', { phone: '8095551234' }).password).toBe(PASSWORD_MESSAGES.phone);
  });

  it('needs exactly six digits and a matching confirmation', () => {
    expect(passwordErrors('', '')).toEqual({
      password: PASSWORD_MESSAGES.required,
      password_confirmation: PASSWORD_MESSAGES.confirmation,
    });
    // An instruction the person can follow, not a statement about passwords (issue 27).
    expect(passwordErrors('58392', '58392').password).toBe('* Escribe los 6 números de tu contraseña.');
    expect(passwordErrors('58392a', '58392a').password).toBe(PASSWORD_MESSAGES.format);
    expect(passwordErrors('583920', '583921').password_confirmation).toBe(PASSWORD_MESSAGES.mismatch);
  });

  it('never accepts anything but six digits', () => {
    fc.assert(
      fc.property(fc.string(), (value) => /^\d{6}$/.test(value) || passwordErrors(value, value).password !== undefined),
    );
  });
});
