import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cedulaCheckDigit, formatCedula, isValidCedula } from './cedula.js';

const tenDigits = fc.stringMatching(/^\d{10}$/);

describe('cédula check digit (JCE)', () => {
  it('a number completed with its check digit is valid, with or without dashes', () => {
    fc.assert(
      fc.property(tenDigits, (ten) => {
        const cedula = `${ten}${cedulaCheckDigit(ten)}`;
        return isValidCedula(cedula) && isValidCedula(formatCedula(cedula));
      }),
    );
  });

  it('any other last digit is refused', () => {
    fc.assert(
      fc.property(tenDigits, fc.integer({ min: 1, max: 9 }), (ten, shift) => {
        const wrong = (cedulaCheckDigit(ten) + shift) % 10;
        return !isValidCedula(`${ten}${wrong}`);
      }),
    );
  });

  it('changing any one digit of the first ten is caught', () => {
    fc.assert(
      fc.property(tenDigits, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 9 }), (ten, index, shift) => {
        const cedula = `${ten}${cedulaCheckDigit(ten)}`;
        const altered = cedula.slice(0, index) + ((Number(cedula[index]) + shift) % 10) + cedula.slice(index + 1);
        return !isValidCedula(altered);
      }),
    );
  });

  it('worked example: 001-0000001 takes 7', () => {
    // Weights 1,2,1,2…: the 3rd digit counts 1×1, the 10th 1×2; sum 3 → (10 − 3) mod 10 = 7.
    expect(cedulaCheckDigit('0010000001')).toBe(7);
    expect(isValidCedula('001-0000001-7')).toBe(true);
    // A product of two digits counts its digits: 9×2 = 18 → 9.
    expect(cedulaCheckDigit('0000000009')).toBe(1);
  });

  it('formats as it is typed: 3-7-1, digits only, 13 characters at most', () => {
    expect(formatCedula('0011')).toBe('001-1');
    expect(formatCedula('00112345678999')).toBe('001-1234567-8');
    fc.assert(
      fc.property(fc.string(), (value) => formatCedula(value).length <= 13 && /^[\d-]*$/.test(formatCedula(value))),
    );
  });
});
