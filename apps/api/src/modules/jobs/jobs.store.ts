import { and, count, desc, eq, inArray, notLike, sql } from 'drizzle-orm';
import { integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { resultRows } from '../../db/rows.js';

/**
 * pg-boss's job table, read only (pg-boss writes it; its schema is migration 0021): what the back
 * office shows of the queue. Not in db/schema.ts, which drizzle-kit would try to create.
 */
/** pg-boss's schema: created by the product's migrations (0021_job_queue.sql, decision 029). */
export const JOB_SCHEMA = 'pgboss';
const pgboss = pgSchema(JOB_SCHEMA);
export const queuedJobs = pgboss.table('job', {
  id: uuid('id').notNull(),
  name: text('name').notNull(),
  state: text('state').notNull(),
  data: jsonb('data'),
  retryCount: integer('retry_count').notNull(),
  retryLimit: integer('retry_limit').notNull(),
  startAfter: timestamp('start_after', { withTimezone: true }).notNull(),
  startedOn: timestamp('started_on', { withTimezone: true }),
  createdOn: timestamp('created_on', { withTimezone: true }).notNull(),
  completedOn: timestamp('completed_on', { withTimezone: true }),
  output: jsonb('output'),
});
export type QueuedJobRow = typeof queuedJobs.$inferSelect;

/** pg-boss's states: waiting (created, retry), running (active), done (completed, cancelled) or failed. */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** pg-boss's own queues (its schedule's sender): not kinds of the product's. */
const ours = notLike(queuedJobs.name, '\\_\\_pgboss\\_\\_%');

/** How many jobs of each kind are in each state. */
export async function countJobsByState(db: Executor) {
  return db
    .select({ name: queuedJobs.name, state: queuedJobs.state, jobs: count() })
    .from(queuedJobs)
    .where(ours)
    .groupBy(queuedJobs.name, queuedJobs.state);
}

/**
 * The queue's depth for the metrics: jobs due and waiting (created or retry, their start time
 * passed) and running, per kind, with how long the oldest due one has waited. Jobs held back for
 * later (a retry's pause) are not waiting yet.
 */
export async function queueDepth(
  db: Executor,
): Promise<{ kind: string; state: 'waiting' | 'active'; count: number; oldestSeconds: number }[]> {
  const rows = resultRows<{
    kind: string;
    state: 'waiting' | 'active';
    count: string | number;
    oldest: string | number;
  }>(
    await db.execute(sql`
      select name as kind, case when state = 'active' then 'active' else 'waiting' end as state,
        count(*) as count, extract(epoch from now() - min(start_after)) as oldest
      from ${queuedJobs}
      where state in ('created', 'retry', 'active') and start_after <= now() and ${ours}
      group by 1, 2`),
  );
  return rows.map((row) => ({
    kind: row.kind,
    state: row.state,
    count: Number(row.count),
    oldestSeconds: Math.max(0, Number(row.oldest)),
  }));
}

/** The latest jobs in these states (of one kind, if given), newest first. */
export async function listJobs(db: Executor, filter: { states: JobState[]; name?: string | undefined; limit: number }) {
  return db
    .select()
    .from(queuedJobs)
    .where(
      and(
        ours,
        inArray(sql`${queuedJobs.state}::text`, filter.states),
        filter.name ? eq(queuedJobs.name, filter.name) : undefined,
      ),
    )
    .orderBy(desc(queuedJobs.createdOn))
    .limit(filter.limit);
}

/**
 * The rows (`data.id`) the jobs of `name` not finished yet (waiting, retrying or running) are for:
 * what a sweep checks before it gives a row a job of its own.
 */
export async function openJobRowIds(db: Executor, name: string): Promise<Set<string>> {
  const rows = await db
    .select({ id: sql<string | null>`${queuedJobs.data}->>'id'` })
    .from(queuedJobs)
    .where(and(eq(queuedJobs.name, name), inArray(sql`${queuedJobs.state}::text`, ['created', 'retry', 'active'])));
  return new Set(rows.flatMap((row) => (row.id ? [row.id] : [])));
}
