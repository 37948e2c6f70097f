import { publicConfigSchema } from '@provee/domain';
import type { App } from '../../types.js';
import { publicConfig } from './public-config.js';

export async function configRoutes(app: App): Promise<void> {
  const body = publicConfig(app.config);
  app.get(
    '/v1/config',
    {
      schema: {
        summary: 'Configuración pública: país, nombre de la app y enlaces',
        response: { 200: publicConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return body;
    },
  );
}
