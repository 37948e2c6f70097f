import { advisorQueueCall, claimAdvisorTaskCall, finishAdvisorTaskCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { claimAdvisorTask, finishAdvisorTask, listAdvisorQueue } from './advisor-queue.service.js';

/** Contact requests and new leads for advisors: the queue, claim, done. */
export async function advisorQueueRoutes(app: App): Promise<void> {
  const onRequest = staffOnly('workAdvisorQueue');

  register(app, advisorQueueCall, { onRequest }, async (request) => ({
    data: await listAdvisorQueue(app.db, { includeDone: request.query.include_done === 'true' }),
  }));

  register(app, claimAdvisorTaskCall, { onRequest }, async (request) => {
    const { source, sourceId } = request.params;
    return { data: await claimAdvisorTask(app, request.staffMember!, source, sourceId) };
  });

  register(app, finishAdvisorTaskCall, { onRequest }, async (request) => {
    const { source, sourceId } = request.params;
    return { data: await finishAdvisorTask(app, request.staffMember!, source, sourceId, request.body.note) };
  });
}
