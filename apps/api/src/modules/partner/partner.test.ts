// The lender's systems through the partner API (issue 30), called over real HTTP with the typed
// client generated from the API's own OpenAPI document: keys and their scopes, the applications
// and the events feed, and the decision after PENDING_APPROVAL up to a disbursed credit.
import { toE164 } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { partnerCalls } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { adminSession, createPartnerKey, lastSmsLink, pendingApprovalApplication } from '../../test/lender.js';
import { partnerClient, type PartnerClient } from '../../test/partner-client/client.js';
import { createPng } from '../../test/factories.js';
import { sendSignature, uploadPhotos } from '../../test/signer.js';
import { createStaffMember } from '../../test/staff.js';
import { useTestApp } from '../../test/test-app.js';
import { createPartnerKey as makePartnerKey } from '../integrations/index.js';
import { answerSimulatedChecks } from '../../test/jobs.js';

const ALL_SCOPES = ['applications:read', 'personal_data:read', 'decisions:write', 'documents:read'] as const;
const APPROVAL = { outcome: 'APPROVED', amount: 10_000, term_months: 12, annual_rate: 36.5 } as const;

describe('the partner API', () => {
  const t = useTestApp({
    NIP_PREFILL: 'true',
    BUREAU_SYNC_WAIT_MS: '3000',
    IDENTITY_SIMULATOR_DELAY_MS: '0',
    JOB_POLL_INTERVAL_MS: '200',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  let baseUrl: string;
  let lender: PartnerClient;
  let lenderKeyId: string;
  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const key = await createPartnerKey(t.app, [...ALL_SCOPES]);
    lender = partnerClient(baseUrl, key.token);
    lenderKeyId = key.id;
  });

  it('no key, an unknown one or a revoked one: 401 in Spanish; a key without the scope: 403', async () => {
    const anonymous = await fetch(`${baseUrl}/partner/v1/applications`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { readable_message: string }).readable_message).toContain('Falta la llave');
    const unknown = await partnerClient(baseUrl, 'pvk_made-up').GET('/partner/v1/applications');
    expect(unknown.response.status).toBe(401);

    const admin = await adminSession(t.app);
    const readOnly = await createPartnerKey(t.app, ['applications:read'], { headers: admin });
    const reader = partnerClient(baseUrl, readOnly.token);
    expect((await reader.GET('/partner/v1/applications')).response.status).toBe(200);
    const pending = await createApplication(t.app);
    const decided = await reader.POST('/partner/v1/applications/{applicationId}/decision', {
      params: { path: { applicationId: pending.id } },
      body: APPROVAL,
    });
    expect(decided.response.status).toBe(403);
    expect(decided.error?.readable_message).toBe('Esta llave no tiene el permiso «decisions:write».');
    const contract = await reader.GET('/partner/v1/applications/{applicationId}/contract', {
      params: { path: { applicationId: pending.id } },
      parseAs: 'blob',
    });
    expect(contract.response.status).toBe(403);

    const revoked = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/partner-keys/${readOnly.id}/revoke`,
      headers: admin,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const afterRevoke = await reader.GET('/partner/v1/applications');
    expect(afterRevoke.response.status).toBe(401);
    expect(afterRevoke.error?.readable_message).toBe('La llave de la API no es válida, fue revocada o venció.');
  });

  it('an application is masked as an advisor sees it unless the key may read personal data', async () => {
    const application = await pendingApprovalApplication(t.app);
    const masked = await partnerClient(baseUrl, (await createPartnerKey(t.app, ['applications:read'])).token).GET(
      '/partner/v1/applications/{applicationId}',
      { params: { path: { applicationId: application.id } } },
    );
    expect(masked.data!.data.person.tax_id).toMatch(/^•+$/);
    expect(masked.data!.data.person.birth_date).toMatch(/^•/);
    const full = await lender.GET('/partner/v1/applications/{applicationId}', {
      params: { path: { applicationId: application.id } },
    });
    const view = full.data!.data;
    expect(view.person.tax_id).toMatch(/^\d{11}$/);
    expect(view).toMatchObject({ next_step: 'PENDING_APPROVAL', status: 'IN_PROGRESS', external_id: null });
    expect(view.credit_decisions.map((decision) => decision.result)).toEqual(['APPROVED', 'APPROVED']);
    expect(view.guarantors).toMatchObject([{ aval_type: 'PARTNER', status: 'APPROVED' }]);
    const missing = await lender.GET('/partner/v1/applications/{applicationId}', {
      params: { path: { applicationId: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(missing.response.status).toBe(404);
  });

  it('lists applications by their last change with a cursor; a change moves one to the end', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const made = [await createApplication(t.app), await createApplication(t.app), await createApplication(t.app)];
    const ids = made.map((one) => one.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    /** The pages from the cursor on; a change is read once the transactions begun before it ended. */
    const walk = () =>
      vi.waitFor(
        async () => {
          for (let page = 0; page < 20; page++) {
            const answer = await lender.GET('/partner/v1/applications', {
              params: { query: { updated_since: since, limit: 2, ...(cursor ? { cursor } : {}) } },
            });
            expect(answer.response.status).toBe(200);
            seen.push(...answer.data!.data.map((one) => one.id));
            if (answer.data!.data.length === 0) break;
            cursor = answer.data!.next_cursor ?? undefined;
          }
          expect(ids.every((id) => seen.includes(id))).toBe(true);
        },
        { timeout: 10_000, interval: 100 },
      );
    await walk();
    expect(seen.filter((id) => ids.includes(id))).toEqual(ids);
    // The first one changes (the lender sets its own id): the same cursor now gives it again.
    const set = await lender.PUT('/partner/v1/applications/{applicationId}/external-id', {
      params: { path: { applicationId: ids[0]! } },
      body: { external_id: `CORE-${ids[0]!.slice(0, 8)}` },
    });
    expect(set.data!.data.external_id).toBe(`CORE-${ids[0]!.slice(0, 8)}`);
    const again = await vi.waitFor(
      async () => {
        const answer = await lender.GET('/partner/v1/applications', {
          params: { query: { updated_since: since, limit: 50, cursor: cursor! } },
        });
        expect(answer.data!.data.map((one) => one.id)).toEqual([ids[0]]);
        return answer.data!.data[0]!;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(again.external_id).toBe(`CORE-${ids[0]!.slice(0, 8)}`);
    const taken = await lender.PUT('/partner/v1/applications/{applicationId}/external-id', {
      params: { path: { applicationId: ids[1]! } },
      body: { external_id: `CORE-${ids[0]!.slice(0, 8)}` },
    });
    expect(taken.response.status).toBe(409);
    expect(taken.error?.readable_message).toBe('Otra solicitud ya tiene ese identificador.');
    // A cursor or a time it cannot use is a Spanish 400, never a database error.
    for (const query of [
      { cursor: 'not-a-cursor' },
      { cursor: `99999999999999999999.${ids[0]}` },
      { updated_since: '0000-01-01T00:00:00Z' },
      { updated_since: '2026-02-31T00:00:00Z' },
    ]) {
      const bad = await lender.GET('/partner/v1/applications', { params: { query } });
      expect(bad.response.status, JSON.stringify(query)).toBe(400);
      expect(bad.error?.readable_message).toBeTruthy();
    }
  });

  it('parallel decisions on one application: exactly one 200, the others 409 with where it stands', async () => {
    const application = await pendingApprovalApplication(t.app);
    const decide = (body: Parameters<PartnerClient['POST']>[1] extends { body: infer B } ? B : never) =>
      lender.POST('/partner/v1/applications/{applicationId}/decision', {
        params: { path: { applicationId: application.id } },
        body,
      });
    const answers = await Promise.all([
      decide(APPROVAL),
      decide({ outcome: 'DECLINED', reason: 'Capacidad de pago insuficiente' }),
      decide(APPROVAL),
      decide({ outcome: 'DECLINED', reason: 'Capacidad de pago insuficiente' }),
      decide({ ...APPROVAL, amount: 9_000 }),
    ]);
    const statuses = answers.map((answer) => answer.response.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    const refused = answers.find((answer) => answer.response.status === 409)!;
    expect(refused.error?.readable_message).toMatch(
      /^Solo se aprueba o rechaza una solicitud «Pendiente de aprobación»/,
    );
    const view = await lender.GET('/partner/v1/applications/{applicationId}', {
      params: { path: { applicationId: application.id } },
    });
    expect(view.data!.data.lender_decisions).toHaveLength(1);
  });

  it('the whole journey to a disbursed credit, driven by the lender’s systems', async () => {
    const application = await pendingApprovalApplication(t.app);
    const path = { path: { applicationId: application.id } };

    // A disbursement before an approval, or an amount over the pre-approved one, is refused.
    const early = await lender.POST('/partner/v1/applications/{applicationId}/decision', {
      params: path,
      body: { outcome: 'DISBURSED' },
    });
    expect(early.response.status).toBe(409);
    const tooMuch = await lender.POST('/partner/v1/applications/{applicationId}/decision', {
      params: path,
      body: { ...APPROVAL, amount: 10_000_000 },
    });
    expect(tooMuch.response.status).toBe(400);

    const approved = await lender.POST('/partner/v1/applications/{applicationId}/decision', {
      params: path,
      body: APPROVAL,
    });
    expect(approved.response.status).toBe(200);
    expect(approved.data!.data).toMatchObject({
      next_step: 'APPROVED',
      status: 'IN_PROGRESS',
      decision: { outcome: 'APPROVED', amount: 10_000, term_months: 12, annual_rate: 36.5 },
    });

    // The signing invitations follow by SMS (jobs of the approval's transaction): the shopkeeper's
    // and the guarantor's, for the approved amount.
    const invitation = (phone: string) =>
      vi.waitFor(
        async () => {
          const found = await lastSmsLink(t.app, toE164(t.app.config.COUNTRY, phone), 'send-contract-sign');
          if (!found) throw new Error('no invitation yet');
          return found;
        },
        { timeout: 15_000, interval: 200 },
      );
    const titular = { userId: application.id, token: (await invitation(application.phone)).token };
    const guarantor = { userId: application.id, token: (await invitation(application.guarantorPhone)).token };
    expect((await uploadPhotos(t.app, titular)).statusCode).toBe(200);
    expect((await uploadPhotos(t.app, guarantor, undefined, 'collateral')).statusCode).toBe(200);
    await answerSimulatedChecks(t.app);

    // Not yet signed, then signed by the shopkeeper alone: no disbursement.
    const disburse = () =>
      lender.POST('/partner/v1/applications/{applicationId}/decision', {
        params: path,
        body: { outcome: 'DISBURSED', reference: 'TRX-1' },
      });
    const unsigned = await disburse();
    expect(unsigned.response.status).toBe(409);
    expect(unsigned.error?.code).toBe('CONTRACT_NOT_SIGNED');
    const signature = () => createPng({ width: 300, height: 470 });
    expect((await sendSignature(t.app, titular, signature())).statusCode).toBe(200);
    const halfSigned = await disburse();
    expect(halfSigned.error?.code).toBe('CONTRACT_NOT_SIGNED');
    // A signed contract says its amount: another approval amount is refused from now on.
    const signed = await sendSignature(t.app, guarantor, signature(), 'collateral');
    expect(signed.statusCode, signed.body).toBe(200);
    const { contract_sha256: contractSha256 } = signed.json().data as { contract_sha256: string };

    const pdf = await lender.GET('/partner/v1/applications/{applicationId}/contract', {
      params: path,
      parseAs: 'arrayBuffer',
    });
    expect(pdf.response.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(pdf.data as ArrayBuffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const evidence = await lender.GET('/partner/v1/applications/{applicationId}/contract/evidence', { params: path });
    expect(evidence.data!.data).toMatchObject({ amount: 10_000, signed_sha256: contractSha256 });

    const disbursed = await disburse();
    expect(disbursed.response.status).toBe(200);
    expect(disbursed.data!.data).toMatchObject({ next_step: 'DISBURSED', decision: { reference: 'TRX-1' } });

    // The events feed tells the same story, numbered per application (an event is read once every
    // transaction that began before its own ended: on a shared server, a moment later).
    const events = await vi.waitFor(
      async () => {
        const feed = await lender.GET('/partner/v1/events', {
          params: { query: { application_id: application.id, limit: 200 } },
        });
        const read = feed.data!.data;
        expect(read.at(-1)?.type).toBe('application.step_changed');
        expect((read.at(-2)?.data as { outcome?: string }).outcome).toBe('DISBURSED');
        return read;
      },
      { timeout: 10_000, interval: 100 },
    );
    const bySequence = [...events].sort((a, b) => a.sequence - b.sequence);
    expect(bySequence.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
    const types = events.map((event) => event.type);
    for (const type of [
      'consent.given',
      'bureau.answered',
      'decision.made',
      'guarantor.named',
      'guarantor.consented',
      'guarantor.decided',
      'identity.verified',
      'contract.signed',
      'contract.sealed',
    ])
      expect(types, type).toContain(type);
    const lenderEvents = events.filter((event) => event.type === 'lender_decision.recorded');
    expect(lenderEvents.map((event) => (event.data as { outcome: string }).outcome)).toEqual(['APPROVED', 'DISBURSED']);
    const signedEvent = events.find((event) => event.type === 'contract.signed')!;
    expect(signedEvent.data).toMatchObject({ person_type: 'titular' });
    const lastSigned = events.filter((event) => event.type === 'contract.signed').at(-1)!;
    expect(lastSigned.data).toMatchObject({ contract_sha256: contractSha256, person_type: 'collateral' });
    // The last signature sealed the file it names (its time-stamp is a job this test does not run).
    const sealed = events.find((event) => event.type === 'contract.sealed')!;
    expect(sealed.data).toEqual({
      contract_id: lastSigned.data.contract_id,
      contract_sha256: contractSha256,
      development: true,
    });
    const steps = events
      .filter((event) => event.type === 'application.step_changed')
      .map((event) => (event.data as { to: { step: string } }).to.step);
    expect(steps.slice(-2)).toEqual(['APPROVED', 'DISBURSED']);
    // Never a tax id, a birth date or a phone number.
    const text = JSON.stringify(events);
    expect(text).not.toContain(application.phone);
    const full = await lender.GET('/partner/v1/applications/{applicationId}', { params: path });
    expect(text).not.toContain(full.data!.data.person.tax_id!);

    // Every call of the key is recorded with it.
    const calls = await t.app.db.select().from(partnerCalls).where(eq(partnerCalls.keyId, lenderKeyId));
    expect(calls.some((call) => call.route.endsWith('/decision') && call.statusCode === 200)).toBe(true);
    expect(calls.every((call) => call.keyId === lenderKeyId)).toBe(true);
  });

  it('the events feed pages by cursor, every event once; the same cursor again when nothing new came', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await lender.GET('/partner/v1/events', {
        params: { query: { limit: 7, ...(after ? { after } : {}) } },
      });
      expect(page.response.status).toBe(200);
      seen.push(...page.data!.data.map((event) => event.id));
      if (page.data!.data.length === 0) {
        expect(page.data!.next_cursor).toBe(after);
        break;
      }
      after = page.data!.next_cursor!;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const all = await lender.GET('/partner/v1/events', { params: { query: { limit: 200 } } });
    expect(seen.slice(0, 200)).toEqual(all.data!.data.map((event) => event.id));
    for (const bad of ['12', 'x.1', '99999999999999999999.1', '1.99999999999999999'])
      expect((await lender.GET('/partner/v1/events', { params: { query: { after: bad } } })).response.status, bad).toBe(
        400,
      );
  });
});

describe('the partner API’s rates: per key and per address, not the global guard’s', () => {
  // The global guard (2 a minute) would stop the lender's systems at their third call.
  const t = useTestApp({ PARTNER_RATE_PER_MINUTE: '3', PARTNER_IP_RATE_PER_MINUTE: '9', RATE_LIMIT_PER_MINUTE: '2' });

  it('a key over its calls per minute gets 429 with Retry-After; another key is not held back; then the address is', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // Keys made as the admin's screen makes them (the back office's calls would meet the global guard here).
    const admin = await createStaffMember(t.app, 'admin');
    const key = async () =>
      partnerClient(
        base,
        (await makePartnerKey(t.app, admin, { name: 'Core', scopes: ['applications:read'], expires_in_days: 1 })).token,
      );
    const [busy, calm] = [await key(), await key()];
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await busy.GET('/partner/v1/events')).response);
    expect(statuses.map((res) => res.status)).toEqual([200, 200, 200, 429]);
    expect(Number(statuses[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await calm.GET('/partner/v1/events')).response.status).toBe(200);
    // Nine calls a minute from this address, whatever their key (an unknown one counts too).
    const stranger = partnerClient(base, 'pvk_made-up');
    const more = [];
    for (let i = 0; i < 5; i++) more.push((await stranger.GET('/partner/v1/events')).response.status);
    expect(more).toEqual([401, 401, 401, 401, 429]);
  });
});
