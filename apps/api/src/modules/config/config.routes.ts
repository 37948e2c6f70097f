import { publicConfigSchema } from '@provee/domain';
import type { App } from '../../types.js';
import { publicConfig } from './public-config.js';

export async function configRoutes(app: App): Promise<void> {
  // The same for every request of this process: validated and serialised once.
  const body = publicConfigSchema.parse(publicConfig(app.config));
  const json = JSON.stringify(body);
  app.get(
    '/v1/config',
    {
      schema: {
        summary: 'Configuración pública: país, nombre de la app y enlaces',
        response: { 200: publicConfigSchema },
      },
    },
    // The JSON made above goes out as it is: no serialisation per request.
    async (_request, reply) => {
      reply
        .header('cache-control', 'public, max-age=300')
        .type('application/json; charset=utf-8')
        .serializer(() => json);
      return body;
    },
  );
}
