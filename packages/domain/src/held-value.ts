/**
 * A calendar day ('YYYY-MM-DD') as the locale says it: "7 de diciembre de 2026" ('long'), or
 * "25 nov 2026" ('short', where staff read it at a glance). No time zone shift: it is a calendar day.
 */
export function formatDay(day: string, locale: string, month: 'long' | 'short' = 'long'): string {
  const [year, monthNumber, date] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month, year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year!, monthNumber! - 1, date!)),
  );
}

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** Where the reader is: the country's locale and time zone (an instant reads in its local time). */
export interface ReaderPlace {
  locale: string;
  timeZone: string;
}

/**
 * A value we hold about a person as they read it, in 'Mis datos', its PDF and the back office's
 * copy of it: empty as a dash, a birth date or a deadline in words, an instant as the day and hour
 * where the person is, lists joined, nested fields by name. Never JSON braces.
 */
export function heldValueText(value: unknown, place: ReaderPlace): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map((item) => heldValueText(item, place)).join(', ') : '—';
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([key, inner]) => `${key}: ${heldValueText(inner, place)}`)
      .join('; ');
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (typeof value === 'string' && CALENDAR_DAY.test(value)) return formatDay(value, place.locale);
  if (typeof value === 'string' && INSTANT.test(value))
    return new Intl.DateTimeFormat(place.locale, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: place.timeZone,
    }).format(new Date(value));
  return String(value);
}
