import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidName, nameError } from './names.js';

const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzñáéíóúüABCDEFGHIJKLMNÑÁÉÍÓÚ'.split(''));
const word = fc.array(letter, { minLength: 2, maxLength: 8 }).map((letters) => letters.join(''));

describe('name rules (SPEC §5)', () => {
  it('accepts words of two or more letters (accents, ñ) separated by single spaces', () => {
    fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), (words) => isValidName(words.join(' '))));
    expect(isValidName('María José')).toBe(true);
    expect(isValidName('Peña')).toBe(true);
  });

  it('refuses digits, symbols, one-letter words and double spaces', () => {
    fc.assert(
      fc.property(word, fc.constantFrom('1', '-', '.', "'", '_'), word, (a, bad, b) => !isValidName(`${a}${bad}${b}`)),
    );
    fc.assert(
      fc.property(
        word,
        word,
        (a, b) => !isValidName(`${a}  ${b}`) && !isValidName(` ${a}`) && !isValidName(`${a} ${b} `),
      ),
    );
    expect(isValidName('Juan P')).toBe(false);
  });

  it('gives the SPEC messages per field', () => {
    expect(nameError('name', '')).toBe('* Ingresa los nombres !');
    expect(nameError('lastname', '')).toBe('* Ingresa el apellido paterno !');
    expect(nameError('maternal_lastname', '')).toBeUndefined();
    expect(nameError('name', 'Juan2')).toBe('* El formato del nombre es inválido, solo se aceptan letras y espacios');
    expect(nameError('lastname', 'Pérez-Gómez')).toBe(
      '* El formato del apellido paterno es inválido, solo se aceptan letras.',
    );
    expect(nameError('maternal_lastname', 'G.')).toBe(
      '* El formato del apellido materno es inválido, solo se aceptan letras.',
    );
    expect(nameError('name', 'a'.repeat(31))).toBe('* Máximo 30 caracteres.');
    expect(nameError('lastname', 'a'.repeat(26))).toBe('* Máximo 25 caracteres.');
  });
});
