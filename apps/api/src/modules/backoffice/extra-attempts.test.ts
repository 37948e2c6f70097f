import { cedulaCheckDigit } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, contractSigners } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { consentWithOfferedPin, signingLinkFromSms, uploadPhotos, widgetPhotos } from '../../test/signer.js';
import { staffSession } from '../../test/staff.js';
import { manualClock, useTestApp } from '../../test/test-app.js';
import { answerSimulatedChecks } from '../../test/jobs.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
let serial = 0;
/** The verifier simulator refuses these identities (providers/identity/simulator.ts). */
const REJECTED_ID = () => cedula(`9990006${String((serial += 1) + Math.floor(Math.random() * 900)).padStart(3, '0')}`);

/**
 * Issue 26 §3: an extra identity-verification attempt is granted only to a signer who has none
 * left, once per time they run out, three times at most; twenty analysts clicking at once grant one.
 */
describe('back office: extra verification attempts', () => {
  const clock = manualClock(new Date('2026-11-23T12:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' }, undefined, { clock });

  /** A pre-approved shopkeeper whose identity the verifier refuses, with their signing link. */
  async function signerWithLink() {
    const user = await createApplication(t.app, { taxId: REJECTED_ID() });
    await consentWithOfferedPin(t.app, user);
    const analyst = await staffSession(t.app, 'analyst');
    const { token } = await signingLinkFromSms(t.app, user.id);
    const [signer] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, user.id));
    return { user, token, signer: signer!, analyst };
  }

  let take = 0;
  /** One attempt: new photos, and the verifier's (refusing) answer. */
  async function failedAttempt(userId: string, token: string) {
    take += 1;
    const res = await uploadPhotos(t.app, { userId, token }, widgetPhotos(take));
    expect(res.statusCode, res.body).toBe(200);
    clock.advance(t.app.config.IDENTITY_SIMULATOR_DELAY_MS / 1000 + 1);
    await answerSimulatedChecks(t.app);
  }

  const grant = (
    analyst: Awaited<ReturnType<typeof staffSession>>,
    userId: string,
    signerId: string,
    note = 'Cámara dañada',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/backoffice/applications/${userId}/signers/${signerId}/extra-attempt`,
      headers: analyst.headers,
      payload: { note },
    });

  it('only with no attempts left, once each time they run out, at most three times', async () => {
    const { user, token, signer, analyst } = await signerWithLink();
    // Attempts left: nothing to grant.
    const early = await grant(analyst, user.id, signer.id);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'ATTEMPTS_LEFT' });
    expect(early.json().readable_message).toMatch(/todavía tiene intentos/);
    for (let i = 0; i < t.app.config.IDENTITY_MAX_ATTEMPTS; i++) await failedAttempt(user.id, token);

    for (let round = 1; round <= 3; round++) {
      const granted = await grant(analyst, user.id, signer.id);
      expect(granted.statusCode, granted.body).toBe(200);
      expect(granted.json().data.result).toMatchObject({ extra_attempts: round });
      // The grant is not used yet: a second one waits until it is.
      const again = await grant(analyst, user.id, signer.id);
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('ATTEMPTS_LEFT');
      await failedAttempt(user.id, token);
    }
    const fourth = await grant(analyst, user.id, signer.id);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ code: 'EXTRA_ATTEMPTS_LIMIT' });
    expect(fourth.json().readable_message).toMatch(/3 intentos adicionales/);
    const [row] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.id, signer.id));
    expect(row).toMatchObject({ extraAttempts: 3, verificationAttempts: 6, state: 'VERIFICATION_REJECTED' });
    const grants = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id))).filter(
      (event) => event.type === 'identity.attempt_granted',
    );
    expect(grants).toHaveLength(3);
    // The staff's free text stays out of the chain, which outlives an erasure (issue 31): it says a note came.
    for (const event of grants) {
      expect(event.payload).toMatchObject({ signer_id: signer.id, with_note: true });
      expect(event.payload).not.toHaveProperty('note');
      expect(JSON.stringify(event.payload)).not.toContain('Cámara dañada');
    }
  });

  it('20 grants at once for a signer who ran out: exactly one 200, one attempt more, one audit event', async () => {
    const { user, token, signer, analyst } = await signerWithLink();
    for (let i = 0; i < t.app.config.IDENTITY_MAX_ATTEMPTS; i++) await failedAttempt(user.id, token);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => grant(analyst, user.id, signer.id, `Intento ${i + 1}`)),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const [row] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.id, signer.id));
    expect(row).toMatchObject({ extraAttempts: 1, verificationAttempts: 3 });
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${user.id}/mati-status?verification_type=VERIFICATION&person_type=titular`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(status.json().data.verifications_left).toBe(1);
    const grants = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id))).filter(
      (event) => event.type === 'identity.attempt_granted',
    );
    expect(grants).toHaveLength(1);
  });
});
