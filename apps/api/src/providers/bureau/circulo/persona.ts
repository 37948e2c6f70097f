import type { CirculoState } from './states.js';

/** Who Círculo is asked about, in our words; `personaPeticion` turns it into Círculo's. */
export interface CirculoSubject {
  /** All given names ('María José'). */
  givenNames: string;
  paternalSurname: string;
  /** null: the person has one surname. */
  maternalSurname: string | null;
  /** 'yyyy-MM-dd'. */
  birthDate: string;
  rfc: string | null;
  address: {
    street: string;
    neighborhood: string | null;
    municipality: string;
    city: string;
    state: CirculoState;
    /** Five digits, belonging to `state` (checked against the address catalogue before the call). */
    postcode: string;
  };
}

/** RCC's `PersonaPeticion` (rcc-ficoscore-client-java `model/PersonaPeticion.java`, lengths from the PHP client). */
export interface PersonaPeticion {
  apellidoPaterno: string;
  apellidoMaterno: string;
  primerNombre: string;
  segundoNombre?: string;
  fechaNacimiento: string;
  RFC?: string;
  nacionalidad: 'MX';
  domicilio: {
    direccion: string;
    coloniaPoblacion?: string;
    delegacionMunicipio: string;
    ciudad: string;
    estado: CirculoState;
    CP: string;
  };
}

/**
 * Text as Círculo's consumer files hold it: upper case, without accents (Ñ → N, Ü → U) and
 * without the punctuation its sandbox document asks to leave out (, ` - / ; : ! ? \), spaces
 * collapsed, cut to the field's length.
 */
export function circuloText(value: string, maxLength: number): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[,`\-/;:!?\\]/g, ' ')
    .replace(/[^A-Z0-9 .#&']/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxLength)
    .trim();
}

/**
 * The request body for a subject. `missingSurname` is what is sent for a person with one surname:
 * Círculo requires `apellidoMaterno` and its public sources name no value for its absence
 * (decision 028; configured as CIRCULO_MISSING_SURNAME).
 */
export function personaPeticion(subject: CirculoSubject, options: { missingSurname: string }): PersonaPeticion {
  const [first = '', ...rest] = circuloText(subject.givenNames, 101).split(' ');
  // Within the NIP audit's limits too (names 2–30 characters), so the audit can send the person as asked.
  const second = circuloText(rest.join(' '), 30);
  const maternal = subject.maternalSurname ? circuloText(subject.maternalSurname, 30) : '';
  const { address } = subject;
  const neighborhood = address.neighborhood ? circuloText(address.neighborhood, 65) : '';
  return {
    apellidoPaterno: circuloText(subject.paternalSurname, 30),
    apellidoMaterno: maternal || circuloText(options.missingSurname, 30),
    primerNombre: first.slice(0, 30),
    ...(second.length >= 2 ? { segundoNombre: second } : {}),
    fechaNacimiento: subject.birthDate,
    ...(subject.rfc ? { RFC: subject.rfc.toUpperCase() } : {}),
    nacionalidad: 'MX',
    domicilio: {
      direccion: streetWithNumber(address.street),
      ...(neighborhood ? { coloniaPoblacion: neighborhood } : {}),
      delegacionMunicipio: circuloText(address.municipality, 65),
      ciudad: circuloText(address.city, 65),
      estado: address.state,
      CP: address.postcode,
    },
  };
}

/**
 * Círculo refuses a `direccion` of fewer than two words: a street without a number is sent 'SN'
 * (sin número). 80 characters: the NIP audit's `calleNumero` limit (the report's is 85).
 */
function streetWithNumber(street: string): string {
  const text = circuloText(street, 80);
  return text.includes(' ') ? text : circuloText(`${text} SN`, 80);
}
