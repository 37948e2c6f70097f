import type { JobQueueQuery, JobQueueView, JobViewState } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { countJobsByState, JOB_STATES, listJobs, type JobState, type QueuedJobRow } from './jobs.store.js';

/** pg-boss's states as the back office names them. */
const VIEW_STATE: Record<JobState, JobViewState> = {
  created: 'waiting',
  retry: 'waiting',
  active: 'running',
  completed: 'done',
  cancelled: 'done',
  failed: 'failed',
};
const statesOf = (view: JobViewState) => JOB_STATES.filter((state) => VIEW_STATE[state] === view);

/** How many jobs the latest list shows. */
const LATEST_JOBS = 100;

function jobView(row: QueuedJobRow): JobQueueView['jobs'][number] {
  const state = VIEW_STATE[row.state as JobState];
  const output = row.output as { message?: unknown } | null;
  return {
    id: row.id,
    name: row.name,
    state,
    retries: row.retryCount,
    retry_limit: row.retryLimit,
    created_at: row.createdOn.toISOString(),
    started_at: row.startedOn?.toISOString() ?? null,
    finished_at: row.completedOn?.toISOString() ?? null,
    next_run_at: state === 'waiting' ? row.startAfter.toISOString() : null,
    last_error: state !== 'done' && typeof output?.message === 'string' ? output.message.slice(0, 500) : null,
    data: (row.data as Record<string, unknown> | null) ?? null,
  };
}

/** The queue by kind and state, and its latest jobs (in one state, of one kind, when asked). */
export async function jobQueueView(db: Executor, query: JobQueueQuery): Promise<JobQueueView> {
  const states = query.state ? statesOf(query.state) : [...JOB_STATES];
  const [counts, rows] = await Promise.all([
    countJobsByState(db),
    listJobs(db, { states, name: query.name || undefined, limit: LATEST_JOBS }),
  ]);
  const kinds = new Map<string, JobQueueView['kinds'][number]>();
  for (const { name, state, jobs } of counts) {
    const kind = kinds.get(name) ?? { name, waiting: 0, running: 0, done: 0, failed: 0 };
    kind[VIEW_STATE[state as JobState]] += jobs;
    kinds.set(name, kind);
  }
  return { kinds: [...kinds.values()].sort((a, b) => a.name.localeCompare(b.name)), jobs: rows.map(jobView) };
}
