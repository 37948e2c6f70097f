import type { Db } from '../../db/client.js';
import type { DeliveryReport } from '../../providers/message-webhooks/index.js';
import type { JobQueue } from '../jobs/index.js';
import { enqueueMessageJob, insertFallback, MESSAGE_SEND_JOB } from './message-job.js';
import { advances, isFailure, lockMessage, lockMessageByProviderId, setStatus } from './messages.store.js';

/**
 * A provider's report of a message's delivery (its status callback), naming the message by our id
 * (`messageId`, from the signed callback URL) or by the provider's. The status only moves forward
 * (reports may come out of order or twice, or before the provider's answer reached the sender); a
 * failure moves the message to its next channel (WhatsApp failed → SMS) in the same transaction.
 * Null when no message of ours is named.
 */
export async function recordDelivery(
  deps: { db: Db; clock: () => Date; jobs: Pick<JobQueue, 'wake'> },
  provider: string,
  report: DeliveryReport,
  messageId?: string,
): Promise<{ fallback: boolean } | null> {
  const now = deps.clock();
  const outcome = await deps.db.transaction(async (tx) => {
    const row = messageId
      ? await lockMessage(tx, messageId)
      : await lockMessageByProviderId(tx, provider, report.providerMessageId);
    if (!row || row.provider !== provider) return null;
    // Named by our id, it must be the message the provider means.
    if (row.providerMessageId && row.providerMessageId !== report.providerMessageId) return null;
    if (!advances(row.status as never, report.status)) return { fallback: false };
    const failed = isFailure(report.status);
    const fallback = failed ? await insertFallback(tx, row, now) : null;
    // The sealed text stays while the message may still fail over to another channel.
    const keepSealed = !failed && (report.status === 'queued' || report.status === 'sent');
    await setStatus(tx, row.id, { status: report.status, errorCode: report.errorCode, at: now, keepSealed });
    if (fallback) await enqueueMessageJob(tx, fallback.id);
    return { fallback: !!fallback };
  });
  if (outcome?.fallback) deps.jobs.wake(MESSAGE_SEND_JOB);
  return outcome;
}
