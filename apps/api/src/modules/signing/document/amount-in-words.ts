/**
 * A whole amount in Spanish words, as contracts write it next to the figure ("veinticinco mil").
 * The "un" form is used where a noun follows (veintiún mil, un millón, treinta y un pesos).
 */
const UNITS = ['', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'];
const TEENS_AND_TWENTIES = [
  'diez',
  'once',
  'doce',
  'trece',
  'catorce',
  'quince',
  'dieciséis',
  'diecisiete',
  'dieciocho',
  'diecinueve',
  'veinte',
  'veintiuno',
  'veintidós',
  'veintitrés',
  'veinticuatro',
  'veinticinco',
  'veintiséis',
  'veintisiete',
  'veintiocho',
  'veintinueve',
];
const TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const HUNDREDS = [
  '',
  'ciento',
  'doscientos',
  'trescientos',
  'cuatrocientos',
  'quinientos',
  'seiscientos',
  'setecientos',
  'ochocientos',
  'novecientos',
];

/** 1–999; apocope: "uno" becomes "un"/"veintiún" before a noun. */
function belowThousand(n: number, apocope: boolean): string {
  if (n === 100) return 'cien';
  const words: string[] = [];
  if (n >= 100) words.push(HUNDREDS[Math.floor(n / 100)]!);
  const rest = n % 100;
  if (rest >= 30) {
    const unit = rest % 10;
    words.push(unit ? `${TENS[Math.floor(rest / 10)]} y ${UNITS[unit]}` : TENS[Math.floor(rest / 10)]!);
  } else if (rest >= 10) words.push(TEENS_AND_TWENTIES[rest - 10]!);
  else if (rest > 0) words.push(UNITS[rest]!);
  const text = words.join(' ');
  if (!apocope) return text;
  return text.replace(/veintiuno$/, 'veintiún').replace(/uno$/, 'un');
}

function belowMillion(n: number, apocope: boolean): string {
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  const head = thousands === 0 ? '' : thousands === 1 ? 'mil' : `${belowThousand(thousands, true)} mil`;
  const tail = rest === 0 ? '' : belowThousand(rest, apocope);
  return [head, tail].filter(Boolean).join(' ');
}

/** 0 ≤ n < 10^12, whole. `noun` tells whether a noun follows ("un peso", not "uno peso"). */
export function amountInWords(n: number, noun = true): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`amountInWords: ${n}`);
  if (n === 0) return 'cero';
  const millions = Math.floor(n / 1e6);
  const rest = n % 1e6;
  const head = millions === 0 ? '' : millions === 1 ? 'un millón' : `${belowMillion(millions, true)} millones`;
  const tail = rest === 0 ? '' : belowMillion(rest, noun);
  // "un millón de pesos", but "un millón cien pesos".
  return [head, tail].filter(Boolean).join(' ') + (rest === 0 && noun ? ' de' : '');
}
