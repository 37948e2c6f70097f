import type { FastifyInstance } from 'fastify';
import { runInBackground } from '../../background.js';
import { answerDueSimulatedChecks } from './answers.js';
import { identityDeps } from './deps.js';

/** The verifier simulator answers due checks in the background (IDENTITY_WORKER_INTERVAL_MS; 0 = off). */
export function startIdentityWorker(app: FastifyInstance): void {
  if (app.config.IDENTITY_PROVIDER !== 'simulator') return;
  const deps = identityDeps(app);
  runInBackground(app, 'identity-simulator', app.config.IDENTITY_WORKER_INTERVAL_MS, () =>
    answerDueSimulatedChecks(deps),
  );
}
