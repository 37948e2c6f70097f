import { FUNNEL_MILESTONES, type FunnelResponse } from '@provee/domain';
import { MILESTONE_COLUMNS } from '../application/index.js';
import { reminderCounts } from '../reminders/index.js';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { applicationMilestones, users } from '../../db/schema.js';
import type { ReportRange } from './report-range.js';

// The funnel report: one query over the applications of the period and their milestones, which the
// step engine records with each move (the back office is the one read side across modules:
// docs/decisions/026). It reads one row per applicant of the period, so its time follows the
// period's applicants, not the years of history (issue 35).

/**
 * The applicant's milestones, looked up by key: one index probe per applicant of the period. The
 * LIMIT keeps PostgreSQL from folding it into a join, which it may run as a hash over the whole
 * table: what grew with the years of history (issue 35). The key makes it one row at most anyway.
 * Named as the table, so the columns below read from it.
 */
const MILESTONES_BY_KEY = sql`lateral (
  select * from ${applicationMilestones} where ${applicationMilestones.applicationId} = ${users.id} limit 1
) as ${applicationMilestones}`;

/** The funnel's steps in order; each is the time an applicant first got there (null: never). */
const STEPS: { key: string; label: string; at: SQL }[] = [
  { key: 'registration_started', label: 'Registro iniciado', at: sql`${users.createdAt}` },
  ...FUNNEL_MILESTONES.map((milestone) => ({
    key: milestone.key,
    label: milestone.label,
    at: sql`${MILESTONE_COLUMNS[milestone.key]}`,
  })),
];

/**
 * Per step how many of the cohort (started in the range, of the source when given) got there and
 * the median time from the step before.
 */
export async function funnel(db: Db, range: ReportRange, utmSource?: string): Promise<FunnelResponse['data']> {
  const fields: Record<string, SQL.Aliased<number | null>> = {};
  STEPS.forEach((step, index) => {
    fields[`reached${index}`] = sql<number>`count(${step.at})::int`.mapWith(Number).as(`reached${index}`);
    if (index > 0)
      fields[`median${index}`] = sql<number | null>`percentile_cont(0.5) within group (
        order by extract(epoch from (${step.at} - ${STEPS[index - 1]!.at}))::float8)`
        .mapWith(Number)
        .as(`median${index}`);
  });
  // The reminders' counts are read at the same time (two connections on PostgreSQL).
  const [[row], reminders] = await Promise.all([
    db
      .select(fields)
      .from(users)
      .leftJoin(MILESTONES_BY_KEY, sql`true`)
      .where(
        and(
          gte(users.createdAt, range.start),
          lt(users.createdAt, range.end),
          utmSource === undefined ? undefined : eq(users.utmSource, utmSource),
        ),
      ),
    reminderCounts(db, range.start, range.end),
  ]);
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
    reminders: reminders.map((count) => ({
      number: count.number,
      sent: count.sent,
      came_back: count.cameBack,
    })),
  };
}
