import type { FastifyInstance } from 'fastify';
import { appendAuditEvent, phoneAuditId } from '../audit/index.js';
import { consumeCode, issueCode } from '../one-time-codes/index.js';

/** A new phone-proof code by SMS. The answer is the same whether the number is registered or not. */
export async function sendPhoneCode(app: FastifyInstance, phoneE164: string, ip: string) {
  const minutes = Math.round(app.config.CODE_TTL_SECONDS / 60);
  return issueCode(app, {
    phoneE164,
    purpose: 'phone-proof',
    ip,
    message: (code) =>
      `${code} es tu código de ${app.config.APP_NAME}. Vence en ${minutes} minutos. No lo compartas con nadie.`,
  });
}

export async function confirmPhoneCode(app: FastifyInstance, phoneE164: string, code: string): Promise<void> {
  await consumeCode(app, {
    phoneE164,
    purpose: 'phone-proof',
    code,
    onConsumed: (tx, at) =>
      appendAuditEvent(tx, {
        applicationId: phoneAuditId(app, phoneE164),
        actor: 'user',
        type: 'phone.proven',
        payload: { channel: 'sms-code' },
        at,
      }).then(() => undefined),
  });
}
