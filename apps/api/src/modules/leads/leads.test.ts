import { describe, expect, it } from 'vitest';
import { createPhone, phoneToken } from '../../test/phone.js';
import { useTestApp, withTestApp } from '../../test/test-app.js';

function createLead(phone: string, overrides: Record<string, unknown> = {}) {
  const now = new Date().toISOString();
  return {
    lead_id: `lead-${Math.random().toString(36).slice(2)}`,
    lead_type: 'INTERNAL',
    shopkeeper_phone: phone,
    utm_source: 'radio',
    utm_medium: null,
    utm_campaign: 'colmados',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

describe('POST /ops/v1/lead-assignment', () => {
  const t = useTestApp();

  const post = (payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/ops/v1/lead-assignment', payload, headers });

  it('stores a lead from the web app (its key plus the phone token) and is idempotent on lead_id', async () => {
    const phone = createPhone();
    const token = await phoneToken(t.app, phone);
    const headers = { 'x-api-key': t.app.config.WEB_LEAD_API_KEY, authorization: `Bearer ${token}` };
    const lead = createLead(phone);
    const first = await post(lead, headers);
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({
      lead_id: lead.lead_id,
      shopkeeper_phone: phone,
      utm_source: 'radio',
      utm_medium: null,
    });
    const again = await post({ ...lead, utm_source: 'changed' }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.utm_source).toBe('radio');
    const rows = await t.app.db.query.leads.findMany();
    expect(rows.filter((row) => row.leadId === lead.lead_id)).toHaveLength(1);
  });

  it('the web key alone is not enough: it needs the token of that phone', async () => {
    const phone = createPhone();
    expect((await post(createLead(phone), { 'x-api-key': t.app.config.WEB_LEAD_API_KEY })).statusCode).toBe(401);
    const otherToken = await phoneToken(t.app, createPhone());
    const res = await post(createLead(phone), {
      'x-api-key': t.app.config.WEB_LEAD_API_KEY,
      authorization: `Bearer ${otherToken}`,
    });
    expect(res.statusCode).toBe(403);
  });

  it('a lead_id already used for another phone is a 409, not a leak', async () => {
    const mine = createPhone();
    const lead = createLead(mine);
    expect((await post(lead, { 'x-api-key': t.app.config.OPS_API_KEY })).statusCode).toBe(201);
    const intruder = createPhone();
    const token = await phoneToken(t.app, intruder);
    const res = await post(
      { ...lead, shopkeeper_phone: intruder },
      { 'x-api-key': t.app.config.WEB_LEAD_API_KEY, authorization: `Bearer ${token}` },
    );
    expect(res.statusCode).toBe(409);
    expect(res.body).not.toContain(mine);
  });

  it('the operations key works without a user token; no key or a wrong one is a 401', async () => {
    expect((await post(createLead(createPhone()), { 'x-api-key': t.app.config.OPS_API_KEY })).statusCode).toBe(201);
    expect((await post(createLead(createPhone()), {})).statusCode).toBe(401);
    expect((await post(createLead(createPhone()), { 'x-api-key': 'wrong-key-wrong' })).statusCode).toBe(401);
  });

  it('the web key opens no other operations route', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/ops/v1/audit/x',
      headers: { 'x-api-key': t.app.config.WEB_LEAD_API_KEY },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an invalid payload with field issues', async () => {
    const res = await post(createLead('123', { lead_type: 'EXTERNAL', created_at: 'ayer' }), {
      'x-api-key': t.app.config.OPS_API_KEY,
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().issues.map((issue: { field: string }) => issue.field);
    expect(fields).toEqual(expect.arrayContaining(['body.lead_type', 'body.shopkeeper_phone', 'body.created_at']));
  });
});

describe('POST /api/v1/client-errors', () => {
  it('stores and logs the report, with the phone masked', async () => {
    await withTestApp({}, async (t) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/client-errors',
        payload: {
          level: 'error',
          method: 'GET',
          path: '/api/v1/users?phone_number=8095551234',
          status: 503,
          code: 'X',
          request_id: 'r-1',
        },
      });
      expect(res.statusCode).toBe(204);
      const rows = await t.app.db.query.clientErrors.findMany();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ level: 'error', status: 503, requestId: 'r-1' });
      expect(rows[0]!.path).not.toContain('8095551234');
      const logged = t.logs.find((line) => line.msg === 'client reported a failed call');
      expect(logged?.level).toBe(50);
      expect(JSON.stringify(t.logs)).not.toContain('8095551234');
      const bad = await t.app.inject({ method: 'POST', url: '/api/v1/client-errors', payload: { level: 'fatal' } });
      expect(bad.statusCode).toBe(400);
    });
  });
});
