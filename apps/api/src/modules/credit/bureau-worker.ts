import type { FastifyInstance } from 'fastify';
import { runInBackground } from '../../background.js';
import { processDueBureauQueries } from './bureau.js';

/**
 * Retries slow or failed bureau queries in the background (BUREAU_WORKER_INTERVAL_MS; 0 turns it
 * off, as tests do to drive it by hand). Every replica may run it: the claim in
 * runBureauAttempt keeps one query from running twice.
 */
export function startBureauWorker(app: FastifyInstance): void {
  runInBackground(app, 'bureau', app.config.BUREAU_WORKER_INTERVAL_MS, () => processDueBureauQueries(app));
}
