import { cedulaCheckDigit } from '@provee/domain';
import { describe, expect, it } from 'vitest';
import { createApplication, userAuth } from '../../test/factories.js';
import { staffSession } from '../../test/staff.js';
import { useTestApp } from '../../test/test-app.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/**
 * Issue 26 §3: the address a consent was given from is evidence for analysts; an advisor, who
 * calls the shopkeeper, sees that the consent exists and when, never where from.
 */
describe('back office: the consent IP is not shown to advisors', () => {
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' });

  it('analysts see it in the consent; an advisor’s answer holds it nowhere', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const auth = userAuth(t.app, user);
    const from = '198.51.100.77';
    const nip = (
      await t.app.inject({ method: 'POST', url: `/api/v1/users/${user.id}/SK/nip`, headers: auth, remoteAddress: from })
    ).json().data.default_nip;
    const consent = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/nip`,
      headers: auth,
      payload: { nip },
      remoteAddress: from,
    });
    expect(consent.statusCode, consent.body).toBe(200);

    const analyst = await staffSession(t.app, 'analyst');
    const advisor = await staffSession(t.app, 'advisor');
    const read = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/api/backoffice/applications/${user.id}`, headers });
    const asAnalyst = (await read(analyst.headers)).json().data;
    expect(asAnalyst.consents[0]).toMatchObject({ ip: from, pin_verified: true });

    const res = await read(advisor.headers);
    expect(res.statusCode).toBe(200);
    const asAdvisor = res.json().data;
    expect(asAdvisor.consents).toHaveLength(1);
    expect(asAdvisor.consents[0]).toMatchObject({ ip: null, pin_verified: true });
    expect(asAdvisor.consents[0].created_at).toBe(asAnalyst.consents[0].created_at);
    expect(res.body).not.toContain(from);
    // Nor through the exports (analysts and admins only).
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/backoffice/exports/consents.csv?from=2020-01-01&to=2099-12-31',
      headers: advisor.headers,
    });
    expect(exported.statusCode).toBe(403);
  });
});
