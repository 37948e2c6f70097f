import { exportQuery } from '@provee/domain';
import { z } from 'zod';
import { errorResponseSchema } from '../../errors.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { exportCsv, exportFilename, type ExportName } from './exports.service.js';
import { reportRange } from './funnel.service.js';

const schema = {
  querystring: exportQuery,
  response: {
    200: { description: 'CSV (UTF-8 con BOM)', content: { 'text/csv': { schema: z.string() } } },
    400: errorResponseSchema,
    401: errorResponseSchema,
    403: errorResponseSchema,
  },
};

/** CSV downloads of applications and of bureau consents (analysts and admins), streamed. */
export async function exportRoutes(app: App): Promise<void> {
  const route = (name: ExportName) =>
    app.get(
      `/exports/${name}.csv`,
      { onRequest: staffOnly('readReports', { stepUp: true }), schema },
      async (request, reply) => {
        const range = reportRange(request.query.from, request.query.to);
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${exportFilename(name, range)}"`)
            // A stream is sent as it is read: no serializer runs for it (the schema documents the type).
            .send(exportCsv(app, request.staffMember!, name, range) as unknown as string)
        );
      },
    );
  route('applications');
  route('consents');
}
