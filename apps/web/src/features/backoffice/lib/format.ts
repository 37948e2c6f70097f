// Staff read times in their own time zone, written the Dominican way (both countries read it alike).
const LOCALE = 'es-DO';
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeStyle: 'medium' });
const percent = new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 });
const integer = new Intl.NumberFormat(LOCALE);

export const EMPTY = '—';

/** Where staff read a person's data: the Dominican way, at the browser's own time zone. */
export const STAFF_PLACE = { locale: LOCALE, timeZone: dateTime.resolvedOptions().timeZone };

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : EMPTY);
/** The timeline's precision: events a second apart must read apart. */
export const formatEventTime = (iso: string) => dateTimeSeconds.format(new Date(iso));
export const formatPercent = (ratio: number | null) => (ratio === null ? EMPTY : percent.format(ratio));
export const formatInteger = (value: number) => integer.format(value);

export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).format(amount);
  } catch {
    return `${integer.format(amount)} ${currency}`;
  }
}

/** '45 s', '3 min', '2 h 5 min', '1 d 3 h': the two largest units are enough to compare steps. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return EMPTY;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** An audit event's payload on one line: `key: value · key: value`, cut at `max` characters. */
export function summarizePayload(payload: Record<string, unknown>, max = 160): string {
  const text = Object.entries(payload)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text || EMPTY;
}

/** YYYY-MM-DD of a local day, `daysAgo` before today: the value of an <input type="date">. */
export function localDate(daysAgo = 0, now = new Date()): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
