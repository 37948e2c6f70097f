import type { FastifyInstance } from 'fastify';
import { SmsError } from '../../providers/sms/index.js';
import { smsUnavailable } from './sms-job.js';

/**
 * Sends an SMS now, for a job that is itself the message's retry (the signed copy, which issues a
 * fresh link each try); every other message is an sms-send job (sms-job.ts). A provider failure is
 * a Spanish 503, never a 500.
 */
export async function sendSms(app: FastifyInstance, to: string, body: string): Promise<void> {
  try {
    await app.sms.send({ to, body });
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    app.log.error({ err: error }, 'sms provider failed');
    throw smsUnavailable();
  }
}
