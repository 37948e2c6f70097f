import type { MessageKind } from '@provee/domain';
import type { FieldCipher } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import type { JobKind, JobQueue } from '../jobs/index.js';
import { enqueueMessageJob, MESSAGE_SEND_JOB, type MessageAbout, type MessageDeps } from './message-job.js';
import { insertMessage } from './messages.store.js';

/** The kind of job every message was before issue 34: number and text sealed in the job's data. */
export const LEGACY_SMS_JOB = 'sms-send';

/** What each purpose's messages were. */
const KIND_OF: Record<string, MessageKind> = {
  'one-time-code': 'phone-code',
  'aval-invitation': 'guarantor-invitation',
  'signing-link': 'signing-link',
};

/**
 * The sms-send jobs a database may still hold from before messages had rows (an outage across the
 * upgrade): each becomes a message row (SMS, as it was written; its purpose still asked before it
 * goes) and a message-send job, in one transaction, under the job's own id so a retry adds nothing.
 */
export function legacySmsJob(
  deps: { db: Db; cipher: FieldCipher; clock: () => Date; jobs: Pick<JobQueue, 'wake'> } & Pick<MessageDeps, 'config'>,
): JobKind<{ to: string; body: string; about?: MessageAbout }> {
  return {
    name: LEGACY_SMS_JOB,
    retryLimit: 5,
    expireInSeconds: 60,
    async run(data, { id }) {
      const now = deps.clock();
      const sealed = {
        to: deps.cipher.decrypt(data.to),
        body: deps.cipher.decrypt(data.body),
        variables: [] as string[],
      };
      await deps.db.transaction(async (tx) => {
        const row = await insertMessage(
          tx,
          {
            ...(id ? { id } : {}),
            kind: KIND_OF[data.about?.kind ?? ''] ?? 'phone-code',
            channel: 'sms',
            fallbacks: [],
            provider: deps.config.SMS_PROVIDER,
            sealed: deps.cipher.encrypt(JSON.stringify(sealed)),
            aboutKind: data.about?.kind ?? null,
            aboutId: data.about?.id ?? null,
            createdAt: now,
            statusAt: now,
          },
          { ifNew: true },
        );
        if (row) await enqueueMessageJob(tx, row.id);
      });
      deps.jobs.wake(MESSAGE_SEND_JOB);
    },
  };
}
