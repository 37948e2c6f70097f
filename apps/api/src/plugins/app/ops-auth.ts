import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();
const matches = (given: string, expected: Buffer) => timingSafeEqual(digest(given), expected);

/**
 * Every operations route needs the x-api-key header (SPEC §7, operations service). The web
 * app's key is public by nature (it ships to browsers), so it opens only the routes marked
 * `webApiKey`, and those also check the caller's token (docs/decisions/005).
 */
export function requireApiKey(app: FastifyInstance, keys: { ops: string; web: string }): void {
  const ops = digest(keys.ops);
  const web = digest(keys.web);
  app.addHook('onRequest', async (request) => {
    const given = request.headers['x-api-key'];
    if (typeof given === 'string') {
      if (matches(given, ops)) return;
      if (request.routeOptions.config.webApiKey && matches(given, web)) return;
    }
    request.log.warn('operations call without a valid api key');
    throw new AppError(401, 'INVALID_API_KEY', 'Falta la llave de API o no es válida.');
  });
}

/** Whether the request came with the operations key (not the web app's public one). */
export function hasOpsKey(headers: Record<string, unknown>, opsKey: string): boolean {
  const given = headers['x-api-key'];
  return typeof given === 'string' && matches(given, digest(opsKey));
}
