import type { FastifyInstance } from 'fastify';
import { runInBackground } from '../../background.js';
import { processDueBureauQueries } from './bureau.js';
import { processDueConsentAudits } from './consent-audit.js';

/**
 * Retries slow or failed bureau queries, and sends the consent audits a bureau is owed, in the
 * background (BUREAU_WORKER_INTERVAL_MS; 0 turns it off, as tests do to drive it by hand). Every
 * replica may run it: the claims keep one query or audit from running twice.
 */
export function startBureauWorker(app: FastifyInstance): void {
  runInBackground(app, 'bureau', app.config.BUREAU_WORKER_INTERVAL_MS, async () => {
    const queries = await processDueBureauQueries(app);
    return queries + (await processDueConsentAudits(app));
  });
}
