import {
  advisorQueueQuery,
  advisorQueueResponse,
  advisorTaskDoneBody,
  advisorTaskParams,
  advisorTaskResponse,
} from '@provee/domain';
import { errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { claimAdvisorTask, finishAdvisorTask, listAdvisorQueue } from './advisor-queue.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/** Contact requests and new leads for advisors: the queue, claim, done. */
export async function advisorQueueRoutes(app: App): Promise<void> {
  const onRequest = staffOnly('workAdvisorQueue');

  app.get(
    '/advisor-queue',
    { onRequest, schema: { querystring: advisorQueueQuery, response: { 200: advisorQueueResponse, ...errors } } },
    async (request) => ({
      data: await listAdvisorQueue(app.db, { includeDone: request.query.include_done === 'true' }),
    }),
  );

  app.post(
    '/advisor-queue/:source/:sourceId/claim',
    { onRequest, schema: { params: advisorTaskParams, response: { 200: advisorTaskResponse, ...errors } } },
    async (request) => {
      const { source, sourceId } = request.params;
      return { data: await claimAdvisorTask(app, request.staffMember!, source, sourceId) };
    },
  );

  app.post(
    '/advisor-queue/:source/:sourceId/done',
    {
      onRequest,
      schema: {
        params: advisorTaskParams,
        body: advisorTaskDoneBody,
        response: { 200: advisorTaskResponse, ...errors },
      },
    },
    async (request) => {
      const { source, sourceId } = request.params;
      return { data: await finishAdvisorTask(app, request.staffMember!, source, sourceId, request.body.note) };
    },
  );
}
