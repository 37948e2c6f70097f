import type { FastifyInstance } from 'fastify';
import type { JobKind } from '../jobs/index.js';
import { eraseApplication, LegalHoldError } from './erase-application.js';
import { runRetentionSchedule, type RetentionDeps } from './retention-run.js';

export const RETENTION_JOB = 'retention-schedule';

/** The schedule's dependencies from the app: erasure as the back office's, with the legal term's option. */
export function retentionDeps(
  app: Pick<FastifyInstance, 'db' | 'clock' | 'cipher' | 'config' | 'log'>,
  batchSize?: number,
): RetentionDeps {
  return {
    db: app.db,
    clock: app.clock,
    country: app.config.COUNTRY,
    log: app.log,
    batchSize,
    async erase(tx, applicationId, { pastLegalTerm }) {
      try {
        const result = await eraseApplication({ cipher: app.cipher, clock: app.clock }, tx, applicationId, 'system', {
          contractTermPassed: pastLegalTerm,
        });
        return result.erased ? 'erased' : 'already';
      } catch (error) {
        if (error instanceof LegalHoldError) return 'held';
        throw error;
      }
    },
  };
}

/**
 * The retention schedule (docs/PRIVACY.md), daily on the queue's schedule, once for all processes.
 * A run that fails part-way is tried again: what it erased is not due any more, the rest still is.
 */
export function retentionScheduleJob(
  app: Pick<FastifyInstance, 'db' | 'clock' | 'cipher' | 'config' | 'log'>,
): JobKind<object> {
  return {
    name: RETENTION_JOB,
    // 03:15 UTC: night in Mexico and the Dominican Republic, away from the 10-minute sweeps' turn.
    cron: '15 3 * * *',
    retryLimit: 2,
    // Bounded batches, each its own transaction: an hour is far more than a day's due rows take.
    expireInSeconds: 3600,
    async run() {
      await runRetentionSchedule(retentionDeps(app));
    },
  };
}
