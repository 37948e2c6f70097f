import { inQuietHours } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import type { JobKind } from '../jobs/index.js';
import { MESSAGE_SEND_JOB } from '../messaging/index.js';
import { sendApplicantReminders } from './applicant-reminders.js';
import { sendLinkReminders } from './link-reminders.js';

export const REMINDERS_JOB = 'reminders';

/**
 * Every minute, once for all the processes on the database: the reminders due, unless it is quiet
 * hours in the country (21:00–08:00), when they wait for the morning's first sweep.
 */
export function remindersJob(app: FastifyInstance): JobKind<Record<string, never>> {
  return {
    name: REMINDERS_JOB,
    retryLimit: 0,
    expireInSeconds: 120,
    cron: '* * * * *',
    async run() {
      if (inQuietHours(app.config.COUNTRY, app.clock())) return;
      const queued = [...(await sendApplicantReminders(app)), ...(await sendLinkReminders(app))];
      if (queued.length > 0) app.jobs.wake(MESSAGE_SEND_JOB);
    },
  };
}
