import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const routesOf = new WeakMap<FastifyInstance, RouteOptions[]>();

/** Every route the app registered (the document shows those not hidden): contract.test.ts walks them. */
export function registeredRoutes(app: FastifyInstance): readonly RouteOptions[] {
  return routesOf.get(app) ?? [];
}

/**
 * The OpenAPI document is generated from the route schemas, which `register` takes from the
 * contract's call values (packages/domain/src/contract); GET /api/openapi.json serves it.
 */
export async function registerOpenApi(app: FastifyInstance, appName: string): Promise<void> {
  const routes: RouteOptions[] = [];
  routesOf.set(app, routes);
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${appName} API`, version: '1.0.0', description: 'API de registro y operaciones.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          partnerKey: { type: 'http', scheme: 'bearer', description: 'Llave de la API del prestamista (pvk_…)' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
}
