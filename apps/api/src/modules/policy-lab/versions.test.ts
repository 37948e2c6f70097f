import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cedulaCheckDigit } from '@provee/domain';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, creditDecisions, creditPolicies, creditShadowDecisions } from '../../db/schema.js';
import { createApplication, lastSmsPin, shopkeeperCall } from '../../test/factories.js';
import { createPhone, phoneToken } from '../../test/phone.js';
import { registrationData } from '../../test/registration.js';
import { lab } from '../../test/policy-lab.js';
import { staffSession } from '../../test/staff.js';
import { manualClock, useTestApp } from '../../test/test-app.js';
import { verifyAuditChain } from '../audit/index.js';
import { defaultPolicy } from '../policies/index.js';

/**
 * The policy's versions on each database (issue 33): four eyes, 20 concurrent publishes, the next
 * decision made by the published version, decisions already made untouched, rollback, shadow,
 * immutability, validation, and a long backtest as a job.
 */

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
let serial = 0;
const randomTen = () => `5${String((Date.now() % 1e5) * 1e3 + (serial++ % 1000)).padStart(9, '0')}`;
describe('policy versions', () => {
  const clock = manualClock(new Date('2026-11-21T15:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' }, undefined, { clock });

  async function decided(businessAgeYears: number) {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()), businessAgeYears, salesRange: 3 });
    expect((await shopkeeperCall(t.app, user, 'POST', '/nip')).statusCode).toBe(200);
    const res = await shopkeeperCall(t.app, user, 'PUT', '/nip', { nip: await lastSmsPin(t.app, user.phone) });
    expect([200, 422], res.body).toContain(res.statusCode);
    const [decision] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, user.id));
    return decision!;
  }
  const policyEvents = async () =>
    t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, 'policy:do')).orderBy(asc(auditEvents.id));

  it('four eyes: the author cannot publish their own draft, an analyst cannot publish, another admin can', async () => {
    const author = await staffSession(t.app, 'admin');
    const analyst = await staffSession(t.app, 'analyst');
    const other = await staffSession(t.app, 'admin');
    const draft = await lab(t).draft(author, { min_score: 520 });

    const own = await lab(t).publish(author, draft);
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({
      code: 'POLICY_FOUR_EYES',
      readable_message: 'Escribiste esta versión: otra persona administradora debe revisarla y publicarla.',
    });
    const detail = (await lab(t).call(author, 'GET', `/policies/${draft.id}`)).json().data;
    expect(detail).toMatchObject({ may_edit: true, may_publish: false });
    expect((await lab(t).publish(analyst, draft)).statusCode).toBe(403);
    // Someone else's draft is not theirs to change.
    const { version: _v, ...document } = draft.document;
    const edit = await lab(t).call(other, 'PUT', `/policies/${draft.id}`, { revision: draft.revision, document });
    expect(edit.json()).toMatchObject({ code: 'POLICY_NOT_AUTHOR' });
    // A revision the publisher did not read is not published.
    expect((await lab(t).publish(other, { ...draft, revision: draft.revision - 1 })).statusCode).toBe(409);

    const published = await lab(t).publish(other, draft);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().data).toMatchObject({ status: 'PUBLISHED', live: true });
    expect((await lab(t).live(analyst)).id).toBe(draft.id);
    const events = await policyEvents();
    expect(events.at(-1)).toMatchObject({
      actor: `staff:${other.member.id}`,
      type: 'policy.published',
      payload: { policy_id: draft.id, mode: 'live', author: `staff:${author.member.id}` },
    });
    // Published is for good: no save, no discard, and the database refuses a change whatever code runs.
    expect((await lab(t).call(author, 'PUT', `/policies/${draft.id}`, { revision: 2, document })).statusCode).toBe(409);
    expect((await lab(t).call(author, 'DELETE', `/policies/${draft.id}`)).statusCode).toBe(409);
    await expect(
      t.app.db
        .update(creditPolicies)
        .set({ document: sql`jsonb_set(document, '{eligibility,min_score}', '1')` })
        .where(eq(creditPolicies.id, draft.id)),
    ).rejects.toThrow();
  });

  it("four eyes hold through the side doors: a copy of someone's draft, a version its writer makes live after a shadow run", async () => {
    const writer = await staffSession(t.app, 'admin');
    const copier = await staffSession(t.app, 'analyst');
    const other = await staffSession(t.app, 'admin');
    const draft = await lab(t).draft(writer, { min_score: 1 });
    // Only a published version is a draft's start: a copy would let its writer publish it as the copier's.
    const copy = await lab(t).call(copier, 'POST', '/policies', { based_on: draft.id });
    expect(copy.statusCode).toBe(409);
    expect(copy.json().readable_message).toBe('Un borrador se empieza desde una versión publicada.');
    // Published in shadow by another admin, its writer cannot make it decide.
    expect((await lab(t).publish(other, draft, 'shadow')).statusCode).toBe(200);
    const own = await lab(t).call(writer, 'POST', `/policies/${draft.id}/activate`);
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('POLICY_FOUR_EYES');
    expect((await lab(t).call(writer, 'GET', `/policies/${draft.id}`)).json().data.may_activate).toBe(false);
    const promoted = await lab(t).call(other, 'POST', `/policies/${draft.id}/activate`);
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json().data).toMatchObject({ live: true, shadow: false });
    expect((await policyEvents()).at(-1)).toMatchObject({
      type: 'policy.activated',
      payload: { policy_id: draft.id, shadow_stopped: true },
    });
    // The four eyes' evidence and a published version are the database's to keep.
    await expect(
      t.app.db.update(creditPolicies).set({ author: 'system' }).where(eq(creditPolicies.id, draft.id)),
    ).rejects.toThrow();
    await expect(t.app.db.delete(creditPolicies).where(eq(creditPolicies.id, draft.id))).rejects.toThrow();
  });

  it('20 parallel publishes of one draft: one wins, one live version, one audited event', async () => {
    const author = await staffSession(t.app, 'analyst');
    const admins = await Promise.all(Array.from({ length: 4 }, () => staffSession(t.app, 'admin')));
    const draft = await lab(t).draft(author, { min_score: 530 });
    const before = (await policyEvents()).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => lab(t).publish(admins[index % admins.length]!, draft)),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(19);
    const list = await lab(t).versions(author);
    expect(list.filter((version) => version.live)).toEqual([expect.objectContaining({ id: draft.id })]);
    const events = (await policyEvents()).slice(before);
    expect(events.map((event) => event.type)).toEqual(['policy.published']);
  });

  it('20 drafts begun at once get 20 numbers and labels; 20 rollbacks at once move the live version once', async () => {
    const author = await staffSession(t.app, 'analyst');
    const admin = await staffSession(t.app, 'admin');
    const begun = await Promise.all(Array.from({ length: 20 }, () => lab(t).call(author, 'POST', '/policies', {})));
    expect(begun.map((res) => res.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(begun.map((res) => res.json().data.number)).size).toBe(20);
    expect(new Set(begun.map((res) => res.json().data.label)).size).toBe(20);

    const live = await lab(t).live(author);
    const earlier = (await lab(t).versions(author)).find((version) => version.status === 'PUBLISHED' && !version.live)!;
    const before = (await policyEvents()).length;
    const rollbacks = await Promise.all(
      Array.from({ length: 20 }, () => lab(t).call(admin, 'POST', `/policies/${earlier.id}/activate`)),
    );
    expect(rollbacks.map((res) => res.statusCode).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect((await lab(t).live(author)).id).toBe(earlier.id);
    expect((await policyEvents()).slice(before)).toHaveLength(1);
    expect((await lab(t).call(admin, 'POST', `/policies/${live.id}/activate`)).statusCode).toBe(200);
  });

  it('20 parallel publishes of 20 drafts: one live version, the one the chain published last; the chain holds', async () => {
    const author = await staffSession(t.app, 'analyst');
    const admin = await staffSession(t.app, 'admin');
    const drafts = [];
    for (let index = 0; index < 20; index++) drafts.push(await lab(t).draft(author, { min_score: 540 + index }));
    const answers = await Promise.all(drafts.map((draft) => lab(t).publish(admin, draft)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    const live = (await lab(t).versions(author)).filter((version) => version.live);
    expect(live).toHaveLength(1);
    const last = (await policyEvents()).at(-1)!;
    expect(last.payload).toMatchObject({ policy_id: live[0]!.id });
    expect((await verifyAuditChain(t.app.db, 'policy:do')).valid).toBe(true);
  });

  it('the next decision is made by the published version, earlier ones stay as made; a rollback restores the earlier version', async () => {
    const analyst = await staffSession(t.app, 'analyst');
    const admin = await staffSession(t.app, 'admin');
    const start = await lab(t).live(analyst);
    const earlier = await decided(1);
    expect(earlier).toMatchObject({ result: 'APPROVED', policyVersion: start.label });

    const draft = await lab(t).draft(analyst, { min_business_age_years: 2 });
    expect((await lab(t).publish(admin, draft)).statusCode).toBe(200);
    const next = await decided(1);
    expect(next).toMatchObject({ result: 'REJECTED', policyVersion: draft.label });
    expect(next.rules).toContainEqual(
      expect.objectContaining({ rule: 'min_business_age_years', passed: false, threshold: 2 }),
    );
    const [kept] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.id, earlier.id));
    expect(kept).toEqual(earlier);

    const rollback = await lab(t).call(admin, 'POST', `/policies/${start.id}/activate`);
    expect(rollback.statusCode, rollback.body).toBe(200);
    expect((await policyEvents()).at(-1)).toMatchObject({
      type: 'policy.rolled_back',
      payload: { policy_id: start.id, previous_live_id: draft.id },
    });
    expect(await decided(1)).toMatchObject({ result: 'APPROVED', policyVersion: start.label });
    // Activating the live one again is refused; an analyst may not roll back.
    expect((await lab(t).call(admin, 'POST', `/policies/${start.id}/activate`)).statusCode).toBe(409);
    expect((await lab(t).call(analyst, 'POST', `/policies/${draft.id}/activate`)).statusCode).toBe(403);
  });

  it('a version in shadow judges every new decision beside the live one, stored and compared, never acted on', async () => {
    const analyst = await staffSession(t.app, 'analyst');
    const admin = await staffSession(t.app, 'admin');
    const live = await lab(t).live(analyst);
    const draft = await lab(t).draft(analyst, { min_business_age_years: 3 });
    expect((await lab(t).publish(admin, draft, 'shadow')).statusCode).toBe(200);
    expect((await lab(t).live(analyst)).id).toBe(live.id);

    const young = await decided(1);
    const old = await decided(4);
    expect(young).toMatchObject({ result: 'APPROVED', policyVersion: live.label });
    const shadows = await t.app.db
      .select()
      .from(creditShadowDecisions)
      .where(eq(creditShadowDecisions.policyId, draft.id));
    expect(shadows.map((row) => [row.decisionId, row.result]).sort()).toEqual(
      [
        [young.id, 'REJECTED'],
        [old.id, 'APPROVED'],
      ].sort(),
    );
    const view = (await lab(t).call(analyst, 'GET', '/policy-shadow')).json().data;
    expect(view.shadow).toMatchObject({ id: draft.id, shadow: true });
    expect(view.days).toEqual([{ day: '2026-11-21', decisions: 2, agreed: 1, agreement_rate: 0.5 }]);

    // Stopped: the next decision has no shadow outcome.
    expect((await lab(t).call(admin, 'PUT', '/policy-shadow', { policy_id: null })).statusCode).toBe(200);
    const after = await decided(4);
    expect(
      await t.app.db.select().from(creditShadowDecisions).where(eq(creditShadowDecisions.decisionId, after.id)),
    ).toHaveLength(0);
    expect((await policyEvents()).slice(-2).map((event) => event.type)).toEqual([
      'policy.published',
      'policy.shadow_stopped',
    ]);
  });

  it('the registration refuses by the live version too (its ages, at step 1)', async () => {
    const analyst = await staffSession(t.app, 'analyst');
    const admin = await staffSession(t.app, 'admin');
    const register = async (dob: string) => {
      const phone = createPhone();
      return t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { authorization: `Bearer ${await phoneToken(t.app, phone)}` },
        payload: registrationData(phone, { dob }),
      });
    };
    const draft = await lab(t).draft(analyst, { min_age: 30 });
    expect((await lab(t).publish(admin, draft)).statusCode).toBe(200);
    const young = await register('2000-01-01'); // 26 on the test's day
    expect(young.statusCode).toBe(422);
    expect(young.json().readable_message).toBe('Debes tener al menos 30 años para solicitar el crédito.');
    const [refusal] = await t.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, 'policy.refused'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(refusal!.payload).toMatchObject({ min_age: 30, policy_version: draft.label });
    expect((await register('1990-01-01')).statusCode).toBe(201);
  });

  it('a draft with invalid thresholds is a Spanish 400 naming the field; the draft is unchanged', async () => {
    const analyst = await staffSession(t.app, 'analyst');
    const created = (await lab(t).call(analyst, 'POST', '/policies', {})).json().data;
    const { version: _v, ...document } = created.document;
    const tooYoung = await lab(t).call(analyst, 'PUT', `/policies/${created.id}`, {
      revision: created.revision,
      document: { ...document, eligibility: { ...document.eligibility, min_age: 10 } },
    });
    expect(tooYoung.statusCode).toBe(400);
    expect(tooYoung.json().issues).toContainEqual({
      field: 'body.document.eligibility.min_age',
      message: 'Edad mínima: de 18 a 120.',
    });
    const crossed = await lab(t).call(analyst, 'PUT', `/policies/${created.id}`, {
      revision: created.revision,
      document: { ...document, eligibility: { ...document.eligibility, min_age: 60, max_age: 40 } },
    });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.body).toContain('La edad máxima no puede ser menor que la mínima.');
    const detail = (await lab(t).call(analyst, 'GET', `/policies/${created.id}`)).json().data;
    expect(detail).toMatchObject({ revision: created.revision, document: created.document });
    const noBandAtZero = await lab(t).call(analyst, 'PUT', `/policies/${created.id}`, {
      revision: created.revision,
      document: { ...document, amount: { ...document.amount, score_bands: [{ min_score: 700, factor: 2 }] } },
    });
    expect(noBandAtZero.statusCode).toBe(400);
    expect(noBandAtZero.body).toContain('Una banda debe empezar en el puntaje 0');
    // Days outside the years records hold are a Spanish 400, not a failure of the database.
    for (const range of [
      { from: '0001-01-01', to: '2026-11-21' },
      { from: '2026-11-01', to: '9999-12-31' },
    ]) {
      const res = await lab(t).call(analyst, 'POST', `/policies/${created.id}/backtests`, range);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('La fecha debe estar entre los años 2000 y 2100.');
    }
    // Discarded, it is gone from the drafts and cannot be published.
    expect((await lab(t).call(analyst, 'DELETE', `/policies/${created.id}`)).json().data.status).toBe('DISCARDED');
  });
});

