import { AppError } from '../../errors.js';

/** A report's days, from `from` 00:00 UTC up to (not including) the day after `to`. */
export interface ReportRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/** Long enough for a year (a leap one too), short enough that one report stays one query's work. */
export const MAX_REPORT_DAYS = 366;
const DAY_MS = 86_400_000;

const rangeError = (field: 'from' | 'to', message: string) =>
  new AppError(400, 'VALIDATION_ERROR', 'invalid report range', message, {
    issues: [{ field: `query.${field}`, message }],
  });

/** A day that exists (2026-02-30 parses as 2 March: only one that reads back the same does) in years records can hold. */
function day(field: 'from' | 'to', value: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  const name = field === 'from' ? 'inicial' : 'final';
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw rangeError(field, `La fecha ${name} no existe, revísala.`);
  if (value < '2000-01-01' || value > '2100-12-31')
    throw rangeError(field, `La fecha ${name} debe estar entre los años 2000 y 2100.`);
  return date;
}

/** Optional days of a filter (the applications list): checked like a report's, either may be missing. */
export function dayFilter(from?: string, to?: string): { start?: Date; end?: Date } {
  const start = from ? day('from', from) : undefined;
  const last = to ? day('to', to) : undefined;
  if (start && last && last < start)
    throw rangeError('to', 'La fecha final debe ser igual o posterior a la fecha inicial.');
  return { start, end: last ? new Date(last.getTime() + DAY_MS) : undefined };
}

export function reportRange(from: string, to: string): ReportRange {
  const start = day('from', from);
  const last = day('to', to);
  if (last < start) throw rangeError('to', 'La fecha final debe ser igual o posterior a la fecha inicial.');
  const days = (last.getTime() - start.getTime()) / DAY_MS + 1;
  if (days > MAX_REPORT_DAYS) throw rangeError('to', `El periodo puede abarcar como máximo ${MAX_REPORT_DAYS} días.`);
  return { from, to, start, end: new Date(last.getTime() + DAY_MS) };
}
