// What other modules use of the job queue.
import './decorations.js';

export { createJobQueue, enqueueJob, type JobKind, type JobQueue } from './queue.js';
export { jobQueueView } from './jobs.view.js';
export { JOB_STATES, listJobs, openJobRowIds, queueDepth } from './jobs.store.js';
