// The lender's decision after PENDING_APPROVAL and the contract (issue 30): an analyst records it
// in the back office; the contract is for the approved amount (an unsigned draft is redrafted, a
// signed one holds its amount); a declined application signs nothing; a disbursed one is closed.
import { toE164 } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { contracts } from '../../db/schema.js';
import { answerSimulatedChecks } from '../../test/jobs.js';
import { lastSmsLink, pendingApprovalApplication } from '../../test/lender.js';
import { createPng } from '../../test/factories.js';
import { sendLinkFromBackOffice, sendSignature, uploadPhotos } from '../../test/signer.js';
import { staffSession } from '../../test/staff.js';
import { useTestApp, type TestApp } from '../../test/test-app.js';

type Pending = Awaited<ReturnType<typeof pendingApprovalApplication>>;

async function decide(t: TestApp, applicationId: string, body: object, role: 'analyst' | 'advisor' = 'analyst') {
  const { headers } = await staffSession(t.app, role);
  return t.app.inject({
    method: 'POST',
    url: `/api/backoffice/applications/${applicationId}/lender-decision`,
    headers,
    payload: body,
  });
}

/** The link of the latest signing SMS to this person, once it came. */
async function signingLink(t: TestApp, phone: string) {
  return vi.waitFor(
    async () => {
      const found = await lastSmsLink(t.app, toE164(t.app.config.COUNTRY, phone), 'send-contract-sign');
      if (!found) throw new Error('no signing link yet');
      return found.token;
    },
    { timeout: 15_000, interval: 200 },
  );
}

/** The titular verified and signed with the link the analyst sent before any lender decision. */
async function signedBeforeTheDecision(t: TestApp, application: Pending) {
  expect((await sendLinkFromBackOffice(t.app, application.id)).statusCode).toBe(200);
  const signer = { userId: application.id, token: await signingLink(t, application.phone) };
  expect((await uploadPhotos(t.app, signer)).statusCode).toBe(200);
  await answerSimulatedChecks(t.app);
  return signer;
}

const contractOf = async (t: TestApp, userId: string) =>
  (await t.app.db.select().from(contracts).where(eq(contracts.userId, userId)))[0]!;

describe('the lender’s decision and the contract', () => {
  const t = useTestApp({
    NIP_PREFILL: 'true',
    BUREAU_SYNC_WAIT_MS: '3000',
    IDENTITY_SIMULATOR_DELAY_MS: '0',
    JOB_POLL_INTERVAL_MS: '200',
    RATE_LIMIT_PER_MINUTE: '100000',
  });

  it('an analyst records it; an advisor may not; a bad amount is a Spanish 400', async () => {
    const application = await pendingApprovalApplication(t.app);
    expect((await decide(t, application.id, { outcome: 'DECLINED', reason: 'No' }, 'advisor')).statusCode).toBe(403);
    const bad = await decide(t, application.id, {
      outcome: 'APPROVED',
      amount: 0,
      term_months: 0,
      annual_rate: 12.345,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues.map((issue: { message: string }) => issue.message)).toEqual(
      expect.arrayContaining(['El monto debe ser mayor que cero.', 'El plazo es de 1 a 60 meses.']),
    );
    const approved = await decide(t, application.id, {
      outcome: 'APPROVED',
      amount: 5_000,
      term_months: 6,
      annual_rate: 20,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/backoffice/applications/${application.id}`,
      headers: (await staffSession(t.app, 'analyst')).headers,
    });
    expect(detail.json().data).toMatchObject({
      next_step: 'APPROVED',
      lender_decisions: [{ outcome: 'APPROVED', amount: 5_000, term_months: 6, annual_rate: 20 }],
    });
    // Who decided, in words, whatever page of the timeline the decision's event is on.
    expect(detail.json().data.lender_decisions[0].decided_by_name).toMatch(/\(analista\)$/);
  });

  it('a draft for the pre-approved amount is redrafted for the amount the lender approved', async () => {
    const application = await pendingApprovalApplication(t.app);
    expect((await sendLinkFromBackOffice(t.app, application.id)).statusCode).toBe(200);
    const drafted = await contractOf(t, application.id);
    const approvedAmount = drafted.amount - 1_000;
    const approved = await decide(t, application.id, {
      outcome: 'APPROVED',
      amount: approvedAmount,
      term_months: 12,
      annual_rate: 30,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await vi.waitFor(async () => expect((await contractOf(t, application.id)).amount).toBe(approvedAmount), {
      timeout: 15_000,
    });
    expect((await contractOf(t, application.id)).unsignedSha256).not.toBe(drafted.unsignedSha256);
  });

  it('a contract signed before the decision holds its amount: another is refused, that one approved', async () => {
    const application = await pendingApprovalApplication(t.app);
    const signer = await signedBeforeTheDecision(t, application);
    expect((await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }))).statusCode).toBe(200);
    const signedAmount = (await contractOf(t, application.id)).amount;
    const other = await decide(t, application.id, {
      outcome: 'APPROVED',
      amount: signedAmount - 1_000,
      term_months: 12,
      annual_rate: 30,
    });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'CONTRACT_SIGNED_FOR_OTHER_AMOUNT' });
    expect(other.json().readable_message).toMatch(/^El contrato ya tiene firmas por/);
    const same = await decide(t, application.id, {
      outcome: 'APPROVED',
      amount: signedAmount,
      term_months: 12,
      annual_rate: 30,
    });
    expect(same.statusCode, same.body).toBe(200);

    // The guarantor signs through the invitation the approval sent; then the credit is disbursed,
    // and its contract is closed: no new link.
    const guarantor = { userId: application.id, token: await signingLink(t, application.guarantorPhone) };
    expect((await uploadPhotos(t.app, guarantor, undefined, 'collateral')).statusCode).toBe(200);
    await answerSimulatedChecks(t.app);
    const signed = await sendSignature(t.app, guarantor, createPng({ width: 300, height: 470 }), 'collateral');
    expect(signed.statusCode, signed.body).toBe(200);
    const disbursed = await decide(t, application.id, { outcome: 'DISBURSED', reference: 'TRX-77' });
    expect(disbursed.statusCode, disbursed.body).toBe(200);
    const late = await sendLinkFromBackOffice(t.app, application.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('CONTRACT_CLOSED');
  });

  it('a declined application: a link sent before signs nothing', async () => {
    const application = await pendingApprovalApplication(t.app);
    const signer = await signedBeforeTheDecision(t, application);
    const declined = await decide(t, application.id, { outcome: 'DECLINED', reason: 'Capacidad de pago' });
    expect(declined.statusCode, declined.body).toBe(200);
    const signature = await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }));
    expect(signature.statusCode).toBe(409);
    expect(signature.json()).toMatchObject({
      code: 'APPLICATION_CLOSED',
      readable_message: 'Esta solicitud ya no está vigente: no hace falta firmar el contrato.',
    });
    const user = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/${application.id}/SK`,
      headers: application.auth,
    });
    expect(user.json().data).toMatchObject({ next_step: 'PENDING_APPROVAL', status: 'REJECTED' });
    expect(JSON.stringify(user.json())).not.toContain('Capacidad de pago');
  });
});