describe('a long backtest', () => {
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000', POLICY_BACKTEST_INLINE_MAX: '1' });

  it('runs as a job with progress, and counts the same as in the request', async () => {
    for (const age of [1, 3]) {
      const user = await createApplication(t.app, { taxId: cedula(randomTen()), businessAgeYears: age, salesRange: 3 });
      await shopkeeperCall(t.app, user, 'POST', '/nip');
      await shopkeeperCall(t.app, user, 'PUT', '/nip', { nip: await lastSmsPin(t.app, user.phone) });
    }
    const analyst = await staffSession(t.app, 'analyst');
    const draft = await lab(t).draft(analyst, { min_business_age_years: 2 });
    const today = new Date().toISOString().slice(0, 10);
    const started = await lab(t).call(analyst, 'POST', `/policies/${draft.id}/backtests`, {
      from: '2026-01-01',
      to: today,
    });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().data).toMatchObject({ status: 'RUNNING', total: 2, result: null });
    let view = started.json().data;
    for (let tries = 0; view.status === 'RUNNING' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      view = (await lab(t).call(analyst, 'GET', `/policy-backtests/${view.id}`)).json().data;
    }
    expect(view).toMatchObject({
      status: 'DONE',
      processed: 2,
      result: { as_decided: { decisions: 2, approved: 2 }, tested: { approved: 1 }, approved_to_rejected: 1 },
    });
    // Another staff member's backtest of another country's version does not exist here.
    const missing = await lab(t).call(analyst, 'GET', `/policy-backtests/${draft.id}`);
    expect(missing.statusCode).toBe(404);
  });
});

describe('a first version whose file is labelled like the drafts', () => {
  const file = join(tmpdir(), `policy-v2-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ ...defaultPolicy, version: 'v2' }));
  const t = useTestApp({ CREDIT_POLICY_FILE: file });

  it('gives the second version a label of its own', async () => {
    const analyst = await staffSession(t.app, 'analyst');
    const first = await lab(t).call(analyst, 'POST', '/policies', {});
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ number: 2, label: 'v2-2' });
    expect((await lab(t).call(analyst, 'POST', '/policies', {})).json().data).toMatchObject({ number: 3, label: 'v3' });
  });
});
