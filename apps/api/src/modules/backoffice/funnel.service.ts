import type { FunnelResponse, TransitionName } from '@provee/domain';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditEvents, contractSigners, users } from '../../db/schema.js';
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

/** The first time an application made this move (moveApplication records each in the audit trail). */
const firstMove = (name: TransitionName, endsIn?: { step: string; status: string }) =>
  sql`min(${auditEvents.createdAt}) filter (where ${auditEvents.payload}->>'transition' = ${name}${
    endsIn
      ? sql` and ${auditEvents.payload}->'to'->>'step' = ${endsIn.step} and ${auditEvents.payload}->'to'->>'status' = ${endsIn.status}`
      : sql``
  })`;

/** The funnel's steps in order; each is the time an applicant first got there (null: never). */
const STEPS: { key: string; label: string; at: SQL }[] = [
  { key: 'registration_started', label: 'Registro iniciado', at: sql`${users.createdAt}` },
  { key: 'tax_id', label: 'Identificación fiscal', at: firstMove('tax-id') },
  { key: 'business_address', label: 'Dirección del negocio', at: firstMove('address') },
  { key: 'business', label: 'Datos del negocio', at: firstMove('business') },
  { key: 'nip_sent', label: 'NIP enviado', at: firstMove('nip-sent') },
  { key: 'consent', label: 'Consulta autorizada', at: firstMove('consent') },
  {
    key: 'pre_approved',
    label: 'Preaprobado',
    at: firstMove('decision', { step: 'PASSWORD', status: 'IN_PROGRESS' }),
  },
  { key: 'password', label: 'Contraseña creada', at: firstMove('password') },
  {
    key: 'contract_signed',
    label: 'Contrato firmado',
    at: sql`(select min(${contractSigners.signedAt}) from ${contractSigners}
      where ${contractSigners.userId} = ${users.id} and ${contractSigners.personType} = 'titular')`,
  },
];

const column = (index: number) => sql.raw(`s${index}`);

/**
 * One query: per applicant of the cohort (started in the range, of the source when given) the
 * time of each step, then per step how many got there and the median time from the step before.
 */
export async function funnel(db: Db, range: ReportRange, utmSource?: string): Promise<FunnelResponse['data']> {
  const perApplicant = sql`select ${sql.join(
    STEPS.map((step, index) => sql`${step.at} as ${column(index)}`),
    sql`, `,
  )}
    from ${users}
    left join ${auditEvents} on ${auditEvents.applicationId} = ${users.id}::text
      and ${auditEvents.payload}->>'transition' is not null
    where ${and(
      gte(users.createdAt, range.start),
      lt(users.createdAt, range.end),
      utmSource === undefined ? undefined : eq(users.utmSource, utmSource),
    )}
    group by ${users.id}`;
  const fields: Record<string, SQL.Aliased<number | null>> = {};
  STEPS.forEach((_, index) => {
    fields[`reached${index}`] = sql<number>`count(${column(index)})::int`.mapWith(Number).as(`reached${index}`);
    if (index > 0)
      fields[`median${index}`] = sql<number | null>`percentile_cont(0.5) within group (
        order by extract(epoch from (${column(index)} - ${column(index - 1)}))::float8)`
        .mapWith(Number)
        .as(`median${index}`);
  });
  const [row] = await db.select(fields).from(sql`(${perApplicant}) as per_applicant`);
  const reached = STEPS.map((_, index) => Number(row?.[`reached${index}`] ?? 0));
  return {
    from: range.from,
    to: range.to,
    utm_source: utmSource ?? null,
    steps: STEPS.map((step, index) => {
      const previous = index > 0 ? reached[index - 1]! : 0;
      return {
        key: step.key,
        label: step.label,
        reached: reached[index]!,
        conversion: previous > 0 ? reached[index]! / previous : null,
        median_seconds_from_previous: index > 0 ? (row?.[`median${index}`] ?? null) : null,
      };
    }),
  };
}
