import type { FastifyInstance } from 'fastify';
import { runInBackground } from '../../background.js';
import { processVerifiedRemoteConsents } from './remote-consent.js';

/** Records guarantors' remote consents whose message arrived with nobody on the page (bureau worker's interval). */
export function startRemoteConsentWorker(app: FastifyInstance): void {
  runInBackground(app, 'remote-consent', app.config.BUREAU_WORKER_INTERVAL_MS, () =>
    processVerifiedRemoteConsents(app),
  );
}
