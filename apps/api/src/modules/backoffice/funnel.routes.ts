import { funnelResponse, reportQuery } from '@provee/domain';
import { errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { funnel, reportRange } from './funnel.service.js';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

/** The registration funnel of the applicants who started in a date range (analysts and admins). */
export async function funnelRoutes(app: App): Promise<void> {
  app.get(
    '/funnel',
    {
      onRequest: staffOnly('readReports'),
      schema: { querystring: reportQuery, response: { 200: funnelResponse, ...errors } },
    },
    async (request) => {
      const { from, to, utm_source: utmSource } = request.query;
      // An empty filter box means every source.
      return { data: await funnel(app.db, reportRange(from, to), utmSource || undefined) };
    },
  );
}
