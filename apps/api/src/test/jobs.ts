import { sql } from 'drizzle-orm';
import { resultRows } from '../db/rows.js';
import { JOB_SCHEMA } from '../modules/jobs/jobs.store.js';
import type { App } from '../types.js';

/**
 * Tests drive the queue's jobs by hand (the test app leaves the bureau's, the remote consents' and
 * the identity simulator's kinds to no worker: JOB_KINDS_OFF in test-app.ts), on their own clock.
 */

const job = sql.raw(`${JOB_SCHEMA}.job`);
/**
 * Runs each job of `name` waiting now, once, whatever its start time (the test's clock decides:
 * each kind checks its row's own time), as the queue's worker would: taken (active), then
 * completed, or waiting again (failed when its tries are spent) with the error it threw.
 */
export async function runQueuedJobs(app: App, name: string): Promise<{ ran: number; failed: number }> {
  const kind = app.jobs.kind(name);
  if (!kind) throw new Error(`no job kind ${name}`);
  const waiting = resultRows<{ id: string }>(
    await app.db.execute(sql`select id from ${job} where name = ${name} and state < 'active' order by created_on, id`),
  );
  let ran = 0;
  let failed = 0;
  for (const { id } of waiting) {
    const [taken] = resultRows<{ data: unknown; retry_count: number; retry_limit: number }>(
      await app.db.execute(sql`
        update ${job} set state = 'active', started_on = now(),
          retry_count = case when started_on is not null then retry_count + 1 else retry_count end
        where name = ${name} and id = ${id} and state < 'active'
        returning data, retry_count, retry_limit`),
    );
    if (!taken) continue;
    ran++;
    const data = typeof taken.data === 'string' ? JSON.parse(taken.data) : taken.data;
    try {
      await kind.run(data, { retry: taken.retry_count, last: taken.retry_count >= taken.retry_limit, id });
      await app.db.execute(sql`update ${job} set state = 'completed', completed_on = now() where id = ${id}`);
    } catch (error) {
      failed++;
      const output = JSON.stringify({ message: (error as Error).message });
      await app.db.execute(sql`
        update ${job} set output = ${output}::jsonb,
          state = case when retry_count < retry_limit then 'retry'::${sql.raw(JOB_SCHEMA)}.job_state
            else 'failed'::${sql.raw(JOB_SCHEMA)}.job_state end
        where id = ${id}`);
    }
  }
  return { ran, failed };
}

/** The identity simulator's due answers (the job of each check, held back until its answer is due). */
export const answerSimulatedChecks = (app: App) => runQueuedJobs(app, 'identity-simulated-answer');

/** The bureau queries' jobs: each query due by the app's clock gets its attempt. */
export const runBureauJobs = (app: App) => runQueuedJobs(app, 'bureau-query');

/** The consent audits' jobs: each audit due by the app's clock gets its attempt. */
export const runConsentAuditJobs = (app: App) => runQueuedJobs(app, 'bureau-consent-audit');

/** The remote consents whose guarantor's message arrived. */
export const recordRemoteConsents = (app: App) => runQueuedJobs(app, 'remote-consent');

/**
 * The SMS still waiting in the queue, sent now when this process runs no sender (a test app with
 * JOB_POLL_INTERVAL_MS 0); otherwise each request already waited for its message's first try.
 */
export async function flushSms(app: App): Promise<void> {
  if (!app.jobs.runsHere('message-send')) await runQueuedJobs(app, 'message-send');
}

/** The jobs of `name` (every state), oldest first: their data, and how long each was held back. */
export async function jobsOf(
  app: App,
  name: string,
): Promise<{ id: string; state: string; data: unknown; heldSeconds: number }[]> {
  const rows = resultRows<{ id: string; state: string; data: unknown; held_seconds: string | number }>(
    await app.db.execute(
      sql`select id, state::text as state, data, extract(epoch from start_after - created_on) as held_seconds
          from ${job} where name = ${name} order by created_on, id`,
    ),
  );
  return rows.map(({ held_seconds: held, data, ...row }) => ({
    ...row,
    data: typeof data === 'string' ? JSON.parse(data) : data,
    heldSeconds: Number(held),
  }));
}

/** Every job in the queue's table, as stored: its kind, its data and its last output (JSON text). */
export async function storedJobs(app: App): Promise<{ name: string; data: string; output: string | null }[]> {
  return resultRows<{ name: string; data: string; output: string | null }>(
    await app.db.execute(sql`select name, data::text as data, output::text as output from ${job}`),
  );
}
