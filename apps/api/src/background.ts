import type { FastifyInstance } from 'fastify';

/**
 * A job the server runs every `intervalMs` (0 turns it off, as tests do to drive it by hand), one
 * run at a time, finished before the server closes. Every replica may run it: the jobs claim their
 * rows with guarded updates.
 */
export function runInBackground(
  app: FastifyInstance,
  name: string,
  intervalMs: number,
  job: () => Promise<unknown>,
): void {
  if (intervalMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running = running
        .then(job)
        .catch((error: unknown) => app.log.error({ err: error, job: name }, 'background job failed'));
    }, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
