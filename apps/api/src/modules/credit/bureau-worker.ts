import type { FastifyInstance } from 'fastify';
import { processDueBureauQueries } from './credit.service.js';

/**
 * Retries slow or failed bureau queries in the background (BUREAU_WORKER_INTERVAL_MS; 0 turns it
 * off, as tests do to drive it by hand). Every replica may run it: the claim in
 * runBureauAttempt keeps one query from running twice.
 */
export function startBureauWorker(app: FastifyInstance): void {
  const interval = app.config.BUREAU_WORKER_INTERVAL_MS;
  if (interval <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running = running
        .then(() => processDueBureauQueries(app))
        .catch((error: unknown) => app.log.error({ err: error }, 'bureau worker tick failed'));
    }, interval);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
