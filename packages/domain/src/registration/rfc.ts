import { MIN_AGE_YEARS } from '../constants.js';
import { ageOn, isoDate } from './dates.js';

/**
 * Mexican RFC of a natural person (persona física), 13 characters, following the SAT algorithm:
 * four letters from the names, the birth date YYMMDD, two homonymy characters and a check digit.
 */

/** Particles left out of the four letters (not out of the homonymy key). */
const PARTICLES = new Set([
  'DA',
  'DAS',
  'DE',
  'DEL',
  'DER',
  'DI',
  'DIE',
  'DD',
  'EL',
  'LA',
  'LAS',
  'LE',
  'LES',
  'LOS',
  'MAC',
  'MC',
  'VAN',
  'VON',
  'Y',
]);
/** A first name that is this common gives way to the second name. */
const COMMON_FIRST_NAMES = new Set(['JOSE', 'J', 'MARIA', 'MA']);
/** Four-letter words the SAT does not issue: the last letter becomes X. */
const INCONVENIENT = new Set([
  'BUEI',
  'BUEY',
  'CACA',
  'CACO',
  'CAGA',
  'CAGO',
  'CAKA',
  'CAKO',
  'COGE',
  'COJA',
  'COJE',
  'COJI',
  'COJO',
  'CULO',
  'FETO',
  'GUEY',
  'JOTO',
  'KACA',
  'KACO',
  'KAGA',
  'KAGO',
  'KOGE',
  'KOJO',
  'KAKA',
  'KULO',
  'MAME',
  'MAMO',
  'MEAR',
  'MEAS',
  'MEON',
  'MION',
  'MOCO',
  'MULA',
  'PEDA',
  'PEDO',
  'PENE',
  'PUTA',
  'PUTO',
  'QULO',
  'RATA',
  'RUIN',
]);

