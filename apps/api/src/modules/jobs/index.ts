// What other modules use of the job queue.
import './decorations.js';

export { createJobQueue, type JobKind, type JobQueue } from './queue.js';
export { jobQueueRoutes } from './jobs.routes.js';
export { JOB_STATES, listJobs } from './jobs.store.js';
