import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRIES } from '../country.js';
import { cedulaCheckDigit } from './cedula.js';
import { birthYearOptions, dayOptions, ageOn, isoDate, newestBirthDate, todayIn } from './dates.js';
import {
  aboutYouErrors,
  addressErrors,
  businessErrors,
  cleanTaxId,
  formatTaxId,
  hasUnsupportedCharacters,
  normalizeTaxId,
  taxIdError,
} from './forms.js';

const aboutYou = {
  name: 'María',
  lastname: 'Peña',
  maternal_lastname: '',
  day: '28',
  month: '2',
  year: '1985',
  length_of_residency_in_years: '4',
  marital_status: 'SINGLE',
};

describe('step 1 rules', () => {
  it('a complete form has no errors; the maternal surname is optional', () => {
    expect(aboutYouErrors(aboutYou)).toEqual({});
  });

  it('every required field has its SPEC message', () => {
    expect(
      aboutYouErrors({
        name: '',
        lastname: '',
        maternal_lastname: '',
        day: '',
        month: '',
        year: '',
        length_of_residency_in_years: '',
        marital_status: '',
      }),
    ).toEqual({
      name: '* Ingresa los nombres !',
      lastname: '* Ingresa el apellido paterno !',
      day: '* Ingresa tu día de nacimiento !',
      month: '* Ingresa tu mes de nacimiento !',
      year: '* Ingresa tu año de nacimiento !',
      length_of_residency_in_years: '* Selecciona el tiempo viviendo ahí !',
      marital_status: '* Selecciona su estado civil !',
    });
  });

  it('February offers 29 days, but 29 February of a common year does not exist', () => {
    expect(dayOptions(2)).toBe(29);
    expect(dayOptions(4)).toBe(30);
    expect(aboutYouErrors({ ...aboutYou, day: '29', year: '2001' }).day).toBe(
      '* La fecha de nacimiento no existe, revísala.',
    );
    expect(aboutYouErrors({ ...aboutYou, day: '29', year: '2000' })).toEqual({});
  });

  it('82 birth years counting back from this year minus 18', () => {
    const years = birthYearOptions(2026);
    expect(years).toHaveLength(82);
    expect(years[0]).toBe(2008);
    expect(years.at(-1)).toBe(1927);
  });

  it('age counts completed years on the exact date', () => {
    expect(ageOn('2008-11-21', '2026-11-21')).toBe(18);
    expect(ageOn('2008-11-22', '2026-11-21')).toBe(17);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
  });

  it('a date under 18 on the day says so before any call (issue 8: a 17-year-old ended on /rejected)', () => {
    expect(aboutYouErrors({ ...aboutYou, day: '22', month: '11', year: '2008' }, '2026-11-21').day).toBe(
      'Debes tener al menos 18 años',
    );
    expect(aboutYouErrors({ ...aboutYou, day: '21', month: '11', year: '2008' }, '2026-11-21')).toEqual({});
  });

  it('today is the country’s day, not the browser’s', () => {
    expect(todayIn('America/Santo_Domingo', new Date('2026-11-22T02:00:00Z'))).toBe('2026-11-21');
    expect(todayIn('America/Mexico_City', new Date('2026-11-22T07:00:00Z'))).toBe('2026-11-22');
  });

  it('the newest birth date offered is exactly 18 years on the day', () => {
    expect(newestBirthDate('2026-11-21')).toEqual({ year: 2008, month: 11, day: 21 });
    expect(newestBirthDate('2025-02-28')).toEqual({ year: 2007, month: 2, day: 28 });
    fc.assert(
      fc.property(fc.date({ min: new Date('2001-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), (now) => {
        const today = now.toISOString().slice(0, 10);
        const { year, month, day } = newestBirthDate(today);
        const newest = isoDate(year, month, day)!;
        const nextDay = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
        return ageOn(newest, today) === 18 && ageOn(nextDay, today) === 17;
      }),
    );
  });
});

describe('tax id rule per country', () => {
  it('do: required, 13 characters, check digit', () => {
    const ten = '4020000000';
    const good = `${ten.slice(0, 3)}-${ten.slice(3)}-${cedulaCheckDigit(ten)}`;
    expect(taxIdError(COUNTRIES.do, '')).toBe('* Ingresa la Cédula / RNC !');
    expect(taxIdError(COUNTRIES.do, '402-000')).toBe('* La cédula debe tener 13 caracteres.');
    expect(taxIdError(COUNTRIES.do, good)).toBeUndefined();
    expect(taxIdError(COUNTRIES.do, `${good.slice(0, -1)}${(cedulaCheckDigit(ten) + 1) % 10}`)).toBe(
      '* La cédula no es válida, revísala.',
    );
  });

  it('do: what is typed keeps letters, upper-cased, so the message can name them (issue 27)', () => {
    expect(cleanTaxId(COUNTRIES.do, ' 001.1234567/8 ')).toBe('001-1234567-8');
    expect(cleanTaxId(COUNTRIES.do, '001-12345a6')).toBe('001-12345A6');
    expect(cleanTaxId(COUNTRIES.do, '0011234567899999')).toBe('001-1234567-8');
    expect(taxIdError(COUNTRIES.do, '001-12345A6')).toBe('* La cédula o RNC solo lleva números.');
    expect(taxIdError(COUNTRIES.do, 'A')).toBe('* La cédula o RNC solo lleva números.');
    fc.assert(
      fc.property(fc.string(), (typed) => {
        const kept = cleanTaxId(COUNTRIES.do, typed);
        // Never longer than the field, only upper-case letters, digits and the dashes it places.
        return kept.length <= 13 && /^[0-9A-ZÑ-]*$/.test(kept) && cleanTaxId(COUNTRIES.do, kept) === kept;
      }),
    );
  });

  it('mx: required, 13 characters, the RFC check digit, with the masculine article', () => {
    expect(taxIdError(COUNTRIES.mx, '')).toBe('* Ingresa el RFC !');
    expect(taxIdError(COUNTRIES.mx, 'BAFJ70')).toBe('* El RFC debe tener 13 caracteres.');
    expect(taxIdError(COUNTRIES.mx, 'BAFJ701213SBA')).toBeUndefined();
    expect(taxIdError(COUNTRIES.mx, 'BAFJ701213SB1')).toBe('* El RFC no es válido, revísalo.');
  });
});

describe('address rules', () => {
  const address = {
    zip_code: '00000',
    state: 'Distrito Nacional',
    city: 'Santo Domingo de Guzmán',
    neighborhood: 'Mata Hambre',
    street_name: 'Calle 1',
    street_number: '5',
    apartment_number: '',
  };

  it('do uses the fixed zip code; mx needs five digits', () => {
    expect(addressErrors(COUNTRIES.do, address)).toEqual({});
    expect(addressErrors(COUNTRIES.mx, { ...address, zip_code: '' }).zip_code).toBe('* Ingresa un código postal !');
    expect(addressErrors(COUNTRIES.mx, { ...address, zip_code: '5501' }).zip_code).toBe(
      '* El código postal tiene 5 dígitos.',
    );
    expect(addressErrors(COUNTRIES.mx, { ...address, zip_code: '55010' })).toEqual({});
  });

  it("the street may not contain '&'", () => {
    expect(addressErrors(COUNTRIES.do, { ...address, street_name: 'Calle 1 & 2' }).street_name).toBe(
      '* La calle no puede contener el carácter &.',
    );
  });

  it("a typed sector ('Mi sector no aparece') follows the street's rules", () => {
    const typed = { ...address, neighborhood_typed: true };
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'Villa Nueva del Sur' })).toEqual({});
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: '   ' }).neighborhood).toBe('* Ingresa el sector !');
    expect(addressErrors(COUNTRIES.mx, { ...typed, zip_code: '55010', neighborhood: '' }).neighborhood).toBe(
      '* Ingresa la colonia !',
    );
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'Los Ríos & Co' }).neighborhood).toBe(
      '* El sector no puede contener el carácter &.',
    );
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'x'.repeat(81) }).neighborhood).toBe(
      '* Máximo 80 caracteres.',
    );
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'x'.repeat(80) })).toEqual({});
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'Villa 🏠' }).neighborhood).toBe(
      '* No uses emojis ni caracteres especiales.',
    );
    // Chosen from the list, only presence is checked (the catalogue decides the rest).
    expect(addressErrors(COUNTRIES.do, { ...address, neighborhood: '' }).neighborhood).toBe('* Selecciona el sector !');
  });

  it('mx keeps the SPEC texts; do names the Provincia and the Sector its screen shows', () => {
    const empty = { ...address, state: '', city: '', neighborhood: '', street_name: '', street_number: '' };
    expect(addressErrors(COUNTRIES.mx, { ...empty, zip_code: '' })).toEqual({
      zip_code: '* Ingresa un código postal !',
      state: '* Ingresa el estado !',
      city: '* Selecciona el municipio !',
      neighborhood: '* Selecciona la colonia !',
      street_name: '* Ingresa la calle !',
      street_number: '* Ingresa el número exterior !',
    });
    expect(addressErrors(COUNTRIES.do, empty)).toEqual({
      state: '* Ingresa la provincia !',
      city: '* Selecciona el municipio !',
      neighborhood: '* Selecciona el sector !',
      street_name: '* Ingresa la calle !',
      street_number: '* Ingresa el número exterior !',
    });
  });

  it('emoji and control characters are refused in the street and both numbers', () => {
    const refused = '* No uses emojis ni caracteres especiales.';
    expect(addressErrors(COUNTRIES.do, { ...address, street_name: 'Calle 🏠 1' }).street_name).toBe(refused);
    expect(addressErrors(COUNTRIES.do, { ...address, street_number: '5\u0007' }).street_number).toBe(refused);
    expect(addressErrors(COUNTRIES.do, { ...address, apartment_number: '👍' }).apartment_number).toBe(refused);
    expect(
      addressErrors(COUNTRIES.do, {
        ...address,
        street_name: 'Av. 27 de Febrero #12, Ens. Naco',
        street_number: 'Km 9½',
        apartment_number: 'B-2',
      }),
    ).toEqual({});
  });
});

