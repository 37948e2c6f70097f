// The bare-Fastify anchors of `npm run bench`: the same Fastify as the product, one route answering
// a constant JSON the size of the public config. What no route of ours can beat on this machine.
// LOG_LEVEL=off: no logger at all (the limit, issue 35). Otherwise the product's request logging:
// pino at that level, one line per request when it is answered, with the request, the status and
// the time, to the same sink (apps/api/src/app.ts); printed beside the limit.
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
const app = Fastify(
  level === 'off' ? { logger: false } : { logger: { level }, logController: new OneLinePerRequest() },
);
app.get('/constant', async () => body);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
