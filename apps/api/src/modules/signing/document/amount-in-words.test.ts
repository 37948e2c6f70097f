import { describe, expect, it } from 'vitest';
import { amountInWords } from './amount-in-words.js';

describe('amountInWords', () => {
  it.each([
    [0, 'cero'],
    [1, 'un'],
    [16, 'dieciséis'],
    [21, 'veintiún'],
    [31, 'treinta y un'],
    [100, 'cien'],
    [101, 'ciento un'],
    [1000, 'mil'],
    [1001, 'mil un'],
    [21_000, 'veintiún mil'],
    [25_000, 'veinticinco mil'],
    [100_000, 'cien mil'],
    [101_000, 'ciento un mil'],
    [999_999, 'novecientos noventa y nueve mil novecientos noventa y nueve'],
    [1_000_000, 'un millón de'],
    [1_000_100, 'un millón cien'],
    [2_500_000, 'dos millones quinientos mil'],
    [21_000_000, 'veintiún millones de'],
  ])('%i pesos → "%s pesos"', (n, words) => {
    expect(amountInWords(n)).toBe(words);
  });

  it('without a noun after it, one is "uno"', () => {
    expect(amountInWords(21, false)).toBe('veintiuno');
    expect(amountInWords(2_000_000, false)).toBe('dos millones');
  });

  it('refuses what is not a whole amount', () => {
    for (const n of [-1, 1.5, Number.NaN, 1e12]) expect(() => amountInWords(n)).toThrow(RangeError);
  });
});
