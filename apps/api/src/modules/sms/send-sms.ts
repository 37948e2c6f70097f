import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { SmsError } from '../../providers/sms/index.js';

/** Sends an SMS; a provider failure is a Spanish 503, never a 500. */
export async function sendSms(app: FastifyInstance, to: string, body: string): Promise<void> {
  try {
    await app.sms.send({ to, body });
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    app.log.error({ err: error }, 'sms provider failed');
    throw new AppError(
      503,
      'SMS_UNAVAILABLE',
      'sms provider failed',
      'No pudimos enviar el SMS. Intenta de nuevo en un minuto.',
    );
  }
}
