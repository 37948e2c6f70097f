import { reportClientErrorCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import { maskUrl } from '../../logger.js';
import type { App } from '../../types.js';
import { recordClientError } from './client-errors.store.js';

/** Failed calls the web app reports (SPEC §8): stored for the team and logged. */
export async function clientErrorRoutes(app: App): Promise<void> {
  register(
    app,
    reportClientErrorCall,
    {
      // A reported message may span lines (a stack, a multi-line error): the one field allowed to.
      config: { rateLimit: { max: 60, timeWindow: 60_000 }, multilineFields: ['message'] },
      summary: 'Reporte de una llamada fallida desde la app web',
    },
    async (request, reply) => {
      const { body } = request;
      // The path may carry phone numbers (/{phone}/{userId}/…): store and log it masked.
      const path = maskUrl(body.path);
      await recordClientError(app.db, {
        level: body.level,
        method: body.method,
        path,
        status: body.status,
        code: body.code,
        message: body.message,
        requestId: body.request_id,
        userAgent: request.headers['user-agent']?.slice(0, 300),
        ip: request.ip,
        // The app's clock, as every row the retention schedule ages (rule client-errors-30d).
        createdAt: app.clock(),
      });
      const entry = {
        client: { method: body.method, path, status: body.status, errorCode: body.code, requestId: body.request_id },
      };
      if (body.level === 'error') request.log.error(entry, 'client reported a failed call');
      else request.log.warn(entry, 'client reported a failed call');
      return reply.status(204).send(null);
    },
  );
}
