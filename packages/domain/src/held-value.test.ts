import { describe, expect, it } from 'vitest';
import { COUNTRIES } from './country.js';
import { formatDay, heldValueText } from './held-value.js';

const dominican = COUNTRIES.do;
const mexican = COUNTRIES.mx;

describe('heldValueText', () => {
  it('says a calendar day in words, with no time zone shift', () => {
    expect(heldValueText('1990-02-03', dominican)).toBe('3 de febrero de 1990');
    expect(formatDay('2026-12-07', 'es-MX', 'short')).toBe('7 dic 2026');
  });

  it("says an instant as the day and hour where the person is, from ISO or PostgreSQL's text", () => {
    // 03:30 UTC is still the evening before in Santo Domingo (UTC-4) and in Mexico City (UTC-6).
    expect(heldValueText('2026-03-02T03:30:00.000Z', dominican)).toMatch(/^1 de marzo de 2026.*11:30/);
    expect(heldValueText('2026-03-02 03:30:00+00', mexican)).toMatch(/^1 de marzo de 2026.*9:30/);
  });

  it('reads empties as a dash, booleans as Sí/No, lists joined and nested fields by name', () => {
    expect([null, undefined, '', []].map((value) => heldValueText(value, dominican))).toEqual(['—', '—', '—', '—']);
    expect(heldValueText(true, dominican)).toBe('Sí');
    expect(heldValueText(['Colmado', 'Farmacia'], dominican)).toBe('Colmado, Farmacia');
    expect(heldValueText({ enviados: 3, ultimo: '2026-01-05' }, dominican)).toBe(
      'enviados: 3; ultimo: 5 de enero de 2026',
    );
    // Text that only looks like a date in part stays as written.
    expect(heldValueText('Calle 2026-01-05', dominican)).toBe('Calle 2026-01-05');
  });
});
