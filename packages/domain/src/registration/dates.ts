import { BIRTH_YEAR_OPTIONS, MIN_AGE_YEARS } from '../constants.js';

export const MONTHS = [
  'Enero',
  'Febrero',
  'Marzo',
  'Abril',
  'Mayo',
  'Junio',
  'Julio',
  'Agosto',
  'Septiembre',
  'Octubre',
  'Noviembre',
  'Diciembre',
] as const;

/** Days the day list offers for a month (1–12): February always offers 29. */
export function dayOptions(month: number | undefined): number {
  if (!month) return 31;
  if (month === 2) return 29;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** 82 years counting back from the current year minus 18 (SPEC §5). */
export function birthYearOptions(currentYear: number): number[] {
  const newest = currentYear - MIN_AGE_YEARS;
  return Array.from({ length: BIRTH_YEAR_OPTIONS }, (_, i) => newest - i);
}

/** 'yyyy-MM-dd' when the date exists (no 31 April, no 29 February 2001), else undefined. */
export function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function parseIsoDate(value: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isoDate(year, month, day) ? { year, month, day } : undefined;
}

/** 'yyyy-MM-dd' of `now` in a time zone (zod-free, so the screens can use it). */
export function todayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The newest birth date of someone `minAge` years old on `today` ('yyyy-MM-dd'); 29 February → 28. */
export function newestBirthDate(
  today: string,
  minAge: number = MIN_AGE_YEARS,
): { year: number; month: number; day: number } {
  const now = parseIsoDate(today)!;
  const year = now.year - minAge;
  const day = isoDate(year, now.month, now.day) ? now.day : now.day - 1;
  return { year, month: now.month, day };
}

/** Completed years on `today` (both 'yyyy-MM-dd'); a 29 February birthday counts on 1 March. */
export function ageOn(birthDate: string, today: string): number {
  const birth = parseIsoDate(birthDate);
  const now = parseIsoDate(today);
  if (!birth || !now) return Number.NaN;
  let age = now.year - birth.year;
  if (now.month < birth.month || (now.month === birth.month && now.day < birth.day)) age -= 1;
  return age;
}
