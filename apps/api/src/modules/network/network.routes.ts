import { clientIpCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';

/** The caller's address as this server sees it (behind a proxy only with TRUST_PROXY=true). */
export async function networkRoutes(app: App): Promise<void> {
  register(app, clientIpCall, { summary: 'Dirección IP del cliente' }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ip: request.ip };
  });
}
