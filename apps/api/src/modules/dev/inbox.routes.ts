import {
  inQuietHours,
  MESSAGE_CHANNEL_LABELS,
  MESSAGE_STATUS_LABELS,
  toE164,
  type MessageChannel,
  type MessageStatus,
} from '@provee/domain';
import { z } from 'zod';
import { simulatedReply } from '../../providers/message-webhooks/index.js';
import { listOutbox } from '../../providers/sms/outbox.store.js';
import { SIGNATURE_HEADER } from '../../providers/simulator-signature.js';
import type { App } from '../../types.js';
import { sendApplicantReminders } from '../reminders/index.js';
import { MESSAGE_SEND_JOB } from '../messaging/index.js';
import { findUserByPhone } from '../users/index.js';
import { devPage, escapeHtml } from './html.js';

const outboxMessage = z.object({
  to: z.string(),
  body: z.string(),
  channel: z.enum(['sms', 'whatsapp']),
  status: z.string().nullable(),
  created_at: z.string(),
});

/** The first moment from `from` outside the reminders' quiet hours (quarter-hour steps). */
function windowOpens(app: App, from: Date): Date {
  let at = from;
  while (inQuietHours(app.config.COUNTRY, at)) at = new Date(at.getTime() + 15 * 60_000);
  return at;
}

/**
 * The simulators' inbox: WhatsApp and SMS apart, each message with the delivery status the
 * simulated callbacks reported; a reply form (BAJA stops the reminders) that goes through the real
 * signed webhook; and a time machine that runs one applicant's reminders as if later.
 */
export async function devInboxRoutes(app: App): Promise<void> {
  app.get(
    '/outbox.json',
    {
      schema: {
        hide: true,
        querystring: z.object({ to: z.string().max(20).optional() }),
        response: { 200: z.object({ messages: z.array(outboxMessage) }) },
      },
    },
    async (request) => {
      const rows = await listOutbox(app.db, request.query.to);
      return {
        messages: rows.map((row) => ({
          to: row.to,
          body: row.body,
          channel: row.channel as MessageChannel,
          status: row.status,
          created_at: row.createdAt.toISOString(),
        })),
      };
    },
  );

  app.get(
    '/outbox',
    { schema: { hide: true, querystring: z.object({ sent: z.string().optional() }) } },
    async (request, reply) => {
      const rows = await listOutbox(app.db, undefined, 100);
      const inbox = (channel: MessageChannel) => {
        const items = rows
          .filter((row) => row.channel === channel)
          .map(
            (row) =>
              `<li><div class="meta">${escapeHtml(row.to)} · ${row.createdAt.toISOString()} · ${escapeHtml(
                row.status ? MESSAGE_STATUS_LABELS[row.status as MessageStatus] : 'Sin estado',
              )}</div><div class="body">${escapeHtml(row.body)}</div></li>`,
          )
          .join('');
        return `<h2>${MESSAGE_CHANNEL_LABELS[channel]}</h2>${items ? `<ul>${items}</ul>` : '<p>Aún no hay mensajes.</p>'}`;
      };
      const notice = request.query.sent ? '<p class="notice">Respuesta enviada.</p>' : '';
      const replyForm = `<h2>Responder</h2><form method="post" action="/dev/outbox/reply">
<label>Desde el número (E.164)<input name="from" inputmode="tel" placeholder="+18095551234"></label>
<label>Canal<select name="channel"><option value="whatsapp">WhatsApp</option><option value="sms">SMS</option></select></label>
<label>Mensaje<input name="text" value="BAJA"></label>
<button type="submit">Enviar respuesta</button></form>`;
      const help = '<p>Los números que terminan en 0000 no tienen WhatsApp: sus mensajes fallan y llegan por SMS.</p>';
      return reply
        .type('text/html; charset=utf-8')
        .send(
          devPage(
            'Bandeja de mensajes (desarrollo)',
            `${notice}${help}${inbox('whatsapp')}${inbox('sms')}${replyForm}`,
          ),
        );
    },
  );

  // A reply goes through the real webhook: same route, same signature check, same processing.
  const replyBody = z.object({
    from: z.string().regex(/^\+\d{8,15}$/),
    channel: z.enum(['whatsapp', 'sms']).default('whatsapp'),
    text: z.string().min(1).max(1600),
    button: z.boolean().optional(),
  });
  app.post('/outbox/reply', { schema: { hide: true, body: replyBody } }, async (request, reply) => {
    const sign = app.messageWebhooks.sign!;
    const raw = simulatedReply(request.body.from, request.body.channel, request.body.text, request.body.button);
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/messages/outbox/inbound',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(raw) },
      payload: raw,
    });
    if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return reply.redirect('/dev/outbox?sent=1', 303);
    return reply.status(answer.statusCode).send(answer.json());
  });

  // One applicant's reminders as if `minutes_ahead` had passed (the e2e's clock); quiet hours then say so.
  const timeMachine = z.object({
    phone_number: z.string().regex(/^\d{10}$/),
    minutes_ahead: z
      .number()
      .int()
      .min(0)
      .max(30 * 24 * 60),
  });
  app.post('/reminders/run', { schema: { hide: true, body: timeMachine } }, async (request) => {
    const at = new Date(app.clock().getTime() + request.body.minutes_ahead * 60_000);
    if (inQuietHours(app.config.COUNTRY, at))
      return { sent: 0, quiet: true, window_opens_at: windowOpens(app, at).toISOString() };
    const user = await findUserByPhone(app.db, toE164(app.config.COUNTRY, request.body.phone_number));
    if (!user) return { sent: 0, quiet: false, window_opens_at: null };
    const queued = await sendApplicantReminders({ ...appDeps(app), clock: () => at }, user.id);
    if (queued.length > 0) app.jobs.wake(MESSAGE_SEND_JOB);
    return { sent: queued.length, quiet: false, window_opens_at: null };
  });
}

const appDeps = (app: App) => ({ db: app.db, cipher: app.cipher, config: app.config, jobs: app.jobs });
