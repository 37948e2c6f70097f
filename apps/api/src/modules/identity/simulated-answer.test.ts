// The verifier simulator's answer is a job of the check's transaction (decision 030), held back
// until the answer is due (IDENTITY_SIMULATOR_DELAY_MS): the queue answers it with nobody driving.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { contractSigners, identityVerifications } from '../../db/schema.js';
import { identityAnswerDelay, identityAnswers } from '../../observability/metrics.js';
import { jobsOf } from '../../test/jobs.js';
import { signerWithLink, uploadPhotos } from '../../test/signer.js';
import { useTestApp } from '../../test/test-app.js';
import { SIMULATED_ANSWER_JOB } from './identity-check.js';

/** The metrics' count of the simulator's approvals, and of its answers' delays (seconds in all). */
async function simulatorAnswers() {
  const answers = (await identityAnswers.get()).values;
  const delays = (await identityAnswerDelay.get()).values.filter((value) => value.labels.provider === 'simulator');
  return {
    approved:
      answers.find((value) => value.labels.provider === 'simulator' && value.labels.status === 'APPROVED')?.value ?? 0,
    delays: delays.find((value) => value.metricName?.endsWith('_count'))?.value ?? 0,
    seconds: delays.find((value) => value.metricName?.endsWith('_sum'))?.value ?? 0,
  };
}

describe('the identity simulator’s answers through the job queue', () => {
  const t = useTestApp({
    NIP_PREFILL: 'true',
    IDENTITY_SIMULATOR_DELAY_MS: '1500',
    JOB_KINDS_OFF: '',
    JOB_POLL_INTERVAL_MS: '500',
  });

  it('a check’s answer waits for its delay, then the queue gives it', async () => {
    const before = await simulatorAnswers();
    const signer = await signerWithLink(t.app);
    const uploaded = await uploadPhotos(t.app, signer);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const verificationId = uploaded.json().data.verification_id as string;
    const stateOf = async () =>
      (await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, signer.userId)))[0]!.state;
    expect(await stateOf()).toBe('VERIFYING');
    // One job, committed with the check, held back until the answer is due.
    const jobs = (await jobsOf(t.app, SIMULATED_ANSWER_JOB)).filter(
      (job) => (job.data as { verification_id: string }).verification_id === verificationId,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.heldSeconds).toBeGreaterThan(1.4);
    await vi.waitFor(async () => expect(await stateOf()).toBe('VERIFIED'), { timeout: 10_000, interval: 200 });
    const [check] = await t.app.db
      .select()
      .from(identityVerifications)
      .where(eq(identityVerifications.id, verificationId));
    expect(check).toMatchObject({ status: 'APPROVED', answeredBy: 'provider:simulator' });
    expect(check!.answeredAt!.getTime() - check!.createdAt.getTime()).toBeGreaterThanOrEqual(1_500);
    // The verifier's answer in the metrics: one approval, after its delay.
    const after = await simulatorAnswers();
    expect(after.approved - before.approved).toBe(1);
    expect(after.delays - before.delays).toBe(1);
    expect(after.seconds - before.seconds).toBeGreaterThanOrEqual(1.5);
  });
});
