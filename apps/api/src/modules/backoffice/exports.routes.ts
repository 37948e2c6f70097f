import { pipeline, type Readable } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { exportApplicationsCall, exportConsentsCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import { chooseEncoding } from '../../plugins/external/spa.js';
import type { App } from '../../types.js';
import { staffOnly } from '../staff/index.js';
import { exportCsv, exportFilename, type ExportName } from './exports.service.js';
import { reportRange } from './report-range.js';

const calls = { applications: exportApplicationsCall, consents: exportConsentsCall } as const;

/**
 * The compression of a stream as it is read, in zlib's threads: fast settings, since the CSV is
 * made faster than a stronger setting compresses it (docs/PERFORMANCE.md, the back office).
 */
const COMPRESSORS = {
  br: () =>
    createBrotliCompress({
      params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 1 },
    }),
  gzip: () => createGzip({ level: 1 }),
};

/** CSV downloads of applications and of bureau consents (analysts and admins), streamed and compressed. */
export async function exportRoutes(app: App): Promise<void> {
  const route = (name: ExportName) =>
    register(app, calls[name], { onRequest: staffOnly('readReports', { stepUp: true }) }, async (request, reply) => {
      const range = reportRange(request.query.from, request.query.to);
      let csv: Readable = exportCsv(app, request.staffMember!, name, range);
      const encoding = chooseEncoding(request.headers['accept-encoding']);
      if (encoding !== 'identity') {
        // pipeline: a download cut short destroys the compressor, which ends the CSV's reading.
        csv = pipeline(csv, COMPRESSORS[encoding](), () => {});
        reply.header('content-encoding', encoding);
      }
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('vary', 'accept-encoding')
          .header('content-disposition', `attachment; filename="${exportFilename(name, range)}"`)
          // A stream is sent as it is read: no serializer runs for it (the call documents the type).
          .send(csv as unknown as string)
      );
    });
  route('applications');
  route('consents');
}
