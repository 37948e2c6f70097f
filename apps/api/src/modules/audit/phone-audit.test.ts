import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeConfirm, codeRequest, createPhone, lastSmsCode, phoneToken } from '../../test/phone.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { phoneAuditId } from './audit.service.js';

describe('audit chains of a phone hold no phone number', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('proofs by SMS code and reverse OTP, and an age refusal, are keyed by a keyed hash', async () => {
    const bySms = createPhone();
    await t.app.inject(codeRequest(bySms));
    expect((await t.app.inject(codeConfirm(bySms, await lastSmsCode(t.app, bySms)))).statusCode).toBe(200);

    const byMessage = createPhone();
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/reverse-otp',
      payload: { phone_number: byMessage },
    });
    const { message } = started.json().data;
    await t.app.inject({
      method: 'POST',
      url: '/dev/reverse-otp/inbound',
      payload: { from: `+1${byMessage}`, text: message },
    });
    const wrongSender = createPhone();
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/reverse-otp',
      payload: { phone_number: wrongSender },
    });
    await t.app.inject({
      method: 'POST',
      url: '/dev/reverse-otp/inbound',
      payload: { from: `+1${createPhone()}`, text: other.json().data.message },
    });

    const tooYoung = createPhone();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${await phoneToken(t.app, tooYoung)}` },
      payload: {
        account_type_id: 'SK',
        name: 'Ana',
        lastname: 'Peña',
        dob: `${new Date().getUTCFullYear() - 15}-01-01`,
        length_of_residency_in_years: 1,
        marital_status: 'SINGLE',
        phone_number: tooYoung,
      },
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(412);

    const rows = (await t.app.db.execute(sql`select * from audit_events`)) as unknown as
      { rows?: unknown[] } | unknown[];
    const table = JSON.stringify(Array.isArray(rows) ? rows : rows.rows);
    for (const phone of [bySms, byMessage, wrongSender, tooYoung]) expect(table).not.toContain(phone.slice(3));

    const chainOf = async (phone: string) => {
      const id = phoneAuditId(t.app, `+1${phone}`);
      expect(id).toMatch(/^phone:[0-9a-f]{64}$/);
      const res = await t.app.inject({
        method: 'GET',
        url: `/ops/v1/audit/${id}`,
        headers: { 'x-api-key': t.app.config.OPS_API_KEY },
      });
      return res.json().data as { chain: { valid: boolean }; events: { type: string }[] };
    };
    expect((await chainOf(bySms)).events.map((event) => event.type)).toEqual(['phone.proven']);
    expect((await chainOf(byMessage)).events.map((event) => event.type)).toEqual(['phone.proven']);
    expect((await chainOf(wrongSender)).events.map((event) => event.type)).toEqual(['phone.proof_failed']);
    const young = await chainOf(tooYoung);
    expect(young.events.map((event) => event.type)).toContain('policy.refused');
    expect(young.chain.valid).toBe(true);
  });
});
