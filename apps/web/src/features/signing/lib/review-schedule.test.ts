import { describe, expect, it } from 'vitest';
import { REVIEW_POLL_POINTS, formatMinutes, isPollDue } from './review-schedule.js';

describe('the review countdown (SPEC §4, §9)', () => {
  it('asks at 270, 240, 210, 180, 150, 120, 90, 60 and 30 seconds left', () => {
    expect(REVIEW_POLL_POINTS).toEqual([270, 240, 210, 180, 150, 120, 90, 60, 30]);
  });

  it('a poll is due when the countdown reaches a point, once', () => {
    expect(isPollDue(271, 270)).toBe(true);
    expect(isPollDue(300, 299)).toBe(false);
    expect(isPollDue(270, 269)).toBe(false);
    expect(isPollDue(31, 30)).toBe(true);
  });

  it('a jump over several points is one poll; reaching 0 is none (time is up)', () => {
    expect(isPollDue(300, 200)).toBe(true);
    expect(isPollDue(40, 0)).toBe(false);
  });

  it('reads as m:ss', () => {
    expect(formatMinutes(300)).toBe('5:00');
    expect(formatMinutes(269)).toBe('4:29');
    expect(formatMinutes(9)).toBe('0:09');
    expect(formatMinutes(-1)).toBe('0:00');
  });
});
