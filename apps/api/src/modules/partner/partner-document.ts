import { APPLICATION_EVENT_TYPES, WEBHOOK_RETRY_SECONDS } from '@provee/domain';
import type { FastifyInstance } from 'fastify';

type Document = { paths?: Record<string, unknown>; components?: Record<string, unknown> } & Record<string, unknown>;

const DESCRIPTION = `API para los sistemas del prestamista. Cada llamada lleva una llave de la API
(\`Authorization: Bearer pvk_…\`) que un administrador crea en el back office con sus permisos.

Webhooks: cada evento de \`GET /partner/v1/events\` se envía también por POST a los destinos que
un administrador configura, según Standard Webhooks (https://www.standardwebhooks.com): cabeceras
\`webhook-id\` (el \`id\` del evento), \`webhook-timestamp\` y \`webhook-signature\` (\`v1,<HMAC-SHA256
en base64>\` con el secreto \`whsec_…\` del destino; durante una rotación, dos firmas). Verifíquelas
con una biblioteca de Standard Webhooks. Entrega al menos una vez, en orden de \`sequence\` por
solicitud; reintentos tras ${WEBHOOK_RETRY_SECONDS.join(', ')} segundos. Tipos: ${APPLICATION_EVENT_TYPES.join(', ')}.`;

/**
 * The partner API's own OpenAPI document: the /partner/v1 operations of the app's document (the
 * same schemas, from the contract), with the partner key as its security scheme. The typed client
 * the API tests use is generated from it (test/partner-client), so it cannot drift from the routes.
 */
export function partnerDocument(app: FastifyInstance): Document {
  const full = app.swagger() as Document;
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {}).filter(([path]) => path.startsWith('/partner/v1/')),
  );
  return {
    ...full,
    info: { title: `${app.config.APP_NAME} — API del prestamista`, version: '1.0.0', description: DESCRIPTION },
    paths,
    components: {
      ...full.components,
      securitySchemes: { partnerKey: { type: 'http', scheme: 'bearer', description: 'Llave de la API (pvk_…)' } },
    },
  };
}
