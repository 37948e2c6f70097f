import { JOB_SCHEMA } from './jobs.store.js';

/**
 * How often each pg-boss worker still looks for a job on its own: the backstop should the check
 * below miss one (it failed, the process was busy). The check is what finds jobs on time.
 */
export const WORKER_BACKSTOP_MS = 30_000;

/**
 * The queues that hold a job which may start now (pg-boss's own fetch asks the same of one queue:
 * created or to retry, its start passed; its partial index `job_i5` answers it).
 */
const DUE_QUEUES = `SELECT DISTINCT name FROM ${JOB_SCHEMA}.job WHERE state < 'active' AND start_after < now()`;

/**
 * One question a tick for all of this process's workers, instead of each worker's fetch (35 kinds:
 * an idle server made 35 statements a second and spent 9% of a core on them): which queues have a
 * job due. Only those queues' workers are woken (`wake`, pg-boss's notifyWorker). Jobs enqueued by
 * this process wake their workers at once anyway; this finds the rest on time: another process's,
 * a retry's pause ended, a schedule's. A failing check is logged once until it answers again.
 */
export function checkDueJobs(options: {
  everyMs: number;
  query: (text: string) => Promise<{ rows: unknown[] }>;
  wake: (name: string) => void;
  onError: (error: unknown) => void;
}): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failing = false;
  const tick = async () => {
    try {
      const { rows } = await options.query(DUE_QUEUES);
      failing = false;
      if (!stopped) for (const row of rows) options.wake((row as { name: string }).name);
    } catch (error) {
      if (!failing) options.onError(error);
      failing = true;
    }
    if (!stopped) timer = setTimeout(() => void tick(), options.everyMs).unref();
  };
  timer = setTimeout(() => void tick(), options.everyMs).unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
