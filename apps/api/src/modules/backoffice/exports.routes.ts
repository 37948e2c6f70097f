import { exportApplicationsCall, exportConsentsCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { exportCsv, exportFilename, type ExportName } from './exports.service.js';
import { reportRange } from './report-range.js';

const calls = { applications: exportApplicationsCall, consents: exportConsentsCall } as const;

/** CSV downloads of applications and of bureau consents (analysts and admins), streamed. */
export async function exportRoutes(app: App): Promise<void> {
  const route = (name: ExportName) =>
    register(app, calls[name], { onRequest: staffOnly('readReports', { stepUp: true }) }, async (request, reply) => {
      const range = reportRange(request.query.from, request.query.to);
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${exportFilename(name, range)}"`)
          // A stream is sent as it is read: no serializer runs for it (the call documents the type).
          .send(exportCsv(app, request.staffMember!, name, range) as unknown as string)
      );
    });
  route('applications');
  route('consents');
}
