/** A country's days as instants (backtest ranges, the shadow's window): no daylight saving assumed, none needed. */

export const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Midnight of a day in a time zone, as an instant (the zone's offset read at that day's UTC midnight). */
export function zonedMidnight(day: string, timeZone: string): Date {
  const utc = new Date(`${day}T00:00:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(utc);
  const get = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  const asLocal = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return new Date(utc.getTime() - (asLocal - utc.getTime()));
}
