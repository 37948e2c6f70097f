import { randomUUID } from 'node:crypto';
import { cedulaCheckDigit, toE164, type AdvisorTaskView } from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advisorTasks, auditEvents, leads } from '../../db/schema.js';
import { createApplication, userAuth } from '../../test/factories.js';
import { createPhone } from '../../test/phone.js';
import { createStaffMember, staffLogin, staffSession } from '../../test/staff.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { verifyAuditChain } from '../audit/index.js';

const randomCedula = () => {
  const ten = `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  return `${ten}${cedulaCheckDigit(ten)}`;
};

describe('advisor queue: contact requests and new leads, claim and done', () => {
  let t: TestApp;
  let advisor: Awaited<ReturnType<typeof staffSession>>;
  let colleague: Awaited<ReturnType<typeof staffSession>>;
  beforeAll(async () => {
    t = await createTestApp();
    advisor = await staffSession(t.app, 'advisor');
    colleague = await staffSession(t.app, 'analyst');
  });
  afterAll(() => t.close());

  /** A shopkeeper past the password asks for an advisor, as the web app's screen does. */
  async function contactRequest(contactType = 'CALL_ADVISER') {
    const user = await createApplication(t.app, {
      taxId: randomCedula(),
      nextStep: 'INVENTORY',
      // The name the queue shows (asserted below).
      name: 'María José',
      lastname: 'Peña',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${user.id}/SK/advisor-events`,
      headers: userAuth(t.app, user),
      payload: { contact_type: contactType },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [event] = await t.app.db.query.advisorEvents.findMany({
      where: (events, { eq: equals }) => equals(events.userId, user.id),
    });
    return { user, sourceId: String(event!.id) };
  }

  /** A lead handed to sales (SPEC §3), for a phone that may or may not have an application. */
  async function lead(phone = createPhone()) {
    const now = new Date().toISOString();
    const leadId = `lead-${randomUUID()}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/ops/v1/lead-assignment',
      headers: { 'x-api-key': t.app.config.OPS_API_KEY },
      payload: { lead_id: leadId, lead_type: 'INTERNAL', shopkeeper_phone: phone, created_at: now, updated_at: now },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { phone, sourceId: leadId };
  }

  const queue = async (headers: { cookie: string }, includeDone?: boolean) => {
    const query = includeDone === undefined ? '' : `?include_done=${includeDone}`;
    const res = await t.app.inject({ method: 'GET', url: `/api/backoffice/advisor-queue${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AdvisorTaskView[];
  };
  const act = (headers: { cookie: string }, action: 'claim' | 'done', source: string, id: string, note?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/backoffice/advisor-queue/${source}/${encodeURIComponent(id)}/${action}`,
      headers,
      ...(action === 'done' ? { payload: note === undefined ? {} : { note } } : {}),
    });
  const eventsOf = (chain: string) =>
    t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, chain)).orderBy(auditEvents.id);

  it('answers 401 without a staff session, and a shopkeeper’s token is no session', async () => {
    const { user, sourceId } = await contactRequest();
    for (const [method, url] of [
      ['GET', '/api/backoffice/advisor-queue'],
      ['POST', `/api/backoffice/advisor-queue/contact/${sourceId}/claim`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: userAuth(t.app, user) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'STAFF_UNAUTHENTICATED', readable_message: expect.any(String) });
    }
    const done = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/advisor-queue/contact/${sourceId}/done`,
      payload: {},
    });
    expect(done.statusCode).toBe(401);
  });

  it('lists contact requests and leads oldest first, with the applicant, phone links and who claimed', async () => {
    const first = await contactRequest('WHATSAPP_CHAT');
    const registered = await lead(first.user.phone);
    const unknown = await lead();
    const items = await queue(advisor.headers);
    const ours = items.filter((item) =>
      [first.sourceId, registered.sourceId, unknown.sourceId].includes(item.source_id),
    );
    expect(ours.map((item) => item.source_id)).toEqual([first.sourceId, registered.sourceId, unknown.sourceId]);
    const e164 = toE164(t.app.config.COUNTRY, first.user.phone);
    expect(ours[0]).toEqual({
      source: 'contact',
      source_id: first.sourceId,
      kind: 'WHATSAPP_CHAT',
      application_id: first.user.id,
      phone: e164,
      name: 'María José Peña Núñez',
      created_at: expect.any(String),
      claimed_by: null,
      claimed_at: null,
      done_at: null,
      call_url: `tel:${e164}`,
      chat_url: `https://wa.me/${e164.slice(1)}`,
      visits: 1,
      last_seen_at: expect.any(String),
    });
    // A lead names the application of its phone when there is one.
    expect(ours[1]).toMatchObject({ source: 'lead', kind: 'INTERNAL', application_id: first.user.id, phone: e164 });
    expect(ours[2]).toMatchObject({ source: 'lead', application_id: null, name: null });
    const all = items.map((item) => Date.parse(item.created_at));
    expect(all).toEqual([...all].sort((a, b) => a - b));
  });

  it('one task per person: every login’s lead is kept, the queue shows the first, counted (issue 27)', async () => {
    const phone = createPhone();
    const logins = [await lead(phone), await lead(phone), await lead(phone)];
    const other = await lead();
    const stored = await t.app.db
      .select()
      .from(leads)
      .where(eq(leads.shopkeeperPhoneE164, toE164('do', phone)));
    expect(stored).toHaveLength(3);
    const items = await queue(advisor.headers);
    const mine = items.filter((item) => item.phone === toE164('do', phone));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ source: 'lead', source_id: logins[0]!.sourceId, kind: 'INTERNAL', visits: 3 });
    expect(Date.parse(mine[0]!.last_seen_at)).toBe(Math.max(...stored.map((row) => row.receivedAt.getTime())));
    expect(Date.parse(mine[0]!.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(mine[0]!.created_at));
    expect(items.find((item) => item.source_id === other.sourceId)).toMatchObject({ visits: 1 });
    // A later login's lead is no task of its own; the person's is claimed and done as one.
    expect((await act(advisor.headers, 'claim', 'lead', logins[1]!.sourceId)).statusCode).toBe(404);
    expect((await act(advisor.headers, 'done', 'lead', logins[0]!.sourceId)).statusCode).toBe(200);
    expect((await queue(advisor.headers)).filter((item) => item.phone === toE164('do', phone))).toEqual([]);
    // A fourth login after that does not bring the person back as a new task.
    await lead(phone);
    expect((await queue(advisor.headers)).filter((item) => item.phone === toE164('do', phone))).toEqual([]);
    const done = (await queue(advisor.headers, true)).filter((item) => item.phone === toE164('do', phone));
    expect(done).toMatchObject([{ source_id: logins[0]!.sourceId, visits: 4, done_at: expect.any(String) }]);
  });

  it('claim: the task is the claimer’s; a colleague gets 409 naming who has it; claiming again is fine', async () => {
    const { user, sourceId } = await contactRequest();
    const claimed = await act(advisor.headers, 'claim', 'contact', sourceId);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().data).toMatchObject({
      source_id: sourceId,
      claimed_by: { id: advisor.member.id, name: advisor.member.name },
      claimed_at: expect.any(String),
      done_at: null,
    });
    const other = await act(colleague.headers, 'claim', 'contact', sourceId);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'ADVISOR_TASK_TAKEN' });
    expect(other.json().readable_message).toContain(`ya la tomó ${advisor.member.name}`);
    const again = await act(advisor.headers, 'claim', 'contact', sourceId);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.claimed_at).toBe(claimed.json().data.claimed_at);
    // One event for the one change, on the applicant's chain, by the advisor; the chain still verifies.
    const events = (await eventsOf(user.id)).filter((event) => event.type.startsWith('advisor.task'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'advisor.task_claimed',
      actor: `staff:${advisor.member.id}`,
      payload: { source: 'contact', source_id: sourceId, kind: 'CALL_ADVISER' },
    });
    expect((await verifyAuditChain(t.app.db, user.id)).valid).toBe(true);
    const listed = (await queue(colleague.headers)).find((item) => item.source_id === sourceId);
    expect(listed?.claimed_by).toEqual({ id: advisor.member.id, name: advisor.member.name });
  });

  it('404 for a contact request or lead that does not exist; 400 for a source that is not one', async () => {
    for (const [source, id] of [
      ['contact', '987654321'],
      ['contact', 'not-a-number'],
      ['lead', 'lead-that-never-came'],
    ]) {
      const res = await act(advisor.headers, 'claim', source!, id!);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'ADVISOR_TASK_NOT_FOUND',
        readable_message: 'No encontramos esa tarea.',
      });
      expect((await act(advisor.headers, 'done', source!, id!)).statusCode).toBe(404);
    }
    expect((await act(advisor.headers, 'claim', 'call', '1')).statusCode).toBe(400);
    expect(await t.app.db.select().from(advisorTasks).where(eq(advisorTasks.sourceId, '987654321'))).toHaveLength(0);
  });

  it('done: only by the claimer, with a note; hidden from the queue unless include_done; twice is 409', async () => {
    const { sourceId } = await contactRequest('WITH_ADVISER');
    await act(advisor.headers, 'claim', 'contact', sourceId);
    const stranger = await act(colleague.headers, 'done', 'contact', sourceId);
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json().code).toBe('ADVISOR_TASK_TAKEN');
    const done = await act(advisor.headers, 'done', 'contact', sourceId, 'Llamó, quiere visita el lunes.');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ claimed_by: { id: advisor.member.id }, done_at: expect.any(String) });
    const [row] = await t.app.db
      .select()
      .from(advisorTasks)
      .where(and(eq(advisorTasks.source, 'contact'), eq(advisorTasks.sourceId, sourceId)));
    expect(row).toMatchObject({ doneBy: advisor.member.id, note: 'Llamó, quiere visita el lunes.' });
    expect((await queue(advisor.headers)).some((item) => item.source_id === sourceId)).toBe(false);
    expect((await queue(advisor.headers, false)).some((item) => item.source_id === sourceId)).toBe(false);
    const withDone = (await queue(advisor.headers, true)).find((item) => item.source_id === sourceId);
    expect(withDone?.done_at).toBe(done.json().data.done_at);
    const twice = await act(advisor.headers, 'done', 'contact', sourceId);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      code: 'ADVISOR_TASK_DONE',
      readable_message: 'Esta tarea ya está terminada.',
    });
    expect((await act(colleague.headers, 'claim', 'contact', sourceId)).statusCode).toBe(409);
  });

  it('a lead without an application is recorded on the advisor’s own chain; done unclaimed takes it', async () => {
    const { sourceId } = await lead();
    const done = await act(colleague.headers, 'done', 'lead', sourceId);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({
      application_id: null,
      claimed_by: { id: colleague.member.id },
      done_at: expect.any(String),
    });
    const events = (await eventsOf(`staff:${colleague.member.id}`)).filter(
      (event) => event.type === 'advisor.task_done',
    );
    expect(events).toEqual([
      expect.objectContaining({
        actor: `staff:${colleague.member.id}`,
        payload: { source: 'lead', source_id: sourceId, kind: 'INTERNAL', with_note: false },
      }),
    ]);
    expect((await verifyAuditChain(t.app.db, `staff:${colleague.member.id}`)).valid).toBe(true);
  });

  it('a lead of a registered phone is recorded on the applicant’s chain', async () => {
    const { user } = await contactRequest();
    const { sourceId } = await lead(user.phone);
    expect((await act(advisor.headers, 'claim', 'lead', sourceId)).statusCode).toBe(200);
    const events = await eventsOf(user.id);
    expect(events.at(-1)).toMatchObject({
      type: 'advisor.task_claimed',
      payload: { source: 'lead', source_id: sourceId },
    });
  });

  it('10 advisors claim the same task at once: exactly one gets it, the others 409', async () => {
    const { user, sourceId } = await contactRequest();
    const advisors = [];
    for (let i = 0; i < 10; i++) {
      const member = await createStaffMember(t.app, 'advisor', { name: `Asesora ${i}` });
      advisors.push({ member, headers: await staffLogin(t.app, member.email) });
    }
    const answers = await Promise.all(advisors.map((who) => act(who.headers, 'claim', 'contact', sourceId)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, ...new Array<number>(9).fill(409)]);
    const winner = advisors[answers.findIndex((res) => res.statusCode === 200)]!;
    for (const res of answers.filter((answer) => answer.statusCode === 409))
      expect(res.json().readable_message).toContain(winner.member.name);
    const [row] = await t.app.db.select().from(advisorTasks).where(eq(advisorTasks.sourceId, sourceId));
    expect(row!.claimedBy).toBe(winner.member.id);
    const claims = (await eventsOf(user.id)).filter((event) => event.type === 'advisor.task_claimed');
    expect(claims).toHaveLength(1);
    expect(claims[0]!.actor).toBe(`staff:${winner.member.id}`);
  });
});
