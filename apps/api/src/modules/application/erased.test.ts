// An erased application (issue 31, review finding 2) keeps its row and states, but the step engine
// writes nothing more of it: every guarded write answers 410 PERSON_ERASED, and the signing jobs
// take that as final instead of retrying. Review finding 2(b): the lender's decision on an erased
// application at PENDING_APPROVAL, from the back office, is refused.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, contractSigners, users } from '../../db/schema.js';
import { createApplication, createPng } from '../../test/factories.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { staffSession } from '../../test/staff.js';
import { useTestApp, type TestApp } from '../../test/test-app.js';
import { eraseApplication } from '../privacy/index.js';
import { signingDeps, signingInvitationJob } from '../signing/index.js';
import { amendApplication, claimStep, engineOf, moveApplication, moveSigner } from './index.js';
import { isErasedPhone } from './erased.js';

const erase = (t: TestApp, id: string) => t.app.db.transaction((tx) => eraseApplication(t.app, tx, id, 'staff:test'));
const rowOf = async (t: TestApp, id: string) => (await t.app.db.select().from(users).where(eq(users.id, id)))[0]!;
const eventsOf = async (t: TestApp, id: string, type: string) =>
  t.app.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.applicationId, id), eq(auditEvents.type, type)));
const PERSON_ERASED = { statusCode: 410, code: 'PERSON_ERASED' };

describe('the step engine refuses an erased application (410)', () => {
  const t = useTestApp(MANY_UPLOADS_ENV);

  it('the back office’s lender decision at PENDING_APPROVAL: 410 in Spanish, nothing moves or is recorded', async () => {
    const application = await createApplication(t.app, { nextStep: 'PENDING_APPROVAL' });
    await erase(t, application.id);
    // The marker the erasure writes is the one the engine recognizes.
    expect(isErasedPhone((await rowOf(t, application.id)).phoneE164)).toBe(true);
    const { headers } = await staffSession(t.app, 'analyst');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/applications/${application.id}/lender-decision`,
      headers,
      payload: { outcome: 'APPROVED', amount: 5_000, term_months: 6, annual_rate: 20 },
    });
    expect(res.statusCode, res.body).toBe(410);
    expect(res.json()).toMatchObject({
      code: 'PERSON_ERASED',
      readable_message: 'Estos datos se eliminaron a petición de su titular o por el plazo de conservación.',
    });
    expect(await rowOf(t, application.id)).toMatchObject({ nextStep: 'PENDING_APPROVAL', status: 'IN_PROGRESS' });
    expect(await eventsOf(t, application.id, 'lender.decision_recorded')).toEqual([]);
  });

  it('moveApplication, claimStep and amendApplication, called directly: 410, the row untouched', async () => {
    const application = await createApplication(t.app, { nextStep: 'BUSINESS_ADDRESS' });
    await erase(t, application.id);
    const before = await rowOf(t, application.id);
    const deps = engineOf(t.app);
    await expect(
      moveApplication(deps, { userId: application.id, transition: 'address', actor: 'system' }),
    ).rejects.toMatchObject(PERSON_ERASED);
    await expect(claimStep(deps, application.id, 'address')).rejects.toMatchObject(PERSON_ERASED);
    await expect(
      amendApplication(deps, { userId: application.id, amendment: 'personal', actor: 'system', set: { name: 'Ana' } }),
    ).rejects.toMatchObject(PERSON_ERASED);
    const after = await rowOf(t, application.id);
    expect(after).toMatchObject({ nextStep: before.nextStep, name: before.name, stepClaim: null });
    expect(await eventsOf(t, application.id, 'step.amended')).toEqual([]);
  });

  it('a signer of an erased application moves no more (moveSigner, called directly): 410, the signer untouched', async () => {
    const signer = await verifiedSigner(t.app);
    await erase(t, signer.userId);
    const [row] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, signer.userId));
    await expect(
      moveSigner(engineOf(t.app), {
        signerId: row!.id,
        transition: 'reverification-started',
        to: 'VERIFYING',
        actor: 'system',
      }),
    ).rejects.toMatchObject(PERSON_ERASED);
    const [after] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.id, row!.id));
    expect(after!.state).toBe(row!.state);
    // Through the route too: no signature on an erased application.
    const signed = await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }));
    expect(signed.statusCode, signed.body).toBe(410);
    expect(await eventsOf(t, signer.userId, 'contract.signed')).toEqual([]);
  });

  it('the signing invitation job of an erased application ends (a 410 is final, never retried)', async () => {
    const application = await createApplication(t.app, { nextStep: 'PENDING_APPROVAL' });
    const { headers } = await staffSession(t.app, 'analyst');
    const approved = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/applications/${application.id}/lender-decision`,
      headers,
      payload: { outcome: 'APPROVED', amount: 5_000, term_months: 6, annual_rate: 20 },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await erase(t, application.id);
    // The titular's invitation, queued before the erasure, runs after it: it reads a destroyed key (410).
    const job = signingInvitationJob(signingDeps(t.app));
    await expect(
      job.run({ user_id: application.id, person_type: 'titular' }, { retry: 0, last: false }),
    ).resolves.toBeUndefined();
  });
});
