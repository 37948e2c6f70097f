// Issue 34: reminders that bring back applicants who stopped between the phone proof and the
// password, on a hand-moved clock, on each database: the schedule (1 h, 24 h, 72 h after the last
// step), quiet hours (21:00–08:00 in the country), the opt-out by "BAJA", the single-use resume
// link, and no reminder once the applicant came back; the funnel counts them per reminder.
import { toE164 } from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, messageOptOuts } from '../../db/schema.js';
import { createApplication, shopkeeperCall } from '../../test/factories.js';
import { CATALOGUE_ADDRESS } from '../../test/registration.js';
import { messagesOf, remindersTo, reply, resumeToken, runReminders, stoppedAt } from '../../test/reminders.js';
import { staffLogin, staffSession } from '../../test/staff.js';
import { manualClock, useTestApp } from '../../test/test-app.js';
import { MESSAGE_SEND_JOB } from '../messaging/index.js';
import { sendApplicantReminders } from './applicant-reminders.js';

const HOUR = 3600;
// 10:00 in Santo Domingo (UTC−4).
const clock = manualClock(new Date('2026-11-23T14:00:00Z'));
const localTime = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Santo_Domingo',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);

/** On to the next `hhmm` in Santo Domingo (UTC−4, no daylight saving). */
function advanceTo(hours: number) {
  const day = 24 * HOUR * 1000;
  const local = (clock().getTime() - 4 * HOUR * 1000) % day;
  clock.advance(((hours * HOUR * 1000 - local + day) % day || day) / 1000);
}

