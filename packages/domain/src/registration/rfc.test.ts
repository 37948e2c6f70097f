import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { birthDateOfRfc, cleanRfc, generateRfc, isValidRfc, rfcBase, rfcHasBirthDate, rfcHomonymy } from './rfc.js';

describe('RFC (SAT algorithm), against published examples', () => {
  it('Juan Barrios Fernández, 13 Dec 1970 → BAFJ701213SBA', () => {
    expect(generateRfc({ name: 'Juan', lastname: 'Barrios', maternalLastname: 'Fernández', dob: '1970-12-13' })).toBe(
      'BAFJ701213SBA',
    );
  });

  it('José Ramiro Gutiérrez Hernández, 15 Jul 1989 → GUHR890715G54', () => {
    expect(
      generateRfc({ name: 'Jose Ramiro', lastname: 'Gutierrez', maternalLastname: 'Hernández', dob: '1989-07-15' }),
    ).toBe('GUHR890715G54');
  });

  it.each([
    ['Juan', 'Perez', 'Garcia', 'LN'],
    ['Juan', 'Pérez', 'García', 'LN'],
    ['Jose Antonio', 'Del real', 'Anzures', 'N9'],
    ['Juan', 'Muñoz', 'Ortega', 'T6'],
    ['Juan', 'Muñoz', 'Muñoz', 'RZ'],
    ['Jesus', 'Argüelles', 'Ortega', 'JF'],
    ['Juan', 'Perez&Gomez', 'Garcia', '2R'],
  ])('homonymy key of %s %s %s is %s', (name, lastname, maternalLastname, key) => {
    expect(rfcHomonymy({ name, lastname, maternalLastname })).toBe(key);
  });

  it('the first ten characters: the published simple cases and the special rules', () => {
    expect(rfcBase({ name: 'Juan', lastname: 'Barrios', maternalLastname: 'Fernandez', dob: '2001-12-01' })).toBe(
      'BAFJ011201',
    );
    // Particles are left out; María and José give way to the second name.
    expect(
      rfcBase({ name: 'Maria Luisa', lastname: 'de la Torre', maternalLastname: 'Mendoza', dob: '1980-01-02' }),
    ).toBe('TOML800102');
    // No maternal surname: two letters of the paternal one and two of the name.
    expect(rfcBase({ name: 'Juan', lastname: 'Martinez', dob: '1970-12-13' })).toBe('MAJU701213');
    // A paternal surname of two letters: its initial, the maternal initial, two letters of the name.
    expect(rfcBase({ name: 'Alvaro', lastname: 'Ek', maternalLastname: 'Sanchez', dob: '1970-12-13' })).toBe(
      'ESAL701213',
    );
    // A word the SAT does not issue ends in X.
    expect(rfcBase({ name: 'Oscar', lastname: 'Pedraza', maternalLastname: 'Dominguez', dob: '1990-05-05' })).toBe(
      'PEDX900505',
    );
  });
});

describe('RFC properties', () => {
  const word = fc.stringMatching(/^[A-Z][a-z]{2,9}$/);
  const date = fc
    .date({ min: new Date('1940-01-01'), max: new Date('2007-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  it('every generated RFC is 13 characters, valid, and encodes the birth date', () => {
    fc.assert(
      fc.property(word, word, word, date, (name, lastname, maternalLastname, dob) => {
        const rfc = generateRfc({ name, lastname, maternalLastname, dob });
        return rfc.length === 13 && isValidRfc(rfc) && rfc.slice(4, 10) === dob.slice(2).replace(/-/g, '');
      }),
    );
  });

  it('any other 13th character is refused', () => {
    fc.assert(
      fc.property(
        word,
        word,
        word,
        date,
        fc.constantFrom(...'0123456789A'.split('')),
        (name, lastname, maternalLastname, dob, other) => {
          const rfc = generateRfc({ name, lastname, maternalLastname, dob });
          return other === rfc[12] || !isValidRfc(rfc.slice(0, 12) + other);
        },
      ),
    );
  });

  it('cleaning keeps only what an RFC can hold', () => {
    fc.assert(fc.property(fc.string(), (value) => /^[A-Z0-9Ñ&]{0,13}$/.test(cleanRfc(value))));
    expect(cleanRfc('bafj-701213 sba')).toBe('BAFJ701213SBA');
  });
});

describe('an RFC and a birth date', () => {
  it('a generated RFC carries its birth date, and not the day after', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1940-01-01'), max: new Date('2007-12-30'), noInvalidDate: true }),
        (date) => {
          const dob = date.toISOString().slice(0, 10);
          const next = new Date(date.getTime() + 86_400_000).toISOString().slice(0, 10);
          const rfc = generateRfc({ name: 'Ana', lastname: 'Peña', maternalLastname: 'Ruiz', dob });
          return rfcHasBirthDate(rfc, dob) && !rfcHasBirthDate(rfc, next);
        },
      ),
    );
  });
});

describe('the birth date an RFC carries', () => {
  it.each([
    ['BAFJ701213SBA', '1970-12-13'],
    ['XAXX080101000', '2008-01-01'], // 18 on 2026-01-01: of age
    ['XAXX270101000', '1927-01-01'], // 2027 is to come: the century before, 99 years old
    ['XAXX000229000', '2000-02-29'],
  ])('%s → %s (on 2026-11-25)', (rfc, date) => {
    expect(birthDateOfRfc(rfc, '2026-11-25')).toBe(date);
  });

  it('a minor’s RFC carries none: 2008-11-30 is 17 on 2026-11-25, and 1908 would be 118', () => {
    expect(birthDateOfRfc('XAXX081130000', '2026-11-25')).toBeUndefined();
    expect(birthDateOfRfc('XAXX081130000', '2026-11-30')).toBe('2008-11-30');
  });

  it('six digits that are not a date, or no RFC at all, carry none', () => {
    expect(birthDateOfRfc('XAXX801301000', '2026-11-25')).toBeUndefined();
    expect(birthDateOfRfc('XAXX010229000', '2026-11-25')).toBeUndefined();
    expect(birthDateOfRfc('12345', '2026-11-25')).toBeUndefined();
  });
});
