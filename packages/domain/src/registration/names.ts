import { NAME_MAX_LENGTH, SURNAME_MAX_LENGTH } from '../constants.js';

/** Words of at least two letters (accents, ñ and ü allowed) separated by single spaces. */
const NAME_PATTERN = /^[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]{2,}(?: [A-Za-zÁÉÍÓÚÜÑáéíóúüñ]{2,})*$/;

export function isValidName(value: string): boolean {
  return NAME_PATTERN.test(value);
}

export const NAME_MESSAGES = {
  nameRequired: '* Ingresa los nombres !',
  nameFormat: '* El formato del nombre es inválido, solo se aceptan letras y espacios',
  lastnameRequired: '* Ingresa el apellido paterno !',
  lastnameFormat: '* El formato del apellido paterno es inválido, solo se aceptan letras.',
  maternalFormat: '* El formato del apellido materno es inválido, solo se aceptan letras.',
  tooLong: (max: number) => `* Máximo ${max} caracteres.`,
} as const;

/** SPEC §5 rules for first names and surnames; the value is checked as sent (trimmed on blur). */
export function nameError(field: 'name' | 'lastname' | 'maternal_lastname', value: string): string | undefined {
  const max = field === 'name' ? NAME_MAX_LENGTH : SURNAME_MAX_LENGTH;
  if (value === '') {
    if (field === 'name') return NAME_MESSAGES.nameRequired;
    if (field === 'lastname') return NAME_MESSAGES.lastnameRequired;
    return undefined;
  }
  if (value.length > max) return NAME_MESSAGES.tooLong(max);
  if (!isValidName(value)) {
    if (field === 'name') return NAME_MESSAGES.nameFormat;
    if (field === 'lastname') return NAME_MESSAGES.lastnameFormat;
    return NAME_MESSAGES.maternalFormat;
  }
  return undefined;
}
