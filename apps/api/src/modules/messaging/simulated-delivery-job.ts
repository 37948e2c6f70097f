import type { FastifyInstance } from 'fastify';
import { simulatedStatusBody, type SimulatedReport } from '../../providers/message-webhooks/index.js';
import { SIGNATURE_HEADER } from '../../providers/simulator-signature.js';
import type { JobKind } from '../jobs/index.js';

/**
 * The simulators' delivery reports (a fresh start's): a job of the queue per simulated message,
 * which posts its statuses through the real status webhook (same route, same signature check,
 * same processing), as Twilio's callbacks come. A process that runs no jobs simulates no delivery.
 */
export const SIMULATED_DELIVERY_JOB = 'simulated-delivery';

export function simulatedDeliveryJob(app: FastifyInstance): JobKind<SimulatedReport> {
  // A report still running when the app starts closing has no webhook left to post to: it ends quietly.
  let closed = false;
  app.addHook('preClose', async () => {
    closed = true;
  });
  return {
    name: SIMULATED_DELIVERY_JOB,
    retryLimit: 3,
    expireInSeconds: 30,
    concurrency: 2,
    async run(report) {
      const sign = app.messageWebhooks.sign;
      if (!sign) return;
      for (const status of report.statuses) {
        if (closed) return;
        const raw = simulatedStatusBody(report.providerMessageId, status);
        const answer = await app.inject({
          method: 'POST',
          url: report.url,
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(raw) },
          payload: raw,
        });
        if (answer.statusCode !== 200 || (answer.json() as { data?: { recorded?: boolean } }).data?.recorded !== true)
          throw new Error(`the status webhook answered ${answer.statusCode} without recording the report`);
      }
    },
  };
}

/** Hands each simulated report to the queue (outside any transaction: the message was sent). */
export function queueSimulatedReports(app: FastifyInstance): (report: SimulatedReport) => Promise<void> {
  return async (report) => {
    try {
      await app.jobs.enqueue(app.db, SIMULATED_DELIVERY_JOB, report);
      app.jobs.wake(SIMULATED_DELIVERY_JOB);
    } catch (error) {
      // The message went; only its simulated status is lost.
      app.log.warn({ err: error }, 'simulated delivery report not queued');
    }
  };
}
