import { jobQueueCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { jobQueueView } from '../jobs/index.js';

/** The job queue for admins (back office): counts by kind and state, the latest jobs with their last error. */
export async function jobQueueRoutes(app: App): Promise<void> {
  register(app, jobQueueCall, { onRequest: staffOnly('readJobs') }, async (request) => ({
    data: await jobQueueView(app.db, request.query),
  }));
}
