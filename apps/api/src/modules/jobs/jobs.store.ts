import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';

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

/** How many jobs of each kind are in each state. */
export async function countJobsByState(db: Executor) {
  return db
    .select({ name: queuedJobs.name, state: queuedJobs.state, jobs: count() })
    .from(queuedJobs)
    .groupBy(queuedJobs.name, queuedJobs.state);
}

/** The latest jobs in these states (of one kind, if given), newest first. */
export async function listJobs(db: Executor, filter: { states: JobState[]; name?: string | undefined; limit: number }) {
  return db
    .select()
    .from(queuedJobs)
    .where(
      and(
        inArray(sql`${queuedJobs.state}::text`, filter.states),
        filter.name ? eq(queuedJobs.name, filter.name) : undefined,
      ),
    )
    .orderBy(desc(queuedJobs.createdOn))
    .limit(filter.limit);
}
