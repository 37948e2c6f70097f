import {
  anonymousId,
  confirmCodeCall,
  fromE164,
  pollReverseOtpCall,
  sendCodeCall,
  startReverseOtpCall,
} from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { register } from '../../contract/register.js';
import { AppError, invalidFields } from '../../errors.js';
import { parsePhone } from '../../phone.js';
import type { App } from '../../types.js';
import { findUserByPhone, userResponse } from '../users/index.js';
import { confirmPhoneCode, sendPhoneCode } from './code.service.js';
import { reverseOtpState, sessionView, startReverseOtp } from './reverse-otp.service.js';

/** SPEC §3: anonymous_id is derived from the phone; anything else is a client bug or a forgery. */
function checkAnonymousId(given: string | undefined, digits: string): void {
  if (given !== undefined && given !== anonymousId(digits)) {
    throw invalidFields({ anonymous_id: 'El identificador no corresponde al número.' });
  }
}

/** The phone's token, and the phone's application as the lookup (GET /v1/users) would answer it. */
async function authentication(request: FastifyRequest, phoneE164: string) {
  const app = request.server;
  const { token, expiresAt } = app.tokens.issue({ kind: 'phone', phoneE164 });
  const user = await findUserByPhone(app.db, phoneE164);
  return {
    data: {
      authentication: { access_type: 'Bearer' as const, access_token: token, expires_at: expiresAt.toISOString() },
      phone_number: fromE164(app.config.COUNTRY, phoneE164),
      user: user ? await userResponse(app.db, app.config.COUNTRY, user) : null,
    },
  };
}

export async function phoneProofRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;

  register(app, sendCodeCall, { summary: 'Envía un código de 6 dígitos por SMS' }, async (request) => {
    const phoneE164 = parsePhone(country, request.body.phone_number);
    checkAnonymousId(request.body.anonymous_id, request.body.phone_number);
    const sent = await sendPhoneCode(app, phoneE164, request.ip);
    return { data: { expires_at: sent.expiresAt.toISOString(), resend_after_seconds: sent.resendAfterSeconds } };
  });

  register(app, confirmCodeCall, { summary: 'Confirma el código y entrega el token del teléfono' }, async (request) => {
    const phoneE164 = parsePhone(country, request.body.phone_number);
    checkAnonymousId(request.body.anonymous_id, request.body.phone_number);
    await confirmPhoneCode(app, phoneE164, request.body.code);
    return authentication(request, phoneE164);
  });

  register(
    app,
    startReverseOtpCall,
    { summary: 'Abre una verificación por mensaje enviado desde el teléfono' },
    async (request) => {
      const { phone_number: digits } = request.body;
      const phoneE164 = parsePhone(country, digits);
      checkAnonymousId(request.body.anonymous_id, digits);
      const session = await startReverseOtp(app, {
        phoneE164,
        anonymousId: request.body.anonymous_id ?? anonymousId(digits),
        clientIp: request.body.ip_address ?? '',
        observedIp: request.ip,
      });
      return { data: session };
    },
  );

  register(
    app,
    pollReverseOtpCall,
    { summary: 'Estado de la verificación: 202 pendiente, 200 verificada (con token), 401 otro número, 410 vencida' },
    async (request, reply) => {
      const key = request.body.session_id;
      const state = await reverseOtpState(app, { key });
      switch (state.status) {
        case 'PENDING':
          return reply
            .status(202)
            .send({ data: { status: 'PENDING' as const, ...sessionView(app, state.session, key) } });
        case 'VERIFIED':
          return authentication(request, state.session.phoneE164);
        case 'FAILED':
          throw new AppError(
            401,
            'INVALID_CREDENTIALS',
            'unauthenticated for invalid credentials',
            'La verificación es incorrecta. Regresa a la página de inicio y escanea el código QR con el celular con el que hiciste la solicitud.',
          );
        case 'EXPIRED':
          throw new AppError(
            410,
            'REVERSE_OTP_EXPIRED',
            'session expired',
            'El tiempo para enviar el mensaje terminó. Intenta de nuevo.',
          );
      }
    },
  );
}
