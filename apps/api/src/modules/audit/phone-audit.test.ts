import { sql } from 'drizzle-orm';
import { resultRows } from '../../db/rows.js';
import { describe, expect, it } from 'vitest';
import { codeConfirm, codeRequest, createPhone, lastSmsCode } from '../../test/phone.js';
import { registerProvenPhone } from '../../test/registration.js';
import { useTestApp } from '../../test/test-app.js';
import { phoneAuditId } from './audit.service.js';

describe('audit chains of a phone hold no phone number', () => {
  const t = useTestApp();

  /** A reverse OTP started for `phone`, its message then sent from `sender` (the simulator's inbox). */
  async function replyToReverseOtp(phone: string, sender: string) {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/reverse-otp',
      payload: { phone_number: phone },
    });
    await t.app.inject({
      method: 'POST',
      url: '/dev/reverse-otp/inbound',
      payload: { from: `+1${sender}`, text: started.json().data.message },
    });
  }

  it('proofs by SMS code and reverse OTP, and an age refusal, are keyed by a keyed hash', async () => {
    const bySms = createPhone();
    await t.app.inject(codeRequest(bySms));
    expect((await t.app.inject(codeConfirm(bySms, await lastSmsCode(t.app, bySms)))).statusCode).toBe(200);

    const byMessage = createPhone();
    await replyToReverseOtp(byMessage, byMessage);
    const wrongSender = createPhone();
    await replyToReverseOtp(wrongSender, createPhone());

    const tooYoung = createPhone();
    const refused = await registerProvenPhone(t.app, tooYoung, {
      account_type_id: 'SK',
      name: 'Ana',
      lastname: 'Peña',
      dob: `${new Date().getUTCFullYear() - 15}-01-01`,
      length_of_residency_in_years: 1,
      marital_status: 'SINGLE',
      phone_number: tooYoung,
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(412);

    const table = JSON.stringify(resultRows(await t.app.db.execute(sql`select * from audit_events`)));
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
