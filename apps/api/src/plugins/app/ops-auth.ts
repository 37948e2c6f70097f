import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Every operations route needs the x-api-key header (SPEC §7, operations service). */
export function requireApiKey(app: FastifyInstance, apiKey: string): void {
  const expected = digest(apiKey);
  app.addHook('onRequest', async (request) => {
    const given = request.headers['x-api-key'];
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      request.log.warn('operations call without a valid api key');
      throw new AppError(401, 'INVALID_API_KEY', 'Falta la llave de API o no es válida.');
    }
  });
}
