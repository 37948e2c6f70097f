import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import { z } from 'zod';
import { SIGNATURE_HEADER } from '../../providers/reverse-otp/simulator.js';
import type { App } from '../../types.js';
import { listPendingSessions, reverseOtpMessage } from '../phone-proof/index.js';
import { devInboxRoutes } from './inbox.routes.js';
import { testFactoryRoutes } from './test-factories.routes.js';
import { DEV_CSS, devPage, escapeHtml } from './html.js';

/**
 * Tools for a tester, registered only in test mode (config.ts: never in production): the messages'
 * inbox (WhatsApp and SMS) while the simulators send them, a simulated phone that sends the reverse-OTP message while the
 * simulator is the reverse-OTP provider, and, when enabled, test factories.
 */
export async function devRoutes(app: App): Promise<void> {
  await app.register(formbody);
  app.get('/dev.css', { schema: { hide: true } }, async (_request, reply) => reply.type('text/css').send(DEV_CSS));

  if (app.config.SMS_PROVIDER === 'outbox' && app.sms.name === 'outbox') await app.register(devInboxRoutes);

  if (app.config.REVERSE_OTP_PROVIDER === 'simulator' && app.reverseOtp.sign) {
    const sign = app.reverseOtp.sign;
    const inbound = z.object({ from: z.string().min(1).max(32), text: z.string().min(1).max(1000) });

    // Goes through the real webhook: same route, same signature check, same processing.
    const deliver = async (from: string, text: string) => {
      const raw = JSON.stringify({
        event: 'message.received',
        data: { id: randomUUID(), from, to: app.reverseOtp.destination, text, received_at: app.clock().toISOString() },
      });
      const response = await app.inject({
        method: 'POST',
        url: `/api/v1/webhooks/reverse-otp/${app.reverseOtp.name}`,
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(raw) },
        payload: raw,
      });
      return { status: response.statusCode, body: response.json() as unknown };
    };

    app.post('/reverse-otp/inbound', { schema: { hide: true, body: inbound } }, async (request, reply) => {
      const result = await deliver(request.body.from, request.body.text);
      if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
        return reply.redirect('/dev/phone?sent=1', 303);
      }
      return reply.status(result.status).send(result.body);
    });

    app.get(
      '/phone',
      { schema: { hide: true, querystring: z.object({ sent: z.string().optional() }) } },
      async (request, reply) => {
        const now = app.clock();
        const pending = await listPendingSessions(app.db, now, 10);
        const form = (
          from: string,
          text: string,
          label: string,
        ) => `<form method="post" action="/dev/reverse-otp/inbound">
<label>Enviar desde el número<input name="from" value="${escapeHtml(from)}" inputmode="tel"></label>
<label>Mensaje<input name="text" value="${escapeHtml(text)}"></label>
<button type="submit">${escapeHtml(label)}</button></form>`;
        const items = pending
          .map((session) => {
            return `<li><div class="meta">Verificación pendiente para ${escapeHtml(session.phoneE164)} · vence ${session.expiresAt.toISOString()}</div>${form(session.phoneE164, reverseOtpMessage(app, session), 'Enviar mensaje')}</li>`;
          })
          .join('');
        const notice = request.query.sent ? '<p class="notice">Mensaje enviado.</p>' : '';
        const body = `${notice}<p>Simula el celular del usuario: envía el mensaje al número ${escapeHtml(app.reverseOtp.destination)}.</p>
${items ? `<ul>${items}</ul>` : '<p>No hay verificaciones pendientes.</p>'}<h2>Desde otro número</h2>${form('', '', 'Enviar')}`;
        return reply.type('text/html; charset=utf-8').send(devPage('Teléfono simulado', body));
      },
    );
  }

  if (app.config.ENABLE_TEST_FACTORIES) await app.register(testFactoryRoutes, { prefix: '/test' });
}
