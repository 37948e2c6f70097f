import type { FunnelResponse, TransitionName } from '@provee/domain';
import { reminderCounts } from '../reminders/index.js';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { auditEvents, contractSigners, users } from '../../db/schema.js';
import type { ReportRange } from './report-range.js';

// The funnel report: one query over the applications, their audit trails and their signers (the
// back office is the one read side across modules: docs/decisions/026).

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
    reminders: (await reminderCounts(db, range.start, range.end)).map((count) => ({
      number: count.number,
      sent: count.sent,
      came_back: count.cameBack,
    })),
  };
}
