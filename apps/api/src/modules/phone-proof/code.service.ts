import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { SmsError } from '../../providers/sms/index.js';
import { appendAuditEvent } from '../audit/audit.service.js';
import { consumeCode, issueCode } from '../one-time-codes/one-time-codes.service.js';

/** Sends an SMS; a provider failure is a Spanish 503, never a 500. */
export async function sendSms(app: FastifyInstance, to: string, body: string): Promise<void> {
  try {
    await app.sms.send({ to, body });
  } catch (error) {
    if (!(error instanceof SmsError)) throw error;
    app.log.error({ err: error }, 'sms provider failed');
    throw new AppError(503, 'SMS_UNAVAILABLE', 'sms provider failed', 'No pudimos enviar el SMS. Intenta de nuevo en un minuto.');
  }
}

/** A new phone-proof code by SMS. The answer is the same whether the number is registered or not. */
export async function sendPhoneCode(app: FastifyInstance, phoneE164: string, ip: string) {
  const issued = await issueCode(app, { phoneE164, purpose: 'phone-proof', ip });
  const minutes = Math.round(app.config.CODE_TTL_SECONDS / 60);
  await sendSms(app, phoneE164, `${issued.code} es tu código de ${app.config.APP_NAME}. Vence en ${minutes} minutos. No lo compartas con nadie.`);
  return issued;
}

export async function confirmPhoneCode(app: FastifyInstance, phoneE164: string, code: string): Promise<void> {
  await consumeCode(app, {
    phoneE164,
    purpose: 'phone-proof',
    code,
    onConsumed: (tx, at) => appendAuditEvent(tx, { applicationId: `phone:${phoneE164}`, actor: 'user', type: 'phone.proven', payload: { channel: 'sms-code' }, at }).then(() => undefined),
  });
}
