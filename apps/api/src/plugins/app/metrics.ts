import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { httpDuration, httpRequests, registry } from '../../observability/metrics.js';
import { ANSWERS_UNDER_PRESSURE } from '../external/load-shedding.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** What a request's route is called in the metrics: its template, never the path a person typed. */
function routeOf(url: string | undefined): string {
  // The SPA's pages and unknown paths go to the not-found handler: one label for all of them.
  return url ?? 'unmatched';
}

async function metricsText(): Promise<string> {
  return registry.metrics();
}

/**
 * HTTP metrics for every request (one onResponse hook: a counter and a histogram by route template,
 * method and status), and the registry's text for Prometheus: at GET /metrics with the bearer
 * METRICS_TOKEN, and on METRICS_HOST:METRICS_PORT when set (a plain HTTP server of its own, started
 * when the app is ready and closed with it). Never shed: a scrape must see the pressure.
 */
export function registerMetrics(app: FastifyInstance, config: Config): void {
  // A callback hook: no promise per answer on the path every request takes.
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request.routeOptions.url);
    if (route !== '/metrics') {
      const method = request.method;
      httpRequests.inc({ route, method, status: String(reply.statusCode) });
      httpDuration.observe({ route, method }, reply.elapsedTime / 1000);
    }
    done();
  });

  const token = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : undefined;
  app.get(
    '/metrics',
    { logLevel: 'warn', schema: { hide: true }, config: { rateLimit: false, ...ANSWERS_UNDER_PRESSURE } },
    async (request, reply) => {
      const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!token || !given || !timingSafeEqual(digest(given), token))
        throw new AppError(401, 'UNAUTHORIZED', 'No tienes permiso para esta operación.');
      return reply.type(registry.contentType).send(await metricsText());
    },
  );

  if (config.METRICS_PORT === undefined) return;
  let server: Server | undefined;
  // When the app is ready, before it listens: a port taken or refused stops the start with its error
  // (an onListen hook's error would only be logged, leaving a process without its metrics).
  app.addHook('onReady', async () => {
    server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url !== '/metrics') {
        response.writeHead(404).end();
        return;
      }
      metricsText().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics not collected');
          response.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject).listen(config.METRICS_PORT, config.METRICS_HOST, () => {
        server!.off('error', reject);
        resolve();
      });
    });
    // Later errors (a client's broken connection) are logged, never an uncaught exception.
    server.on('error', (error) => app.log.error({ err: error }, 'metrics server error'));
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
}
