// The bare-Fastify limit of `npm run bench`: the same Fastify and the same request logging as the
// product (pino at info, one line per request when it is answered, with the request, the status and
// the time, to the same sink; apps/api/src/app.ts), one route answering a constant JSON the size of
// the public config. What no route of ours can beat on this machine.
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
const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' }, logController: new OneLinePerRequest() });
app.get('/constant', async () => body);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
