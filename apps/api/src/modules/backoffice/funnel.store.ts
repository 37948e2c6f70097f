import { FUNNEL_MILESTONES, type FunnelResponse } from '@provee/domain';
import { MILESTONE_COLUMNS } from '../application/index.js';
import { reminderCounts } from '../reminders/index.js';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { preparedPerDatabase } from '../../db/prepared.js';
import { applicationMilestones, users } from '../../db/schema.js';
import type { ReportRange } from './report-range.js';

// The funnel report, over the applications of the period: how many started (the applications
// themselves) and when each reached its milestones, which the step engine records with each move
// beside the application's start and source (the back office is the one read side across modules:
// docs/decisions/026). The milestones are read by start, one range of one index: the time follows
// the period's applicants, not the years of history, and needs no join (issue 35).

/** The funnel's steps in order; each is the time an applicant first got there (null: never). */
const STEPS: { key: string; label: string; at: SQL }[] = [
  { key: 'registration_started', label: 'Registro iniciado', at: sql`${applicationMilestones.startedAt}` },
  ...FUNNEL_MILESTONES.map((milestone) => ({
    key: milestone.key,
    label: milestone.label,
    at: sql`${MILESTONE_COLUMNS[milestone.key]}`,
  })),
];

/** Per step after the start: how many got there, and the median time from the step before. */
const stepFields: Record<string, SQL.Aliased<number | null>> = {};
STEPS.forEach((step, index) => {
  if (index === 0) return;
  stepFields[`reached${index}`] = sql<number>`count(${step.at})::int`.mapWith(Number).as(`reached${index}`);
  stepFields[`median${index}`] = sql<number | null>`percentile_cont(0.5) within group (
      order by extract(epoch from (${step.at} - ${STEPS[index - 1]!.at}))::float8)`
    .mapWith(Number)
    .as(`median${index}`);
});

/** Started in the range (placeholders `start` and `end`), of the source `source` when asked. */
const cohort = (startedAt: PgColumn, source: PgColumn, bySource: boolean) =>
  and(
    gte(startedAt, sql.placeholder('start')),
    lt(startedAt, sql.placeholder('end')),
    bySource ? eq(source, sql.placeholder('source')) : undefined,
  );

/**
 * The funnel's two statements, prepared (with and without a source). Drizzle's other statements go
 * to PostgreSQL unnamed, parsed and planned on every call, and are assembled by Drizzle on every
 * call; the milestones' statement is long (eighteen aggregates). Prepared, both are done once.
 */
const funnelQueries = (bySource: boolean) => {
  const name = bySource ? '_by_source' : '';
  return {
    started: preparedPerDatabase((db) =>
      db
        .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
        .from(users)
        .where(cohort(users.createdAt, users.utmSource, bySource))
        .prepare(`funnel_started${name}`),
    ),
    milestones: preparedPerDatabase((db) =>
      db
        .select(stepFields)
        .from(applicationMilestones)
        .where(cohort(applicationMilestones.startedAt, applicationMilestones.utmSource, bySource))
        .prepare(`funnel_milestones${name}`),
    ),
  };
};
const FUNNEL = { all: funnelQueries(false), bySource: funnelQueries(true) };

/**
 * Per step how many of the cohort (started in the range, of the source when given) got there and
 * the median time from the step before. Who started is counted on the applications (one that never
 * reached a milestone has no row of them); the rest on the milestones of the same range.
 */
export async function funnel(db: Db, range: ReportRange, utmSource?: string): Promise<FunnelResponse['data']> {
  const queries = utmSource === undefined ? FUNNEL.all : FUNNEL.bySource;
  // A placeholder's value reaches the driver as it is given: the instants as text.
  const values = { start: range.start.toISOString(), end: range.end.toISOString(), source: utmSource };
  // The three are read at the same time (three connections on PostgreSQL).
  const [[started], [row], reminders] = await Promise.all([
    queries.started(db).execute(values),
    queries.milestones(db).execute(values),
    reminderCounts(db, range.start, range.end),
  ]);
  const reached = STEPS.map((_, index) =>
    index === 0 ? (started?.count ?? 0) : Number(row?.[`reached${index}`] ?? 0),
  );
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
