import { describe, expect, it } from 'vitest';
import { formatDuration, localDate, summarizePayload } from './format.js';

describe('back office formats', () => {
  it('durations read in their two largest units', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(180)).toBe('3 min');
    expect(formatDuration(3_600)).toBe('1 h');
    expect(formatDuration(2 * 3_600 + 5 * 60 + 20)).toBe('2 h 5 min');
    expect(formatDuration(27 * 3_600)).toBe('1 d 3 h');
    expect(formatDuration(2 * 86_400)).toBe('2 d');
  });

  it('a payload on one line, cut when long', () => {
    expect(summarizePayload({ step: 'PASSWORD', amount: 25_000, rules: ['a'] })).toBe(
      'step: PASSWORD · amount: 25000 · rules: ["a"]',
    );
    expect(summarizePayload({})).toBe('—');
    expect(summarizePayload({ text: 'x'.repeat(300) })).toHaveLength(160);
  });

  it("a date input's value is the local day", () => {
    expect(localDate(0, new Date(2025, 0, 1, 0, 30))).toBe('2025-01-01');
    expect(localDate(1, new Date(2025, 0, 1, 23, 30))).toBe('2024-12-31');
  });
});
