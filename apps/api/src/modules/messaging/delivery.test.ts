// Issue 34 on the simulators (a fresh start's): WhatsApp first, its delivery reported through the
// signed status webhook; a number without WhatsApp falls back to SMS; one PIN asked 20 times at once
// is one message; a guarantor's and a signer's link get one reminder before they expire, however
// many sweeps run at once.
import { createHash } from 'node:crypto';
import { cedulaCheckDigit, toE164 } from '@provee/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { contractLinks, outgoingMessages } from '../../db/schema.js';
import { createApplication, shopkeeperCall, userAuth } from '../../test/factories.js';
import { codeRequest } from '../../test/phone.js';
import { inbox, messagesOf, runReminders } from '../../test/reminders.js';
import { signerWithLink } from '../../test/signer.js';
import { manualClock, useTestApp } from '../../test/test-app.js';

const HOUR = 3600;
const outbox = async (app: Parameters<typeof inbox>[0], phone: string) =>
  (
    (
      await app.inject({ method: 'GET', url: `/dev/outbox.json?to=${encodeURIComponent(toE164('do', phone))}` })
    ).json() as {
      messages: { channel: string; status: string | null; body: string }[];
    }
  ).messages;

describe('delivery on the simulators', () => {
  const t = useTestApp({ NIP_PREFILL: 'true' });

  it('WhatsApp first: delivered, then read, as the simulated status webhook reports', async () => {
    const applicant = await createApplication(t.app);
    expect((await shopkeeperCall(t.app, applicant, 'POST', '/nip')).statusCode).toBe(200);
    await vi.waitFor(async () =>
      expect(await outbox(t.app, applicant.phone)).toMatchObject([{ channel: 'whatsapp', status: 'read' }]),
    );
    expect(await messagesOf(t.app, applicant.id, 'consent-pin')).toMatchObject([
      { channel: 'whatsapp', status: 'read', sealed: null, fallbackOf: null },
    ]);
  });

  it('a number without WhatsApp (ending in 0000): the WhatsApp fails (63003) and the same code arrives by SMS', async () => {
    const phone = `809${String(2 + Math.floor(Math.random() * 8))}${String(Math.floor(Math.random() * 100)).padStart(2, '0')}0000`;
    expect((await t.app.inject(codeRequest(phone, '10.34.0.1'))).statusCode).toBe(200);
    await vi.waitFor(
      async () =>
        expect(await outbox(t.app, phone)).toMatchObject([
          { channel: 'sms', status: 'delivered' },
          { channel: 'whatsapp', status: 'failed' },
        ]),
      { timeout: 10_000 },
    );
    const [sms, whatsapp] = await outbox(t.app, phone);
    expect(sms!.body).toBe(whatsapp!.body);
    expect(sms!.body).toMatch(/^\d{6} es tu código/);
    const rows = await t.app.db
      .select()
      .from(outgoingMessages)
      .where(and(eq(outgoingMessages.kind, 'phone-code'), inArray(outgoingMessages.status, ['failed', 'delivered'])));
    const failed = rows.find((row) => row.errorCode === '63003' && rows.some((other) => other.fallbackOf === row.id));
    expect(failed).toMatchObject({ channel: 'whatsapp', status: 'failed', sealed: null });
  });

  it('20 requests of one PIN at once give one message', async () => {
    const applicant = await createApplication(t.app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => shopkeeperCall(t.app, applicant, 'POST', '/nip')),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.every((answer) => [200, 409, 429].includes(answer.statusCode))).toBe(true);
    await vi.waitFor(async () => expect(await outbox(t.app, applicant.phone)).toHaveLength(1));
    expect(await messagesOf(t.app, applicant.id, 'consent-pin')).toHaveLength(1);
  });
});

describe('one reminder before a link expires (manual clock)', () => {
  // 10:00 in Santo Domingo.
  const clock = manualClock(new Date('2026-11-24T14:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true' }, undefined, { clock });
  const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;

  it('a guarantor who has not answered: one reminder within a day of the invitation’s end, whatever the sweeps', async () => {
    const shopkeeper = await createApplication(t.app, {
      taxId: cedula(`4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`),
      nextStep: 'INVENTORY',
    });
    const avalPhone = `809${String(2_000_000 + Math.floor(Math.random() * 7_999_999))}`;
    const named = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${shopkeeper.id}/SK/avals`,
      headers: userAuth(t.app, shopkeeper),
      payload: {
        aval_type: 'PARTNER',
        name: 'Ramón Antonio Pérez',
        phone_number: avalPhone,
        tax_payer_id: cedula('9990000001'),
      },
    });
    expect(named.statusCode, named.body).toBe(200);
    // The invitation lasts 3 days: nothing until the last day.
    clock.advance(47 * HOUR);
    await runReminders(t.app);
    expect(await messagesOf(t.app, shopkeeper.id, 'guarantor-reminder')).toHaveLength(0);
    clock.advance(2 * HOUR);
    await Promise.all([runReminders(t.app), runReminders(t.app), runReminders(t.app)]);
    await runReminders(t.app);
    expect(await messagesOf(t.app, shopkeeper.id, 'guarantor-reminder')).toHaveLength(1);
    await vi.waitFor(async () => {
      const reminder = (await inbox(t.app, avalPhone)).find((message) => message.body.includes('te sigue esperando'));
      expect(reminder?.body).toMatch(/vence pronto.*verify-aval-phone\?token=/);
    });
  });

  it('a signer who has not signed: one reminder with a link that ends when theirs did; the old link stops', async () => {
    const signer = await signerWithLink(t.app);
    const [first] = await t.app.db
      .select()
      .from(contractLinks)
      .where(eq(contractLinks.tokenSha256, sha256(signer.token)));
    clock.advance(6 * 24 * HOUR - 2 * HOUR);
    await runReminders(t.app);
    expect(await messagesOf(t.app, signer.userId, 'signing-reminder')).toHaveLength(0);
    clock.advance(3 * HOUR);
    await Promise.all([runReminders(t.app), runReminders(t.app), runReminders(t.app)]);
    await runReminders(t.app);
    expect(await messagesOf(t.app, signer.userId, 'signing-reminder')).toHaveLength(1);
    const links = await t.app.db.select().from(contractLinks).where(eq(contractLinks.signerId, first!.signerId));
    const open = links.filter((link) => !link.revokedAt && link.purpose === 'sign');
    expect(open).toHaveLength(1);
    expect(open[0]!.id).not.toBe(first!.id);
    expect(open[0]!.expiresAt.getTime()).toBe(first!.expiresAt.getTime());
  });
});

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
