import { describe, expect, it } from 'vitest';
import { COUNTRIES } from '../country.js';
import { cedulaCheckDigit } from './cedula.js';
import { birthYearOptions, dayOptions, ageOn } from './dates.js';
import { aboutYouErrors, addressErrors, businessErrors, taxIdError } from './forms.js';

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
    expect(aboutYouErrors({ name: '', lastname: '', maternal_lastname: '', day: '', month: '', year: '', length_of_residency_in_years: '', marital_status: '' })).toEqual({
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
    expect(aboutYouErrors({ ...aboutYou, day: '29', year: '2001' }).day).toBe('* La fecha de nacimiento no existe, revísala.');
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
});

describe('tax id rule per country', () => {
  it('do: required, 13 characters, check digit', () => {
    const ten = '4020000000';
    const good = `${ten.slice(0, 3)}-${ten.slice(3)}-${cedulaCheckDigit(ten)}`;
    expect(taxIdError(COUNTRIES.do, '')).toBe('* Ingresa el Cédula / RNC !');
    expect(taxIdError(COUNTRIES.do, '402-000')).toBe('* El Cédula / RNC debe tener 13 caracteres.');
    expect(taxIdError(COUNTRIES.do, good)).toBeUndefined();
    expect(taxIdError(COUNTRIES.do, `${good.slice(0, -1)}${(cedulaCheckDigit(ten) + 1) % 10}`)).toBe('* El Cédula / RNC no es válido, revísalo.');
  });

  it('mx: the RFC check digit', () => {
    expect(taxIdError(COUNTRIES.mx, 'BAFJ701213SBA')).toBeUndefined();
    expect(taxIdError(COUNTRIES.mx, 'BAFJ701213SB1')).toBe('* El RFC no es válido, revísalo.');
  });
});

describe('address rules', () => {
  const address = { zip_code: '00000', state: 'Distrito Nacional', city: 'Santo Domingo de Guzmán', neighborhood: 'Mata Hambre', street_name: 'Calle 1', street_number: '5', apartment_number: '' };

  it('do uses the fixed zip code; mx needs five digits', () => {
    expect(addressErrors(COUNTRIES.do, address)).toEqual({});
    expect(addressErrors(COUNTRIES.mx, { ...address, zip_code: '' }).zip_code).toBe('* Ingresa un código postal !');
    expect(addressErrors(COUNTRIES.mx, { ...address, zip_code: '5501' }).zip_code).toBe('* El código postal tiene 5 dígitos.');
    expect(addressErrors(COUNTRIES.mx, { ...address, zip_code: '55010' })).toEqual({});
  });

  it("the street may not contain '&'", () => {
    expect(addressErrors(COUNTRIES.do, { ...address, street_name: 'Calle 1 & 2' }).street_name).toBe('* La calle no puede contener el carácter &.');
  });

  it("a typed sector ('Mi sector no aparece') follows the street's rules", () => {
    const typed = { ...address, neighborhood_typed: true };
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'Villa Nueva del Sur' })).toEqual({});
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: '   ' }).neighborhood).toBe('* Ingresa el sector !');
    expect(addressErrors(COUNTRIES.mx, { ...typed, zip_code: '55010', neighborhood: '' }).neighborhood).toBe('* Ingresa la colonia !');
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'Los Ríos & Co' }).neighborhood).toBe('* El sector no puede contener el carácter &.');
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'x'.repeat(81) }).neighborhood).toBe('* Máximo 80 caracteres.');
    expect(addressErrors(COUNTRIES.do, { ...typed, neighborhood: 'x'.repeat(80) })).toEqual({});
    // Chosen from the list, only presence is checked (the catalogue decides the rest).
    expect(addressErrors(COUNTRIES.do, { ...address, neighborhood: '' }).neighborhood).toBe('* Selecciona la colonia !');
  });
});

describe('business rules', () => {
  const types = ['Colmado', 'Otros'];
  const business = { name: "Colmado Don José's", business_age: '2', business_type: 'Colmado', business_type_other: '', sales_average_range_id: '7' };

  it('accepts a complete business', () => {
    expect(businessErrors(business, types)).toEqual({});
  });

  it("'Otros' needs a description; the type must be one of the catalogue", () => {
    expect(businessErrors({ ...business, business_type: 'Otros' }, types).business_type_other).toBe('* Escribe a qué se dedica tu negocio !');
    expect(businessErrors({ ...business, business_type: 'Casino' }, types).business_type).toBe('* Selecciona el giro de tu negocio !');
  });

  it('the name takes letters, numbers and simple punctuation only', () => {
    expect(businessErrors({ ...business, name: 'Colmado <script>' }, types).name).toBe("* El nombre solo acepta letras, números, espacios y . , - ' &");
    expect(businessErrors({ ...business, name: 'x'.repeat(61) }, types).name).toBe('* Máximo 60 caracteres.');
  });
});
