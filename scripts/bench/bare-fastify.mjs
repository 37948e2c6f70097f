// The bare-Fastify anchors of `npm run bench`: the same Fastify as the product, one route answering
// a constant JSON the size of the public config. What no route of ours can beat on this machine.
// LOG_LEVEL=off: no logger at all (the limit, issue 35). Otherwise the product's request logging:
// pino at that level, one line per request when it is answered, with the request, the status and
// the time, to the same sink (apps/api/src/app.ts); printed beside the limit.
// BARE_FEATURES (comma-separated, for `npm run bench:ladder`): the product's request path added one
// part at a time, each with the library and the options the product uses, nothing of ours:
// `request-id` (a UUID per request), `security-headers` (the API answer's headers, one onSend
// callback), `rate-limit` (@fastify/rate-limit, global, in memory), `load-shedding`
// (@fastify/under-pressure's checks), `metrics` (prom-client's counter and histogram, one onResponse
// callback).
import { randomUUID } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import Fastify, { LogController } from 'fastify';

class OneLinePerRequest extends LogController {
  incomingRequest() {}

  requestCompleted(error, request, reply) {
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

const body = JSON.parse(process.env.BARE_BODY ?? '{"data":{}}');
const level = process.env.LOG_LEVEL ?? 'info';
const features = new Set((process.env.BARE_FEATURES ?? '').split(',').filter(Boolean));
const app = Fastify({
  ...(level === 'off' ? { logger: false } : { logger: { level }, logController: new OneLinePerRequest() }),
  ...(features.has('request-id') ? { genReqId: () => randomUUID() } : {}),
});

if (features.has('security-headers')) {
  const headers = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'permissions-policy': 'camera=(), geolocation=(), microphone=()',
  };
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
if (features.has('rate-limit')) {
  const { default: rateLimit } = await import('@fastify/rate-limit');
  await app.register(rateLimit, {
    global: true,
    max: 100_000_000,
    timeWindow: 60_000,
    // As the product: the limit's headers only on a refusal.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
  });
}
if (features.has('load-shedding')) {
  const { default: underPressure } = await import('@fastify/under-pressure');
  await app.register(underPressure, {
    // The product's defaults (apps/api/src/config.ts): the loop's delay and the heap checked, not the RSS.
    maxEventLoopDelay: 1000,
    maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    maxRssBytes: 0,
    pressureHandler: async () => {},
  });
}
if (features.has('metrics')) {
  const { Counter, Histogram, Registry } = await import('prom-client');
  const registers = [new Registry()];
  const requests = new Counter({
    name: 'requests',
    help: 'requests',
    labelNames: ['route', 'method', 'status'],
    registers,
  });
  const duration = new Histogram({ name: 'duration', help: 'duration', labelNames: ['route', 'method'], registers });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    duration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    done();
  });
}

app.get('/constant', async () => body);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
