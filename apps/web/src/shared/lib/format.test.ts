import { describe, expect, it } from 'vitest';
import { formatE164, formatPhone } from './format.js';

describe('phone formatting', () => {
  it('groups the national number 3-3-4 after the prefix', () => {
    expect(formatPhone('+1', '8095551234')).toBe('+1 809 555 1234');
    expect(formatE164('+1', '+18095550101')).toBe('+1 809 555 0101');
    expect(formatE164('+52', '+525512345678')).toBe('+52 551 234 5678');
  });

  it('a number of another country stays as it comes', () => {
    expect(formatE164('+52', '+18095550101')).toBe('+18095550101');
  });
});
