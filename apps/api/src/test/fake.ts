import { cedulaCheckDigit, rfcBase, rfcCheckDigit, type CountryCode } from '@provee/domain';
import fc from 'fast-check';

/**
 * Made-up people, phones and tax ids for the factories: different on every call and every run (so
 * no test leans on a value it did not set), valid for the country's rules (numbering plan, cédula
 * check digit, RFC with its birth date and check digit), never one of the simulators' test
 * identities, and unique per call within a process, whatever the randomness draws.
 *
 * fast-check draws the varied parts; FACTORY_SEED fixes its seed (the same data on every run).
 */
const SEED = process.env.FACTORY_SEED ? Number(process.env.FACTORY_SEED) : Math.floor(Math.random() * 2 ** 31);

let draws = 0;
/**
 * One value of `arbitrary`, from the next seed of this run; unbiased (fast-check favours edge
 * values, such as the smallest integer, when it hunts for bugs).
 */
const draw = <T>(arbitrary: fc.Arbitrary<T>): T =>
  fc.sample(fc.noBias(arbitrary), { numRuns: 1, seed: SEED + (draws += 1) })[0]!;

let serial = 0;
/**
 * A number below `size`, different from every answer for the same size in the last `size` calls:
 * the call's serial, spread by a prime step and shifted by the run's seed. The step is coprime to
 * every size used here (their prime factors are 2, 5, 17, 23 and 397), so `size` consecutive
 * serials land on `size` different numbers.
 */
function unique(size: number): number {
  serial += 1;
  return (SEED + serial * 104_729) % size;
}

// Never the names tests write by hand to find their own rows ('María José', 'José Ángel', 'Peña', 'Muñoz').
const GIVEN_NAMES = [
  'Carmen Rosa',
  'Luis Miguel',
  'Ana Lucía',
  'Juan Carlos',
  'Altagracia',
  'Ramón',
  'Inés',
  'Luz María',
  'Rafael',
  'Yokasta',
  'Guadalupe',
  'Jesús',
  'Héctor',
  'Dulce María',
  'Fermín',
  'Yajaira',
  'Wilkin',
  'Ángela',
  'Raúl',
  'Begoña',
];
const SURNAMES = [
  'Vásquez',
  'Núñez',
  'Pérez',
  'Rodríguez',
  'Martínez',
  'Gómez',
  'Ramírez',
  'De la Cruz',
  'Santana',
  'Cabrera',
  'Ortiz',
  'Güemes',
  'Hernández',
  'Rosario',
  'Báez',
  'Jiménez',
  'Castillo',
  'Del Valle',
];

/**
 * Birth dates from 1965 to 1989: of age (18–80) under any clock a test sets (2020–2040), and never
 * the simulators' test-identity days (1990-01-01…08, the RFC date part 900101–900108).
 */
const FIRST_BIRTH_DAY = Date.UTC(1965, 0, 1);
const BIRTH_DAYS = 9_131;
const isoDay = (day: number) => new Date(FIRST_BIRTH_DAY + day * 86_400_000).toISOString().slice(0, 10);

export interface FakePerson {
  name: string;
  lastname: string;
  maternalLastname: string;
  /** 'yyyy-MM-dd' */
  dob: string;
}

/**
 * A person's names and birth date. The birth date is unique (over 9,131 calls): with the RFC's
 * unique homonymy key, two made-up Mexicans never share an RFC.
 */
export function fakePerson(): FakePerson {
  const names = draw(
    fc.record({
      name: fc.constantFrom(...GIVEN_NAMES),
      lastname: fc.constantFrom(...SURNAMES),
      maternalLastname: fc.constantFrom(...SURNAMES),
    }),
  );
  return { ...names, dob: isoDay(unique(BIRTH_DAYS)) };
}

/** The RFC's two homonymy characters (the SAT assigns them; any two of these are valid). */
const HOMONYMY = '123456789ABCDEFGHIJKLMNPQRSTUVWXYZ';

/**
 * A tax id as it is stored: an 11-digit cédula (do) or, for `person`, their RFC (mx: initials,
 * birth date, homonymy key, check digit). The cédula's first three digits are a municipality's
 * (001–402, never the simulators' 999); its next seven are unique. The RFC's homonymy key is unique
 * over 1,156 calls (34²), on top of the person's initials and birth date.
 */
export function fakeTaxId(country: CountryCode, person: FakePerson = fakePerson()): string {
  if (country === 'do') {
    const municipality = draw(fc.integer({ min: 1, max: 402 }));
    const ten = `${String(municipality).padStart(3, '0')}${String(unique(10_000_000)).padStart(7, '0')}`;
    return `${ten}${cedulaCheckDigit(ten)}`;
  }
  const key = unique(HOMONYMY.length ** 2);
  const twelve = `${rfcBase(person)}${HOMONYMY[Math.floor(key / HOMONYMY.length)]}${HOMONYMY[key % HOMONYMY.length]}`;
  return `${twelve}${rfcCheckDigit(twelve)}`;
}

/**
 * A mobile number of the country's plan, national digits: do 809/829/849 then [2-9] and six digits;
 * mx a two-digit area (55, 56, 33, 81) and eight digits. The subscriber part is unique.
 */
export function fakePhone(country: CountryCode = 'do'): string {
  const number =
    country === 'do'
      ? `${draw(fc.constantFrom('809', '829', '849'))}${2_000_000 + unique(8_000_000)}`
      : `${draw(fc.constantFrom('55', '56', '33', '81'))}${String(unique(100_000_000)).padStart(8, '0')}`;
  // A number ending in 0000 has no WhatsApp in the simulator (its messages fall back to SMS): only
  // the tests of that fallback ask for one.
  return number.endsWith('0000') ? `${number.slice(0, -1)}1` : number;
}

/** A name as a staff account carries it: given name and surname. */
export function fakeFullName(): string {
  const { name, lastname } = fakePerson();
  return `${name} ${lastname}`;
}
