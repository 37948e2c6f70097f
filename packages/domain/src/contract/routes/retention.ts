import { route } from './route.js';

// The retention schedule as admins see it (issue 31): zod-free, for the web.
export const retentionScheduleRoute = route('GET', '/api/backoffice/retention');
