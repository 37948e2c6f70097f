import { JOB_SCHEMA } from './jobs.store.js';

/**
 * How often each pg-boss worker still looks for a job on its own: the backstop should the check
 * below miss one (it failed, the process was busy). The check is what finds jobs on time.
 */
export const WORKER_BACKSTOP_MS = 30_000;

/** The check's least interval: pg-boss's own least polling interval, which the workers had before. */
const LEAST_INTERVAL_MS = 500;

/**
 * Which of these queues (`$1`, this process's) hold a job that may start now, as pg-boss's fetch
 * asks it of one queue (created or to retry, its start passed). Each name is one probe of its own
 * partition's `job_i5` (name, start_after), which stops at the first entry: the cost stays the same
 * whatever the backlog, and queues this process does not run are never read.
 */
const DUE_QUEUES = `SELECT queue.name FROM unnest($1::text[]) AS queue(name)
  WHERE EXISTS (SELECT 1 FROM ${JOB_SCHEMA}.job j
    WHERE j.name = queue.name AND j.state < 'active' AND j.start_after < now())`;

/**
 * One question a tick for all of this process's workers, instead of each worker's fetch (35 kinds:
 * an idle server made 35 statements a second and spent 5% of a core on them): which of their queues
 * have a job due. Only those queues' workers are woken (`wake`, pg-boss's notifyWorker). Jobs
 * enqueued by this process wake their workers at once anyway; this finds the rest on time: another
 * process's, a retry's pause ended, a schedule's. A failing check is logged once until it answers.
 */
export function checkDueJobs(options: {
  everyMs: number;
  /** The queues this process has workers for, as of now (none: nothing is asked). */
  queues: () => string[];
  query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
  wake: (name: string) => void;
  onError: (error: unknown) => void;
}): { stop(): void } {
  const everyMs = Math.max(LEAST_INTERVAL_MS, options.everyMs);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failing = false;
  const tick = async () => {
    const queues = options.queues();
    try {
      const { rows } = queues.length > 0 ? await options.query(DUE_QUEUES, [queues]) : { rows: [] };
      failing = false;
      if (!stopped) for (const row of rows) options.wake((row as { name: string }).name);
    } catch (error) {
      if (!failing) options.onError(error);
      failing = true;
    }
    if (!stopped) timer = setTimeout(() => void tick(), everyMs).unref();
  };
  timer = setTimeout(() => void tick(), everyMs).unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
