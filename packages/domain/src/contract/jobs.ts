import { z } from 'zod';
import { JOB_VIEW_STATES } from '../jobs.js';
import { callsSharing, refusals } from './call.js';
import { jobQueueRoute } from './routes/jobs.js';

export const jobQueueQuery = z.object({
  state: z.enum(JOB_VIEW_STATES).optional(),
  /** One kind of job (its name), or every kind. */
  name: z.string().max(100).optional(),
});
export type JobQueueQuery = z.input<typeof jobQueueQuery>;

const jobView = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(JOB_VIEW_STATES),
  /** Tries after the first so far, and how many it may have. */
  retries: z.number(),
  retry_limit: z.number(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** When it runs (again), while it waits. */
  next_run_at: z.string().nullable(),
  /** The last failure's message (the job's own words, never personal data), or null. */
  last_error: z.string().nullable(),
  /** What the job works on: ids only. */
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type JobView = z.infer<typeof jobView>;

/** GET /api/backoffice/jobs (admins): the queue by kind and state, and the latest jobs. */
export const jobQueueResponse = z.object({
  data: z.object({
    kinds: z.array(
      z.object({ name: z.string(), waiting: z.number(), running: z.number(), done: z.number(), failed: z.number() }),
    ),
    jobs: z.array(jobView),
  }),
});
export type JobQueueView = z.infer<typeof jobQueueResponse>['data'];

const adminCall = callsSharing({}, refusals(400, 401, 403));
export const jobQueueCall = adminCall(jobQueueRoute, { query: jobQueueQuery }, { 200: jobQueueResponse });
