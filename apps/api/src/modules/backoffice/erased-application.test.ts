// An erased application (issue 31, review finding 6) is still read by the back office and by the
// lender's systems: 200 with what is left — its states, its decisions, its audit chain (which still
// verifies) — and null where a value would need the destroyed data key (tax id, birth date), not a
// 410 for the whole record.
import { describe, expect, it } from 'vitest';
import { createApplication } from '../../test/factories.js';
import { createPartnerKey } from '../../test/lender.js';
import { staffSession } from '../../test/staff.js';
import { useTestApp, type TestApp } from '../../test/test-app.js';
import { eraseApplication } from '../privacy/index.js';

const erase = (t: TestApp, id: string) => t.app.db.transaction((tx) => eraseApplication(t.app, tx, id, 'staff:test'));

describe('an erased application, read by staff and by the lender', () => {
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '0' });

  it('the back office detail: 200, states and the verified chain with the erasure, no tax id or birth date', async () => {
    const application = await createApplication(t.app, { nextStep: 'PENDING_APPROVAL' });
    await erase(t, application.id);
    const { headers } = await staffSession(t.app, 'analyst');
    const res = await t.app.inject({ method: 'GET', url: `/api/backoffice/applications/${application.id}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json().data;
    expect(detail).toMatchObject({
      id: application.id,
      next_step: 'PENDING_APPROVAL',
      status: 'IN_PROGRESS',
      person: { tax_id: null, birth_date: null },
    });
    const chain = detail.timeline.find((entry: { chain: string }) => entry.chain === 'application');
    expect(chain.valid).toBe(true);
    expect(chain.events.map((event: { type: string }) => event.type)).toContain('privacy.erased');
  });

  it('the partner API’s application: 200 with its states, null for what was decrypted', async () => {
    const application = await createApplication(t.app, { nextStep: 'PENDING_APPROVAL' });
    await erase(t, application.id);
    const key = await createPartnerKey(t.app, ['applications:read', 'personal_data:read', 'decisions:write']);
    const res = await t.app.inject({
      method: 'GET',
      url: `/partner/v1/applications/${application.id}`,
      headers: { authorization: `Bearer ${key.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: application.id,
      next_step: 'PENDING_APPROVAL',
      status: 'IN_PROGRESS',
      person: { tax_id: null, birth_date: null },
    });
    // Its decision, though, is refused: an erased application takes none (410, as the document says).
    const decided = await t.app.inject({
      method: 'POST',
      url: `/partner/v1/applications/${application.id}/decision`,
      headers: { authorization: `Bearer ${key.token}` },
      payload: { outcome: 'DECLINED', reason: 'Sin datos' },
    });
    expect(decided.statusCode, decided.body).toBe(410);
    expect(decided.json().code).toBe('PERSON_ERASED');
  });
});
