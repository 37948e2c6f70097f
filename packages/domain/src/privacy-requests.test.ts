import { describe, expect, it } from 'vitest';
import { addBusinessDays, PRIVACY_DEADLINE_BUSINESS_DAYS } from './privacy-requests.js';

describe('the legal term of a privacy request, in business days', () => {
  it('skips weekends and starts counting the day after the request', () => {
    // Friday 27 November 2026: one business day later is Monday.
    expect(addBusinessDays('2026-11-27', 1)).toBe('2026-11-30');
    expect(addBusinessDays('2026-11-21', PRIVACY_DEADLINE_BUSINESS_DAYS.mx)).toBe('2026-12-18');
    expect(addBusinessDays('2026-11-21', PRIVACY_DEADLINE_BUSINESS_DAYS.do)).toBe('2026-12-04');
  });

  it('skips the configured holidays, and a holiday on a weekend changes nothing', () => {
    expect(addBusinessDays('2026-12-23', 2, ['2026-12-25'])).toBe('2026-12-28');
    expect(addBusinessDays('2026-11-27', 1, ['2026-11-28'])).toBe('2026-11-30');
  });
});
