import { COUNTRIES } from '@provee/domain';
import { describe, expect, it } from 'vitest';
import { formatAmount, formatE164, formatPercent, formatPhone } from './format.js';

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

describe('amounts and rates', () => {
  it('an amount in the locale’s way, whole units, with the currency code after it', () => {
    expect(plain(formatAmount(50_000, 'DOP', 'es-DO'))).toMatch(/^\D*50,000 DOP$/);
    expect(plain(formatAmount(10_000.4, 'MXN', 'es-MX'))).toBe('$10,000 MXN');
  });

  it('a yearly rate given in percent, up to two decimals', () => {
    expect(plain(formatPercent(36, 'es-DO'))).toMatch(/^36\s?%$/);
    expect(plain(formatPercent(24.555, 'es-MX'))).toMatch(/^24\.56\s?%$/);
  });
});
