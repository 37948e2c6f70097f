import { z } from 'zod';
import type { App } from '../../types.js';

/** The caller's address as this server sees it (behind a proxy only with TRUST_PROXY=true). */
export async function networkRoutes(app: App): Promise<void> {
  app.get(
    '/v1/ip',
    { schema: { summary: 'Dirección IP del cliente', response: { 200: z.object({ ip: z.string() }) } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { ip: request.ip };
    },
  );
}