/** Upper case, accents off (Ñ kept), no punctuation, single spaces. */
function normalize(value: string): string {
  return value
    .toUpperCase()
    .normalize('NFD')
    .replace(/N\u0303/g, 'Ñ')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[.,'-]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function withoutParticles(value: string): string[] {
  const words = normalize(value).split(' ').filter(Boolean);
  const kept = words.filter((word) => !PARTICLES.has(word));
  return kept.length > 0 ? kept : words;
}

function firstInnerVowel(word: string): string {
  return /[AEIOU]/.exec(word.slice(1))?.[0] ?? 'X';
}

/** The first ten characters: four letters and YYMMDD. */
export function rfcBase(person: RfcPerson): string {
  const paternal = withoutParticles(person.lastname).join(' ').replace(/Ñ/g, 'X');
  const maternal = withoutParticles(person.maternalLastname ?? '')
    .join(' ')
    .replace(/Ñ/g, 'X');
  const names = withoutParticles(person.name);
  const given = (names.length > 1 && COMMON_FIRST_NAMES.has(names[0]!) ? names[1]! : (names[0] ?? '')).replace(
    /Ñ/g,
    'X',
  );

  let letters: string;
  if (!maternal) letters = paternal.slice(0, 2) + given.slice(0, 2);
  else if (paternal.length <= 2) letters = paternal[0]! + maternal[0]! + given.slice(0, 2);
  else letters = paternal[0]! + firstInnerVowel(paternal) + maternal[0]! + given[0]!;
  letters = letters.padEnd(4, 'X').slice(0, 4);
  if (INCONVENIENT.has(letters)) letters = `${letters.slice(0, 3)}X`;

  const [year, month, day] = person.dob.split('-');
  return `${letters}${year!.slice(2)}${month}${day}`;
}

const HOMONYMY_VALUES: Record<string, string> = {
  ' ': '00',
  '0': '00',
  '1': '01',
  '2': '02',
  '3': '03',
  '4': '04',
  '5': '05',
  '6': '06',
  '7': '07',
  '8': '08',
  '9': '09',
  '&': '10',
  A: '11',
  B: '12',
  C: '13',
  D: '14',
  E: '15',
  F: '16',
  G: '17',
  H: '18',
  I: '19',
  J: '21',
  K: '22',
  L: '23',
  M: '24',
  N: '25',
  O: '26',
  P: '27',
  Q: '28',
  R: '29',
  S: '32',
  T: '33',
  U: '34',
  V: '35',
  W: '36',
  X: '37',
  Y: '38',
  Z: '39',
  Ñ: '40',
};
const HOMONYMY_DIGITS = '123456789ABCDEFGHIJKLMNPQRSTUVWXYZ';

/** Two homonymy characters from the full name "PATERNAL MATERNAL NAMES". */
export function rfcHomonymy(person: Pick<RfcPerson, 'name' | 'lastname' | 'maternalLastname'>): string {
  const fullName = normalize([person.lastname, person.maternalLastname ?? '', person.name].filter(Boolean).join(' '));
  const digits = `0${[...fullName].map((char) => HOMONYMY_VALUES[char] ?? '00').join('')}`;
  let sum = 0;
  for (let i = 0; i < digits.length - 1; i++) sum += Number(digits.slice(i, i + 2)) * Number(digits[i + 1]);
  const last = sum % 1000;
  return HOMONYMY_DIGITS[Math.floor(last / 34)]! + HOMONYMY_DIGITS[last % 34]!;
}

const CHECK_VALUES = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

/** The 13th character, from the first twelve (SAT weights 13…2, modulo 11). */
export function rfcCheckDigit(firstTwelve: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Math.max(0, CHECK_VALUES.indexOf(firstTwelve[i]!)) * (13 - i);
  const remainder = sum % 11;
  if (remainder === 0) return '0';
  const digit = 11 - remainder;
  return digit === 10 ? 'A' : String(digit);
}

export interface RfcPerson {
  name: string;
  lastname: string;
  maternalLastname?: string | undefined;
  /** 'yyyy-MM-dd' */
  dob: string;
}

export function generateRfc(person: RfcPerson): string {
  const twelve = rfcBase(person) + rfcHomonymy(person);
  return twelve + rfcCheckDigit(twelve);
}

/** Shape, a real date and the check digit (the homonymy key itself is the SAT's to assign). */
export function isValidRfc(value: string): boolean {
  const match = /^([A-ZÑ&]{4})(\d{2})(\d{2})(\d{2})([A-Z\d]{2})([A\d])$/.exec(value);
  if (!match) return false;
  const [month, day] = [Number(match[3]), Number(match[4])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  return rfcCheckDigit(value.slice(0, 12)) === value[12];
}

/** What the field keeps: letters, digits, Ñ and &, upper case, at most 13. */
export function cleanRfc(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z0-9Ñ&]/g, '')
    .slice(0, 13);
}

/** Whether an RFC carries this birth date ('yyyy-MM-dd'): its six digits after the letters are yymmdd. */
export function rfcHasBirthDate(rfc: string, birthDate: string): boolean {
  return rfc.slice(4, 10) === birthDate.slice(2).replace(/-/g, '');
}

/** The oldest age a birth date read from an RFC is taken for (older: the century is the other one). */
const OLDEST_AGE_YEARS = 100;

/**
 * The birth date an RFC carries ('yyyy-MM-dd'), for a person of age on `today`: its yymmdd in the
 * century that makes them between MIN_AGE_YEARS and 100 years old (at most one does: an RFC of 08 is
 * 2008 in 2026, one of 27 is 1927). undefined when its six digits are not a date or no century
 * makes the person of age (a minor's RFC). Used where only the RFC is given (a guarantor) and a
 * bureau files people by birth date.
 */
export function birthDateOfRfc(rfc: string, today: string): string | undefined {
  const match = /^[A-ZÑ&]{4}(\d{2})(\d{2})(\d{2})/.exec(rfc);
  if (!match) return undefined;
  const [yy, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return [2000, 1900]
    .map((century) => isoDate(century + yy, month, day))
    .find((date) => {
      const age = date ? ageOn(date, today) : Number.NaN;
      return age >= MIN_AGE_YEARS && age <= OLDEST_AGE_YEARS;
    });
}
