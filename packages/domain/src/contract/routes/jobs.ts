import { route } from './route.js';

// The job queue as admins see it (issue 30): zod-free, for the web.
export const jobQueueRoute = route('GET', '/api/backoffice/jobs');
