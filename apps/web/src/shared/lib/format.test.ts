import { COUNTRIES } from '@provee/domain';
import { describe, expect, it } from 'vitest';
import { formatE164, formatPhone } from './format.js';

const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('phone formatting', () => {
  it('groups the national number the country’s way after the prefix, with spaces that never break', () => {
    expect(plain(formatPhone(COUNTRIES.do, '8095551234'))).toBe('+1 809 555 1234');
    expect(formatPhone(COUNTRIES.do, '8095551234')).not.toContain(' ');
    expect(plain(formatE164(COUNTRIES.do, '+18095550101'))).toBe('+1 809 555 0101');
    expect(plain(formatE164(COUNTRIES.mx, '+525512345678'))).toBe('+52 55 1234 5678');
  });

  it('a number of another country stays as it comes', () => {
    expect(formatE164(COUNTRIES.mx, '+18095550101')).toBe('+18095550101');
  });
});
