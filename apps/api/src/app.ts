import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { notFoundEnvelope, registerErrorHandling } from './errors.js';
import { loggerOptions } from './logger.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { configRoutes } from './modules/config/config.routes.js';
import { publicConfig } from './modules/config/public-config.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { DEFAULT_WEB_DIST_DIR } from './paths.js';
import { requireApiKey } from './plugins/app/ops-auth.js';
import { registerOpenApi } from './plugins/external/openapi.js';
import { registerSecurity } from './plugins/external/security.js';
import { registerSpa } from './plugins/external/spa.js';
import type { App } from './types.js';

z.config(z.locales.es());

export interface BuildOptions {
  /** Where logs go; tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
}

/** Builds the whole product around an open database: SPA at /, registration API at /api, operations at /ops. */
export async function buildApp(config: Config, database: Database, options: BuildOptions = {}): Promise<App> {
  const logger = loggerOptions(config.LOG_LEVEL);
  const app = Fastify({
    logger: options.logStream ? { ...logger, stream: options.logStream } : logger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);

  await registerSecurity(app, config);
  await registerOpenApi(app, config.APP_NAME);

  await app.register(
    async (api: App) => {
      await api.register(healthRoutes);
      await api.register(configRoutes);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api' },
  );
  await app.register(
    async (ops: App) => {
      requireApiKey(ops, config.OPS_API_KEY);
      await ops.register(auditRoutes);
    },
    { prefix: '/ops' },
  );

  const spa = await registerSpa(app, config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST_DIR, publicConfig(config));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = /^\/(api|ops)(\/|$)/.test(path);
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (spa && wantsPage && !isApi && !path.startsWith('/assets/')) return spa.sendIndex(reply);
    return reply.status(404).send(notFoundEnvelope());
  });

  return app;
}