describe('reminders (manual clock)', () => {
  const t = useTestApp({}, undefined, { clock });
  // Each test starts at 10:00 on the country's clocks.
  beforeEach(() => advanceTo(10));

  /** An application stopped at the address now. */
  async function stoppedAtAddress() {
    const applicant = await createApplication(t.app, { nextStep: 'BUSINESS_ADDRESS' });
    await stoppedAt(t.app, applicant.id, clock());
    return applicant;
  }

  it('the funnel counts, per reminder, how many went out and how many came back', async () => {
    const staff = await staffSession(t.app, 'analyst');
    const day = (offset: number) => new Date(clock().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const [from, to] = [day(-1), day(1)];
    const funnel = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/backoffice/funnel?from=${from}&to=${to}`,
          // A fresh login each time: the session's idle limit counts on the test's clock.
          headers: await staffLogin(t.app, staff.member.email),
        })
      ).json().data.reminders as { number: number; sent: number; came_back: number }[];
    const before = await funnel();
    const [a, b] = [await stoppedAtAddress(), await stoppedAtAddress()];
    clock.advance(HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, a, 1);
    await remindersTo(t.app, b, 1);
    expect((await shopkeeperCall(t.app, a, 'POST', '/businesses/address', CATALOGUE_ADDRESS)).statusCode).toBe(200);
    clock.advance(60);
    await runReminders(t.app);
    const first = (rows: typeof before) => rows.find((row) => row.number === 1) ?? { sent: 0, came_back: 0 };
    const after = await funnel();
    expect(first(after).sent - first(before).sent).toBe(2);
    expect(first(after).came_back - first(before).came_back).toBe(1);
  });

  it('three reminders at 1 h, 24 h and 72 h after the last step, each with its own link, then no more', async () => {
    const applicant = await stoppedAtAddress();
    clock.advance(59 * 60);
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 0);
    clock.advance(60);
    await runReminders(t.app);
    await runReminders(t.app);
    const [first] = await remindersTo(t.app, applicant, 1);
    // WhatsApp first: the simulator delivered it there, and its status came back.
    expect(first).toMatchObject({ channel: 'whatsapp' });
    expect(first!.body).toMatch(/tu solicitud de crédito quedó a medias.*\/r\/.*responde BAJA/);
    clock.advance(23 * HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 2);
    clock.advance(48 * HOUR);
    await runReminders(t.app);
    const all = await remindersTo(t.app, applicant, 3);
    expect(new Set(all.map((message) => resumeToken(message.body))).size).toBe(3);
    clock.advance(30 * 24 * HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 3);
    const events = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, applicant.id), eq(auditEvents.type, 'reminder.sent')));
    expect(events.map((event) => event.payload)).toEqual([
      { number: 1, step: 'BUSINESS_ADDRESS' },
      { number: 2, step: 'BUSINESS_ADDRESS' },
      { number: 3, step: 'BUSINESS_ADDRESS' },
    ]);
    // The back office sees each message's kind, channel and delivery, never its text.
    const messages = await messagesOf(t.app, applicant.id, 'reminder');
    expect(messages.map((message) => message.channel)).toEqual(['whatsapp', 'whatsapp', 'whatsapp']);
  });

  it('never between 21:00 and 08:00 in the country: a reminder due at night goes at 08:00', async () => {
    advanceTo(20.5);
    expect(localTime(clock())).toBe('20:30');
    const applicant = await stoppedAtAddress();
    clock.advance(HOUR);
    await runReminders(t.app);
    clock.advance(11 * HOUR - 31 * 60); // 07:59
    expect(localTime(clock())).toBe('07:59');
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 0);
    clock.advance(60); // 08:00
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 1);
  });

  it('the dev tools’ time machine at night: a reminder queued as of the morning goes out though the queue’s clock says 23:00', async () => {
    advanceTo(23);
    const applicant = await stoppedAtAddress();
    // As /dev/reminders/run does (the e2e suite's clock): the sweep as of 09:00, ten hours ahead.
    const morning = new Date(clock().getTime() + 10 * HOUR * 1000);
    const { db, cipher, config, jobs } = t.app;
    expect(await sendApplicantReminders({ db, cipher, config, jobs, clock: () => morning }, applicant.id)).toHaveLength(
      1,
    );
    t.app.jobs.wake(MESSAGE_SEND_JOB);
    await remindersTo(t.app, applicant, 1);
  });

  it('a reply of BAJA stops every reminder to that number, recorded once and audited; a forged one is refused', async () => {
    const applicant = await stoppedAtAddress();
    const e164 = toE164('do', applicant.phone);
    clock.advance(HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 1);
    const forged = await reply(t.app, e164, 'BAJA', { forged: true });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    expect(await t.app.db.select().from(messageOptOuts)).toHaveLength(0);
    expect((await reply(t.app, e164, ' baja. ')).json()).toEqual({ data: { recorded: true } });
    // A second BAJA (or the template's button) changes nothing.
    expect((await reply(t.app, e164, 'BAJA', { button: true })).json()).toEqual({ data: { recorded: false } });
    expect((await reply(t.app, e164, 'hola')).json()).toEqual({ data: { recorded: false } });
    const optOuts = await t.app.db.select().from(messageOptOuts);
    expect(optOuts).toHaveLength(1);
    expect(JSON.stringify(optOuts)).not.toContain(e164);
    const events = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, applicant.id), eq(auditEvents.type, 'reminders.opted_out')));
    expect(events.map((event) => event.payload)).toEqual([{ channel: 'whatsapp', source: 'reply' }]);
    clock.advance(80 * HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 1);
  });

  it('the resume link works once and ends the reminders; moving on without it ends them too', async () => {
    const applicant = await stoppedAtAddress();
    clock.advance(HOUR);
    await runReminders(t.app);
    const [reminder] = await remindersTo(t.app, applicant, 1);
    const token = resumeToken(reminder!.body);
    const redeem = () => t.app.inject({ method: 'POST', url: '/api/v1/resume-links', payload: { token } });
    const resumed = await redeem();
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json()).toEqual({ data: { phone_number: applicant.phone, path: `/home/${applicant.phone}` } });
    const again = await redeem();
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({
      code: 'RESUME_LINK_INVALID',
      readable_message: 'Este enlace ya no funciona. Escribe tu número para continuar donde te quedaste.',
    });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/resume-links', payload: { token: 'x' } })).statusCode,
    ).toBe(400);
    clock.advance(30 * HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, applicant, 1);

    // Another applicant comes back by themselves after the first reminder and saves the address.
    const other = await stoppedAtAddress();
    clock.advance(HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, other, 1);
    const saved = await shopkeeperCall(t.app, other, 'POST', '/businesses/address', CATALOGUE_ADDRESS);
    expect(saved.statusCode, saved.body).toBe(200);
    clock.advance(30 * HOUR);
    await runReminders(t.app);
    await remindersTo(t.app, other, 1);
  });

  it('a resume link expires (RESUME_LINK_TTL_SECONDS, 24 h)', async () => {
    const applicant = await stoppedAtAddress();
    clock.advance(HOUR);
    await runReminders(t.app);
    const [reminder] = await remindersTo(t.app, applicant, 1);
    clock.advance(24 * HOUR + 1);
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/v1/resume-links',
      payload: { token: resumeToken(reminder!.body) },
    });
    expect(late.statusCode).toBe(410);
  });
});
