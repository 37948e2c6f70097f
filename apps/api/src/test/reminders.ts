import { toE164 } from '@provee/domain';
import { and, asc, eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { outgoingMessages, smsOutbox, users } from '../db/schema.js';
import { REMINDERS_JOB } from '../modules/reminders/index.js';
import { signWebhook, SIGNATURE_HEADER } from '../providers/simulator-signature.js';
import type { App } from '../types.js';

/** The reminders' sweep, run now on the app's clock (the test app leaves it to no worker). */
export async function runReminders(app: App): Promise<void> {
  await app.jobs.kind(REMINDERS_JOB)!.run({}, { retry: 0, last: true });
}

/** An application stopped at its step at `at` (its last step's time, as the step engine writes it). */
export async function stoppedAt(app: App, applicationId: string, at: Date): Promise<void> {
  await app.db.update(users).set({ updatedAt: at }).where(eq(users.id, applicationId));
}

/** What the simulators delivered to a national number, oldest first. */
export async function inbox(app: App, phone: string) {
  return app.db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.to, toE164(app.config.COUNTRY, phone)))
    .orderBy(asc(smsOutbox.id));
}

/** An application's messages of a kind, oldest first. */
export async function messagesOf(app: App, applicationId: string, kind?: string) {
  return app.db
    .select()
    .from(outgoingMessages)
    .where(and(eq(outgoingMessages.applicationId, applicationId), kind ? eq(outgoingMessages.kind, kind) : undefined))
    .orderBy(asc(outgoingMessages.createdAt), asc(outgoingMessages.id));
}

/**
 * The reminders an applicant was sent (written by the sweep's own transaction) and, once the
 * sender ran, what reached their number (the texts carry the resume link): exactly `expected`.
 */
export async function remindersTo(app: App, applicant: { id: string; phone: string }, expected: number) {
  const sent = await messagesOf(app, applicant.id, 'reminder');
  if (sent.filter((message) => message.fallbackOf === null).length !== expected)
    throw new Error(
      `${sent.length} reminders sent, expected ${expected}: ${JSON.stringify(sent.map(({ sealed: _sealed, ...rest }) => rest))}`,
    );
  const reached = async () => (await inbox(app, applicant.phone)).filter((message) => message.body.includes('/r/'));
  await vi.waitFor(
    async () => {
      const got = await reached();
      if (got.length !== expected) throw new Error(`${got.length} reminders arrived, expected ${expected}`);
    },
    { timeout: 10_000, interval: 50 },
  );
  return reached();
}

/** The resume token of a reminder's text. */
export const resumeToken = (body: string) => /\/r\/([A-Za-z0-9_-]{43})/.exec(body)![1]!;

/** A reply to our senders through the simulator's signed webhook (or a forged one). */
export function reply(app: App, from: string, text: string, options: { button?: boolean; forged?: boolean } = {}) {
  const raw = JSON.stringify({
    event: 'message.received',
    data: { id: crypto.randomUUID(), from, channel: 'whatsapp', text, button: options.button ?? false },
  });
  const signature = options.forged
    ? signWebhook(Buffer.from('not-the-key-not-the-key'), raw)
    : app.messageWebhooks.sign!(raw);
  return app.inject({
    method: 'POST',
    url: '/api/v1/webhooks/messages/outbox/inbound',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
    payload: raw,
  });
}