/** Emoji (pictographs, flags, keycaps, skin tones), control and invisible characters. */
const unsupported = fc.constantFrom(
  '😀',
  '🏪',
  '👍🏽',
  '🇩🇴',
  '1️⃣',
  '❤️',
  '\u0000',
  '\u0007',
  '\n',
  '\t',
  '\u007f',
  '\u200b',
  '\u200d',
  '\u202e',
  '\ue000',
);
const withUnsupported = fc
  .tuple(fc.string({ maxLength: 8 }), unsupported, fc.string({ maxLength: 8 }))
  .map(([before, bad, after]) => `Ab${before}${bad}${after}Cd`);

describe('emoji and control characters (property)', () => {
  it('any text holding one is refused in names, street, numbers and business names', () => {
    fc.assert(
      fc.property(withUnsupported, (value) => {
        expect(hasUnsupportedCharacters(value)).toBe(true);
        expect(aboutYouErrors({ ...aboutYou, name: value, lastname: value, maternal_lastname: value })).toMatchObject({
          name: expect.any(String),
          lastname: expect.any(String),
          maternal_lastname: expect.any(String),
        });
        const address = {
          zip_code: '00000',
          state: 'a',
          city: 'b',
          neighborhood: 'c',
          street_name: value,
          street_number: value,
          apartment_number: value,
        };
        expect(Object.keys(addressErrors(COUNTRIES.do, address))).toEqual([
          'street_name',
          'street_number',
          'apartment_number',
        ]);
        const named = businessErrors(
          {
            name: value.slice(0, 60),
            business_age: '2',
            business_type: 'Otros',
            business_type_other: value.slice(0, 40),
            sales_average_range_id: '7',
          },
          ['Otros'],
        );
        expect(Object.keys(named)).toEqual(['name', 'business_type_other']);
      }),
    );
  });

  it('what shop signs use is never taken for one, and makes a valid business name', () => {
    const sign = fc.stringMatching(/^[A-Za-z0-9ÁÉÍÓÚÜÑáéíóúüñ][A-Za-z0-9ÁÉÍÓÚÜÑáéíóúüñ .,'"’“”&#/-]{0,38}$/);
    fc.assert(
      fc.property(sign, (value) => {
        expect(hasUnsupportedCharacters(value)).toBe(false);
        expect(
          businessErrors(
            {
              name: value,
              business_age: '2',
              business_type: 'Otros',
              business_type_other: value,
              sales_average_range_id: '7',
            },
            ['Otros'],
          ),
        ).toEqual({});
      }),
    );
  });
});

describe('business rules', () => {
  const types = ['Colmado', 'Otros'];
  const business = {
    name: "Colmado Don José's",
    business_age: '2',
    business_type: 'Colmado',
    business_type_other: '',
    sales_average_range_id: '7',
  };

  it('accepts a complete business', () => {
    expect(businessErrors(business, types)).toEqual({});
  });

  it("'Otros' needs a description; the type must be one of the catalogue", () => {
    expect(businessErrors({ ...business, business_type: 'Otros' }, types).business_type_other).toBe(
      '* Escribe a qué se dedica tu negocio !',
    );
    expect(businessErrors({ ...business, business_type: 'Casino' }, types).business_type).toBe(
      '* Selecciona el giro de tu negocio !',
    );
  });

  it('the name takes what shop signs use: digits, #, quotes, &, . , - / and accents', () => {
    for (const name of [
      'Colmado #2',
      'Colmado "La Bendición"',
      'Tienda “El Güero”',
      'D’Óscar & Hijos',
      "Abarrotes Doña Mary's",
      '24/7 Minisúper',
      'Farmacia Núm. 3, S.A.',
      '"El Rey"',
      '7-Eleven',
    ]) {
      expect(businessErrors({ ...business, name }, types), name).toEqual({});
    }
  });

  it('the name refuses other symbols, and emoji with their own message', () => {
    expect(businessErrors({ ...business, name: 'Colmado <script>' }, types).name).toBe(
      '* El nombre solo acepta letras, números, espacios y . , - / # & \' "',
    );
    expect(businessErrors({ ...business, name: '***' }, types).name).toBe(
      '* El nombre solo acepta letras, números, espacios y . , - / # & \' "',
    );
    expect(businessErrors({ ...business, name: '"##"' }, types).name).toBe(
      '* El nombre solo acepta letras, números, espacios y . , - / # & \' "',
    );
    expect(businessErrors({ ...business, name: 'Colmado 🛒' }, types).name).toBe(
      '* No uses emojis ni caracteres especiales.',
    );
    expect(businessErrors({ ...business, name: 'Colmado\u200bLuz' }, types).name).toBe(
      '* No uses emojis ni caracteres especiales.',
    );
    expect(businessErrors({ ...business, name: 'x'.repeat(61) }, types).name).toBe('* Máximo 60 caracteres.');
  });
});

describe('one tax id: as stored and as shown', () => {
  const cedula = fc.stringMatching(/^\d{10}$/).map((ten) => `${ten}${cedulaCheckDigit(ten)}`);

  it('do: the cédula is stored as its 11 digits and shown dashed 3-7-1, whatever way it was written', () => {
    expect(normalizeTaxId(COUNTRIES.do, ' 001.1234567/8 ')).toBe('00112345678');
    expect(formatTaxId(COUNTRIES.do, '00112345678')).toBe('001-1234567-8');
    fc.assert(
      fc.property(cedula, (digits) => {
        const shown = formatTaxId(COUNTRIES.do, digits);
        return (
          shown === `${digits.slice(0, 3)}-${digits.slice(3, 10)}-${digits.slice(10)}` &&
          normalizeTaxId(COUNTRIES.do, shown) === digits &&
          // What the field keeps, once taxIdError accepts it, is stored the same way.
          taxIdError(COUNTRIES.do, cleanTaxId(COUNTRIES.do, digits)) === undefined &&
          normalizeTaxId(COUNTRIES.do, cleanTaxId(COUNTRIES.do, digits)) === digits
        );
      }),
    );
  });

  it('mx: the RFC is stored and shown upper-cased, without spaces or dashes', () => {
    expect(normalizeTaxId(COUNTRIES.mx, ' peaj-850228-aa1 ')).toBe('PEAJ850228AA1');
    expect(formatTaxId(COUNTRIES.mx, 'PEAJ850228AA1')).toBe('PEAJ850228AA1');
  });

  it('normalising is idempotent and showing then normalising gives the stored value back, in both countries', () => {
    for (const country of [COUNTRIES.do, COUNTRIES.mx]) {
      fc.assert(
        fc.property(fc.string(), (typed) => {
          const stored = normalizeTaxId(country, typed);
          return (
            normalizeTaxId(country, stored) === stored &&
            normalizeTaxId(country, formatTaxId(country, stored)) === stored &&
            !stored.includes('-')
          );
        }),
      );
    }
  });
});
