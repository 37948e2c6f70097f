import type { FastifyInstance } from 'fastify';
import type { JobKind } from '../jobs/index.js';
import { forgetSpentCounters } from './login-failures.js';

/**
 * Login counters whose window and lock are over hold nothing: removed every 10 minutes by a job
 * of the queue's schedule (once for all the processes), so the table does not only grow.
 */
export function loginCounterSweepJob(app: Pick<FastifyInstance, 'db' | 'clock'>): JobKind<object> {
  return {
    name: 'staff-login-counters',
    cron: '*/10 * * * *',
    retryLimit: 2,
    expireInSeconds: 60,
    async run() {
      await forgetSpentCounters(app.db, app.clock());
    },
  };
}
