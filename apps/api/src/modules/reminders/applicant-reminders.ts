import { COUNTRY_MESSAGING, type NextStep } from '@provee/domain';
import type { Config } from '../../config.js';
import type { AppCipher } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import { appendAuditEvent } from '../audit/index.js';
import {
  enqueueMessage,
  optedOut,
  type MessageDeps,
  type MessagePurpose,
  type QueuedMessage,
} from '../messaging/index.js';
import { findUserById } from '../users/index.js';
import { newLinkToken } from '../signing/index.js';
import { dueReminder } from './schedule.js';
import {
  dueApplications,
  expireResumeLinks,
  findReminder,
  insertReminder,
  markCameBack,
  setReminderMessage,
  stopReminders,
} from './reminders.store.js';

export interface ReminderDeps extends Pick<MessageDeps, 'jobs'> {
  db: Db;
  clock: () => Date;
  cipher: AppCipher;
  config: Config;
}

/** The minutes after the last step at which reminders go: REMINDER_DELAYS_MINUTES, or the country's. */
export const reminderDelays = (config: Pick<Config, 'REMINDER_DELAYS_MINUTES' | 'COUNTRY'>) =>
  config.REMINDER_DELAYS_MINUTES ?? COUNTRY_MESSAGING[config.COUNTRY].reminderDelaysMinutes;

const baseUrl = (config: Pick<Config, 'PUBLIC_BASE_URL' | 'PORT'>) =>
  config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`;

/** The purpose of a reminder's message (modules/messaging asks it before each try). */
const REMINDER_MESSAGE = 'application-reminder';

/**
 * A reminder is worth sending while the applicant is still where they stopped, has not come back
 * and has not opted out meanwhile.
 */
export function reminderMessages(deps: Pick<ReminderDeps, 'db' | 'cipher'>): MessagePurpose {
  return {
    name: REMINDER_MESSAGE,
    async stillWanted(id) {
      const reminder = await findReminder(deps.db, id);
      const user = reminder && (await findUserById(deps.db, reminder.applicationId));
      if (!reminder || !user || reminder.cameBackAt) return false;
      if (user.nextStep !== reminder.step || user.status !== reminder.status) return false;
      return !(await optedOut(deps, user.phoneE164));
    },
  };
}

/**
 * The applicants' reminders due now (the sweep, outside quiet hours): who came back is marked first
 * (that ends their reminders); then each application stopped long enough, not opted out, gets the
 * reminder due, with its resume link, its audit event and its message in one transaction.
 * `only`: one application's (the dev tools' time machine).
 */
export async function sendApplicantReminders(deps: ReminderDeps, only?: string): Promise<QueuedMessage[]> {
  const now = deps.clock();
  await markCameBack(deps.db, now);
  const delays = reminderDelays(deps.config);
  if (delays.length === 0) return [];
  const due = await dueApplications(deps.db, now, delays, only);
  const queued: QueuedMessage[] = [];
  for (const application of due) {
    const number = dueReminder({
      stoppedAt: application.stoppedAt,
      now,
      delaysMinutes: delays,
      lastSent: application.lastSent,
    });
    if (number === null) continue;
    if (await optedOut(deps, application.phoneE164)) {
      // Left out of the next sweeps too (the opt-out is kept by a hash the query cannot read).
      await stopReminders(deps.db, [application.id], 'opted-out', now);
      continue;
    }
    const message = await deps.db.transaction(async (tx) => {
      const token = newLinkToken();
      // This reminder's link replaces the earlier ones.
      await expireResumeLinks(tx, application.id, now);
      const reminder = await insertReminder(tx, {
        applicationId: application.id,
        number,
        step: application.nextStep,
        status: application.status,
        sentAt: now,
        resumeTokenSha256: token.sha256,
        resumeExpiresAt: new Date(now.getTime() + deps.config.RESUME_LINK_TTL_SECONDS * 1000),
      });
      // Another sweep sent this one first.
      if (!reminder) return null;
      await appendAuditEvent(tx, {
        applicationId: application.id,
        actor: 'system',
        type: 'reminder.sent',
        payload: { number, step: application.nextStep as NextStep },
        at: now,
      });
      const url = `${baseUrl(deps.config)}/r/${token.token}`;
      const sent = await enqueueMessage(deps, tx, {
        kind: 'reminder',
        to: application.phoneE164,
        body: `${deps.config.APP_NAME}: tu solicitud de crédito quedó a medias. Continúa donde te quedaste: ${url} Si no quieres más recordatorios, responde BAJA.`,
        variables: [url],
        applicationId: application.id,
        about: { kind: REMINDER_MESSAGE, id: reminder.id },
      });
      await setReminderMessage(tx, reminder.id, sent.messageId);
      return sent;
    });
    if (message) queued.push(message);
  }
  return queued;
}
