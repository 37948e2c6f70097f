// The background jobs as the back office names them (zod-free: its screen uses it).

/**
 * How a background job stands, in the back office's words: waiting (to run or to be retried),
 * running, done or failed for good (zod-free: the back office's screens use it).
 */
export const JOB_VIEW_STATES = ['waiting', 'running', 'done', 'failed'] as const;
export type JobViewState = (typeof JOB_VIEW_STATES)[number];
