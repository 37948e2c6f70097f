import { publicConfigCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { publicConfig } from './public-config.js';

export async function configRoutes(app: App): Promise<void> {
  // The same for every request of this process: validated and serialised once.
  const body = publicConfigCall.responses[200].parse(publicConfig(app.config));
  const json = JSON.stringify(body);
  register(
    app,
    publicConfigCall,
    { summary: 'Configuración pública: país, nombre de la app y enlaces' },
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
