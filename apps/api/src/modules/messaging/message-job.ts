import { inQuietHours, REMINDER_KINDS, type MessageChannel, type MessageKind } from '@provee/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { FieldCipher } from '../../crypto.js';
import type { Db, Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { MessageWebhooks } from '../../providers/message-webhooks/index.js';
import { SmsError, type Accepted, type SmsProvider } from '../../providers/sms/index.js';
import type { WhatsAppProvider } from '../../providers/whatsapp/index.js';
import { enqueueJob, type JobKind, type JobQueue } from '../jobs/index.js';
import { channelsFor, type ChannelConfig } from './channel-policy.js';
import { firstTry, settleFirstTry, type FirstTry } from './first-tries.js';
import {
  endPending,
  findFallback,
  findMessage,
  insertMessage,
  isFailure,
  markAccepted,
  type MessageRow,
} from './messages.store.js';

/**
 * Every outgoing message is a row of outgoing_messages and a job of this kind naming it (decision
 * 030, 038): enqueued in the transaction that records what the message is for, woken at its commit,
 * tried on its kind's channels in order (WhatsApp first, SMS when it fails) and again with the
 * queue's back-off while the provider fails.
 */
export const MESSAGE_SEND_JOB = 'message-send';

/** What a message is for, when that can end before it is sent (a code replaced, a link revoked). */
export interface MessageAbout {
  /** The purpose's name (MessagePurpose.name). */
  kind: string;
  id: string;
}

/** The job's data: the message's row, where its number and text stay sealed. */
export interface MessageJobData {
  messageId: string;
}

/** What a kind of message is for, as the sending job asks it. */
export interface MessagePurpose {
  name: string;
  /** Whether the message is still worth sending (not a code replaced, spent or expired). */
  stillWanted(id: string): Promise<boolean>;
  /** The message will never be sent: what it was for gives back what it held (a code its limits). */
  notSent?(id: string): Promise<void>;
}

export interface MessageDeps {
  cipher: FieldCipher;
  clock: () => Date;
  jobs: Pick<JobQueue, 'wake' | 'runsHere'>;
  config: ChannelConfig & Pick<Config, 'SMS_SEND_WAIT_MS'>;
}

/** A message to send: what it is, to whom, its text (SMS) and its template's variables (WhatsApp). */
export interface OutgoingMessage {
  kind: MessageKind;
  /** E.164 */
  to: string;
  body: string;
  variables: string[];
  /** The application it concerns (the back office lists its messages). */
  applicationId?: string | null;
  about?: MessageAbout;
}

/** What is sealed in the row until the message is final. */
interface Sealed {
  to: string;
  body: string;
  variables: string[];
}

/** A message enqueued: its job and its row. */
export interface QueuedMessage {
  jobId: string;
  messageId: string;
}

/** Enqueues a message in the caller's transaction: it is sent only if that change commits. */
export async function enqueueMessage(
  deps: Pick<MessageDeps, 'cipher' | 'clock' | 'config'>,
  tx: Executor,
  message: OutgoingMessage,
): Promise<QueuedMessage> {
  const [channel, ...fallbacks] = channelsFor(deps.config, message.kind);
  const now = deps.clock();
  const sealed: Sealed = { to: message.to, body: message.body, variables: message.variables };
  const row = await insertMessage(tx, {
    applicationId: message.applicationId ?? null,
    kind: message.kind,
    channel: channel!,
    fallbacks,
    provider: deps.config.SMS_PROVIDER,
    sealed: deps.cipher.encrypt(JSON.stringify(sealed)),
    aboutKind: message.about?.kind ?? null,
    aboutId: message.about?.id ?? null,
    createdAt: now,
    statusAt: now,
  });
  return { messageId: row.id, jobId: await enqueueMessageJob(tx, row.id) };
}

export const enqueueMessageJob = (tx: Executor, messageId: string) =>
  enqueueJob<MessageJobData>(tx, MESSAGE_SEND_JOB, { messageId });

/**
 * The fallback of a message that failed on its channel: a row for the next channel, with the same
 * sealed text, in the caller's transaction. Null when no channel is left.
 */
export async function insertFallback(tx: Executor, row: MessageRow, at: Date): Promise<MessageRow | null> {
  const [channel, ...rest] = row.fallbacks as MessageChannel[];
  if (!channel || !row.sealed) return null;
  return insertMessage(tx, {
    applicationId: row.applicationId,
    kind: row.kind,
    channel,
    fallbacks: rest,
    provider: row.provider,
    sealed: row.sealed,
    aboutKind: row.aboutKind,
    aboutId: row.aboutId,
    fallbackOf: row.id,
    createdAt: at,
    statusAt: at,
  });
}

/**
 * After the commit: this process's workers take the message now, and the request waits up to
 * SMS_SEND_WAIT_MS for its first try ('queued' when this process runs no sender or the try takes
 * longer: the message follows from the queue).
 */
export async function deliverMessage(
  deps: Pick<MessageDeps, 'jobs' | 'config'>,
  queued: QueuedMessage,
): Promise<FirstTry> {
  if (!deps.jobs.runsHere(MESSAGE_SEND_JOB)) return 'queued';
  const outcome = firstTry(queued.jobId, deps.config.SMS_SEND_WAIT_MS);
  deps.jobs.wake(MESSAGE_SEND_JOB);
  return outcome;
}

/** The refusal of a message that could not be sent (the code screens show it). */
export const smsUnavailable = () =>
  new AppError(
    503,
    'SMS_UNAVAILABLE',
    'sms provider failed',
    'No pudimos enviar el SMS. Intenta de nuevo en un minuto.',
  );

/**
 * What is kept of a failure in the job's row (and shown to admins): the provider and its HTTP
 * status, never its message, which may quote the number.
 */
function keptError(provider: string, error: unknown): Error {
  if (error instanceof SmsError) {
    const status = /answered (\d{3})/.exec(error.message)?.[1];
    return new SmsError(`el proveedor de mensajes (${provider}) no envió el mensaje${status ? ` (${status})` : ''}`);
  }
  const kept = new Error(`error inesperado (${error instanceof Error ? error.name : typeof error})`);
  kept.name = error instanceof Error ? error.name : 'Error';
  return kept;
}

export interface SenderDeps {
  db: Db;
  /** COUNTRY: whose quiet hours hold reminders back. */
  config: Pick<Config, 'COUNTRY'>;
  cipher: FieldCipher;
  clock: () => Date;
  sms: SmsProvider;
  whatsapp: WhatsAppProvider | null;
  messageWebhooks: Pick<MessageWebhooks, 'statusCallbackUrl'>;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** The row to try now: the message's, or the fallback its failure left pending. */
async function current(db: Db, id: string): Promise<MessageRow | undefined> {
  let row = await findMessage(db, id);
  while (row && isFailure(row.status as never)) {
    const next = await findFallback(db, row.id);
    if (!next) break;
    row = next;
  }
  return row;
}

async function sendOn(deps: SenderDeps, row: MessageRow, sealed: Sealed): Promise<Accepted> {
  // The report names the message itself (Twilio signs the whole URL): one that comes before the
  // provider's answer still finds its row.
  const base = deps.messageWebhooks.statusCallbackUrl;
  const statusCallback = base ? `${base}?m=${row.id}` : undefined;
  if (row.channel === 'whatsapp') {
    if (!deps.whatsapp) throw new SmsError('no WhatsApp sender is configured');
    return deps.whatsapp.send({
      to: sealed.to,
      kind: row.kind as MessageKind,
      variables: sealed.variables,
      body: sealed.body,
      statusCallback,
    });
  }
  return deps.sms.send({ to: sealed.to, body: sealed.body, statusCallback });
}

/** The sending job: one message, if still wanted, on its channels in order. */
export function messageSendJob(deps: SenderDeps, purposes: MessagePurpose[]): JobKind<MessageJobData> {
  const byName = new Map(purposes.map((purpose) => [purpose.name, purpose]));
  return {
    name: MESSAGE_SEND_JOB,
    // With JOB_RETRY_DELAY_SECONDS' doubling pauses, about two days of tries (a code is dropped
    // once it stops working, long before).
    retryLimit: 14,
    expireInSeconds: 60,
    // One slow provider call does not hold every other message of the process back.
    concurrency: 4,
    async run(data, { retry, last, id }) {
      const settle = (outcome: FirstTry) => {
        if (id && retry === 0) settleFirstTry(id, outcome);
      };
      const found = await current(deps.db, data.messageId);
      // Already handed to the provider (a try that timed out after it answered), or ended.
      if (!found || found.status !== 'pending' || !found.sealed)
        return settle(found?.status === 'dropped' ? 'dropped' : 'sent');
      const purpose = found.aboutKind ? byName.get(found.aboutKind) : undefined;
      const drop = async () => {
        if (await endPending(deps.db, found.id, { status: 'dropped', at: deps.clock() }))
          await purpose?.notSent?.(found.aboutId!);
        settle('dropped');
      };
      // A reminder never goes out in the quiet hours (a retry or a fallback that falls in them is
      // dropped). It goes out now, or at the moment it was queued as of when that is later: only the
      // dev tools' time machine queues ahead (/dev/reminders/run, the e2e suite's clock at night).
      const goingOut = new Date(Math.max(deps.clock().getTime(), found.createdAt.getTime()));
      if (REMINDER_KINDS.includes(found.kind as MessageKind) && inQuietHours(deps.config.COUNTRY, goingOut))
        return drop();
      if (purpose && found.aboutId && !(await purpose.stillWanted(found.aboutId))) return drop();
      const sealed = JSON.parse(deps.cipher.decrypt(found.sealed)) as Sealed;
      let row: MessageRow = found;
      for (;;) {
        let accepted: Accepted;
        try {
          accepted = await sendOn(deps, row, sealed);
        } catch (error) {
          deps.log.warn(
            { provider: row.provider, channel: row.channel, retry, error: (error as Error).name },
            'message provider failed',
          );
          // Refused on this channel: the next one at once (WhatsApp refused → SMS), unless a report
          // or another try moved the message meanwhile.
          const refused: MessageRow = row;
          const fallback: MessageRow | null = refused.fallbacks.length
            ? await deps.db.transaction(async (tx) =>
                (await endPending(tx, refused.id, { status: 'failed', errorCode: 'refused', at: deps.clock() }))
                  ? insertFallback(tx, { ...refused, sealed: found.sealed }, deps.clock())
                  : null,
              )
            : null;
          if (fallback) {
            row = fallback;
            continue;
          }
          settle('failed');
          if (last && (await endPending(deps.db, row.id, { status: 'failed', errorCode: 'refused', at: deps.clock() })))
            await purpose?.notSent?.(row.aboutId!);
          throw keptError(row.provider, error);
        }
        // Outside the try: the provider took it; a database that fails now must not send it twice.
        await markAccepted(deps.db, row, accepted.providerMessageId, deps.clock());
        return settle('sent');
      }
    },
  };
}
