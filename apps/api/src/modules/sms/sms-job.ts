import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { FieldCipher } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { SmsError, type SmsProvider } from '../../providers/sms/index.js';
import { enqueueJob, type JobKind, type JobQueue } from '../jobs/index.js';
import { firstTry, settleFirstTry, type FirstTry } from './first-tries.js';

/**
 * Every outgoing SMS but the signed copy (a job of its own) is a job of this kind (decision 030):
 * enqueued in the transaction that records what the message is for, woken at its commit, tried
 * again with the queue's back-off while the provider fails.
 */
export const SMS_SEND_JOB = 'sms-send';

/** What a message is for, when that can end before it is sent (a code replaced, a link revoked). */
export interface SmsAbout {
  /** The purpose's name (SmsPurpose.name). */
  kind: string;
  id: string;
}

/**
 * The job's data, kept in pg-boss's table for days: the number and the text (codes, PINs, link
 * tokens) only sealed with the field cipher, never in clear.
 */
export interface SmsJobData {
  to: string;
  body: string;
  about?: SmsAbout;
}

/** What a kind of message is for, as the sending job asks it. */
export interface SmsPurpose {
  name: string;
  /** Whether the message is still worth sending (not a code replaced, spent or expired). */
  stillWanted(id: string): Promise<boolean>;
  /** The message will never be sent: what it was for gives back what it held (a code its limits). */
  notSent?(id: string): Promise<void>;
}

export interface SmsDeps {
  cipher: FieldCipher;
  jobs: Pick<JobQueue, 'wake' | 'runsHere'>;
  config: Pick<Config, 'SMS_SEND_WAIT_MS'>;
}

/** A message enqueued: its job. */
export interface QueuedSms {
  jobId: string;
}

/** Enqueues a message in the caller's transaction: it is sent only if that change commits. */
export async function enqueueSms(
  deps: Pick<SmsDeps, 'cipher'>,
  tx: Executor,
  message: { to: string; body: string; about?: SmsAbout },
): Promise<QueuedSms> {
  const data: SmsJobData = {
    to: deps.cipher.encrypt(message.to),
    body: deps.cipher.encrypt(message.body),
    ...(message.about ? { about: message.about } : {}),
  };
  return { jobId: await enqueueJob(tx, SMS_SEND_JOB, data) };
}

/**
 * After the commit: this process's workers take the message now, and the request waits up to
 * SMS_SEND_WAIT_MS for its first try, as it used to wait for the provider ('queued' when this
 * process runs no sender or the try takes longer: the message follows from the queue).
 */
export async function deliverSms(deps: Pick<SmsDeps, 'jobs' | 'config'>, queued: QueuedSms): Promise<FirstTry> {
  if (!deps.jobs.runsHere(SMS_SEND_JOB)) return 'queued';
  const outcome = firstTry(queued.jobId, deps.config.SMS_SEND_WAIT_MS);
  deps.jobs.wake(SMS_SEND_JOB);
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
    return new SmsError(`el proveedor de SMS (${provider}) no envió el mensaje${status ? ` (${status})` : ''}`);
  }
  const kept = new Error(`error inesperado (${error instanceof Error ? error.name : typeof error})`);
  kept.name = error instanceof Error ? error.name : 'Error';
  return kept;
}

/** The sending job: one message, if still wanted, through the configured provider. */
export function smsSendJob(
  deps: { sms: SmsProvider; cipher: FieldCipher; log: Pick<FastifyBaseLogger, 'warn'> },
  purposes: SmsPurpose[],
): JobKind<SmsJobData> {
  const byName = new Map(purposes.map((purpose) => [purpose.name, purpose]));
  return {
    name: SMS_SEND_JOB,
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
      const purpose = data.about ? byName.get(data.about.kind) : undefined;
      if (purpose && data.about && !(await purpose.stillWanted(data.about.id))) {
        await purpose.notSent?.(data.about.id);
        settle('dropped');
        return;
      }
      try {
        await deps.sms.send({ to: deps.cipher.decrypt(data.to), body: deps.cipher.decrypt(data.body) });
      } catch (error) {
        deps.log.warn({ provider: deps.sms.name, retry, error: (error as Error).name }, 'sms provider failed');
        settle('failed');
        if (last && purpose && data.about) await purpose.notSent?.(data.about.id);
        throw keptError(deps.sms.name, error);
      }
      settle('sent');
    },
  };
}
