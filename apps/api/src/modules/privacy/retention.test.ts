// The retention schedule (issue 31): rules as data run daily by a job of the queue. Rows of
// different ages from the factories and a hand-moved clock: exactly the due ones go, a day younger
// stays, a rule switched off does nothing, each run leaves one audit event with its counts, and two
// runs at once erase each application once.
import type { RetentionScheduleView } from '@provee/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditEvents,
  bureauConsents,
  clientErrors,
  contracts,
  creditDecisions,
  identityDocuments,
  identityVerifications,
  outgoingMessages,
  phoneCodes,
  phoneProofStarts,
  reverseOtpSessions,
  smsOutbox,
  users,
} from '../../db/schema.js';
import { createApplication, createPng } from '../../test/factories.js';
import { codeRequest, createPhone } from '../../test/phone.js';
import { runQueuedJobs } from '../../test/jobs.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { staffSession } from '../../test/staff.js';
import { createTestApp, manualClock, type TestApp } from '../../test/test-app.js';
import type { App } from '../../types.js';
import { engineOf, moveApplication } from '../application/index.js';
import { verifyAuditChain } from '../audit/index.js';
import { RETENTION_JOB, retentionDeps } from './retention-job.js';
import { RETENTION_CHAIN, runRetentionSchedule } from './retention-run.js';
import { setRuleEnabled } from './retention.store.js';

const DAY = 86_400;
const HOUR = 3_600;

/** An app of its own on a clock the test moves (each test counts what its runs did). */
function withClockApp(use: (t: TestApp, clock: ReturnType<typeof manualClock>) => Promise<void>) {
  const clock = manualClock(new Date('2026-01-05T12:00:00Z'));
  return async () => {
    const t = await createTestApp(MANY_UPLOADS_ENV, undefined, { clock });
    try {
      await use(t, clock);
    } finally {
      await t.close();
    }
  };
}

/** Runs the schedule as the queue does: a job of its kind, taken and run. */
async function runScheduleJob(app: App) {
  await app.db.transaction((tx) => app.jobs.enqueue(tx, RETENTION_JOB, {}));
  expect(await runQueuedJobs(app, RETENTION_JOB)).toEqual({ ran: 1, failed: 0 });
}

/** The counts of every run so far, oldest first, as their audit events carry them. */
async function runCounts(app: App) {
  const events = await app.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.applicationId, RETENTION_CHAIN))
    .orderBy(auditEvents.id);
  expect(events.every((event) => event.type === 'privacy.retention_run' && event.actor === 'system')).toBe(true);
  return events.map(
    (event) => event.payload.counts as Record<string, { done: number; refused: number; failed: number }>,
  );
}

async function erasureEvents(app: App, ids: string[]) {
  return app.db
    .select({ applicationId: auditEvents.applicationId })
    .from(auditEvents)
    .where(and(inArray(auditEvents.applicationId, ids), eq(auditEvents.type, 'privacy.erased')));
}

/** Whether the application still holds its person's name (an erasure clears it). */
async function holdsName(app: App, id: string) {
  const [row] = await app.db.select({ name: users.name }).from(users).where(eq(users.id, id));
  return row?.name != null;
}

const counted = (done: number, refused = 0) => ({ done, refused, failed: 0 });

/**
 * A consent to the bureau on the application, given now, with the credit decision that references
 * it (as the bureau flow leaves them; written directly: the flow itself is tested in modules/credit).
 */
async function giveConsent(app: App, userId: string) {
  const [consent] = await app.db
    .insert(bureauConsents)
    .values({
      userId,
      personType: 'titular',
      consentText: 'Autorizo la consulta.',
      consentTextSha256: 'a'.repeat(64),
      consentVersion: 'v1',
      createdAt: app.clock(),
      ip: '203.0.113.7',
      peerIp: '10.0.0.1',
      forwardedFor: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (prueba)',
      pinVerified: true,
      pinEncrypted: 'v1:cifrado',
      bureauFolio: `F-${userId}`,
      authorizedUntil: new Date(app.clock().getTime() + 365 * DAY * 1000),
    })
    .returning();
  await app.db.insert(creditDecisions).values({
    userId,
    consentId: consent!.id,
    policyVersion: 'test',
    inputs: { score: 700 },
    rules: [],
    result: 'APPROVED',
    amount: 25_000,
    currency: 'DOP',
    createdAt: app.clock(),
  });
  return consent!.id;
}

/** Whether the consent still holds its personal columns, and its decision its inputs and amount. */
async function consentHeld(app: App, consentId: string) {
  const [consent] = await app.db.select().from(bureauConsents).where(eq(bureauConsents.id, consentId));
  const [decision] = await app.db.select().from(creditDecisions).where(eq(creditDecisions.consentId, consentId));
  const personal = [consent!.ip, consent!.peerIp, consent!.forwardedFor, consent!.userAgent, consent!.pinEncrypted];
  const cleared = personal.every((value) => value === '' || value === null);
  const decisionCleared = decision!.amount === 0 && Object.keys(decision!.inputs).length === 0;
  // Both or neither: a half-cleared record would be a bug of the rule.
  expect(decisionCleared).toBe(cleared);
  // What proves the consent stays either way.
  expect([consent!.bureauFolio, consent!.consentVersion, decision!.result]).toEqual([
    `F-${consent!.userId}`,
    'v1',
    'APPROVED',
  ]);
  return !cleared;
}

describe('the retention schedule', () => {
  it(
    'erases the applications abandoned before consent after 90 days and the rejected after 180; a day younger stays',
    withClockApp(async (t, clock) => {
      const abandonedOld = await createApplication(t.app);
      const rejectedOld = await createApplication(t.app, { status: 'REJECTED' });
      clock.advance(DAY);
      const abandonedYounger = await createApplication(t.app);
      const rejectedYounger = await createApplication(t.app, { status: 'REJECTED' });

      clock.advance(89 * DAY + HOUR); // the first pair 90 days and an hour old, the second a day less
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, abandonedOld.id)).toBe(false);
      expect(await holdsName(t.app, abandonedYounger.id)).toBe(true);
      expect(await holdsName(t.app, rejectedOld.id)).toBe(true);

      clock.advance(90 * DAY); // the rejected pair 180 days and an hour old, and a day less
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, abandonedYounger.id)).toBe(false);
      expect(await holdsName(t.app, rejectedOld.id)).toBe(false);
      expect(await holdsName(t.app, rejectedYounger.id)).toBe(true);

      clock.advance(DAY);
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, rejectedYounger.id)).toBe(false);

      const all = [abandonedOld, abandonedYounger, rejectedOld, rejectedYounger].map((user) => user.id);
      expect((await erasureEvents(t.app, all)).map((event) => event.applicationId).sort()).toEqual([...all].sort());
      const counts = await runCounts(t.app);
      expect(counts.map((run) => run['abandoned-before-consent-90d'])).toEqual([counted(1), counted(1), counted(0)]);
      expect(counts.map((run) => run['rejected-180d'])).toEqual([counted(0), counted(1), counted(1)]);
      // The schedule's own chain verifies, as does an erased application's.
      expect((await verifyAuditChain(t.app.db, RETENTION_CHAIN)).valid).toBe(true);
      expect((await verifyAuditChain(t.app.db, abandonedOld.id)).valid).toBe(true);
    }),
  );

  it(
    'a rejection counts from the move that rejected it, not from the start of the application',
    withClockApp(async (t, clock) => {
      const declined = await createApplication(t.app, { nextStep: 'PENDING_APPROVAL' });
      clock.advance(10 * DAY);
      await moveApplication(engineOf(t.app), {
        userId: declined.id,
        transition: 'lender-declined',
        to: { step: 'PENDING_APPROVAL', status: 'REJECTED' },
        actor: 'test',
      });
      clock.advance(170 * DAY + HOUR); // 180 days from the start, 170 from the rejection
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, declined.id)).toBe(true);
      clock.advance(10 * DAY);
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, declined.id)).toBe(false);
      expect((await runCounts(t.app)).map((run) => run['rejected-180d'])).toEqual([counted(0), counted(1)]);
    }),
  );

  it(
    'a rule switched off does nothing, and its run says so by leaving it out',
    withClockApp(async (t, clock) => {
      const abandoned = await createApplication(t.app);
      await setRuleEnabled(t.app.db, 'abandoned-before-consent-90d', false);
      clock.advance(365 * DAY);
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, abandoned.id)).toBe(true);
      expect(await erasureEvents(t.app, [abandoned.id])).toEqual([]);
      const [counts] = await runCounts(t.app);
      expect(Object.keys(counts!)).not.toContain('abandoned-before-consent-90d');
      expect(counts!['rejected-180d']).toEqual(counted(0));

      await setRuleEnabled(t.app.db, 'abandoned-before-consent-90d', true);
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, abandoned.id)).toBe(false);
    }),
  );

  it(
    'two runs at once, in small batches, erase each due application once',
    withClockApp(async (t, clock) => {
      const due = await Promise.all(Array.from({ length: 5 }, () => createApplication(t.app)));
      clock.advance(91 * DAY);
      const kept = await createApplication(t.app);
      const [a, b] = await Promise.all([
        runRetentionSchedule(retentionDeps(t.app, 2)),
        runRetentionSchedule(retentionDeps(t.app, 2)),
      ]);
      const erased = await erasureEvents(t.app, [...due.map((user) => user.id), kept.id]);
      expect(erased.map((event) => event.applicationId).sort()).toEqual(due.map((user) => user.id).sort());
      const done = [a!, b!].map((run) => run.counts['abandoned-before-consent-90d']!.done);
      expect(done[0]! + done[1]!).toBe(5);
      expect(await runCounts(t.app)).toHaveLength(2);
      expect(await holdsName(t.app, kept.id)).toBe(true);
    }),
  );

  it(
    'an application that cannot be erased is counted as failed and does not stop the others',
    withClockApp(async (t, clock) => {
      const [broken, fine] = [await createApplication(t.app), await createApplication(t.app)];
      clock.advance(91 * DAY);
      const deps = retentionDeps(t.app);
      const run = await runRetentionSchedule({
        ...deps,
        erase: (tx, id, options) =>
          id === broken.id ? Promise.reject(new Error('constraint')) : deps.erase(tx, id, options),
      });
      expect(run.counts['abandoned-before-consent-90d']).toEqual({ done: 1, refused: 0, failed: 1 });
      expect(await holdsName(t.app, broken.id)).toBe(true);
      expect(await holdsName(t.app, fine.id)).toBe(false);
      // The next run tries it again.
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, broken.id)).toBe(false);
    }),
  );

  it(
    'identity photos go 30 days after their check was decided (the outcome stays); a signed contract waits for its legal term',
    withClockApp(async (t, clock) => {
      const signer = await verifiedSigner(t.app);
      const checks = await t.app.db.select().from(identityVerifications);
      expect(checks).toHaveLength(1);
      const documentsOf = () =>
        t.app.db.select().from(identityDocuments).where(eq(identityDocuments.verificationId, checks[0]!.id));
      expect(await documentsOf()).toHaveLength(3);
      const signed = await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }));
      expect(signed.statusCode, signed.body).toBe(200);

      clock.advance(29 * DAY);
      await runScheduleJob(t.app);
      expect(await documentsOf()).toHaveLength(3);

      clock.advance(DAY + HOUR);
      await runScheduleJob(t.app);
      expect(await documentsOf()).toEqual([]);
      const [check] = await t.app.db
        .select()
        .from(identityVerifications)
        .where(eq(identityVerifications.id, checks[0]!.id));
      // The check and its outcome stay: only the images went.
      expect({ status: check!.status, answeredAt: check!.answeredAt }).toEqual({
        status: checks[0]!.status,
        answeredAt: checks[0]!.answeredAt,
      });
      expect(check!.status).not.toBe('PENDING');

      // Ten years (3653 days) from the signature, less a day: the contract and its person stay.
      clock.advance(3652 * DAY - 30 * DAY - HOUR);
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, signer.userId)).toBe(true);
      expect(
        (await t.app.db.select().from(contracts).where(eq(contracts.userId, signer.userId)))[0]!.signedPdf,
      ).not.toBeNull();

      clock.advance(DAY + HOUR);
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, signer.userId)).toBe(false);
      const counts = await runCounts(t.app);
      expect(counts.map((run) => run['identity-photos-30d-after-decision']?.done)).toEqual([0, 3, 0, 0]);
      expect(counts.map((run) => run['signed-contract-legal-minimum'])).toEqual([
        counted(0),
        counted(0),
        counted(0),
        counted(1),
      ]);
    }),
  );

  it(
    'the failed calls the web app reported go after 30 days; younger stay',
    withClockApp(async (t, clock) => {
      const report = (path: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/client-errors',
          remoteAddress: '10.41.0.1',
          payload: { level: 'error', method: 'GET', path, status: 503, code: 'X' },
        });
      expect((await report('/api/v1/old')).statusCode).toBe(204);
      clock.advance(DAY);
      expect((await report('/api/v1/young')).statusCode).toBe(204);
      clock.advance(29 * DAY + HOUR); // the first 30 days and an hour old, the second a day less
      await runScheduleJob(t.app);
      const left = await t.app.db.select({ path: clientErrors.path, ip: clientErrors.ip }).from(clientErrors);
      expect(left).toEqual([{ path: '/api/v1/young', ip: '10.41.0.1' }]);
      clock.advance(DAY);
      await runScheduleJob(t.app);
      expect(await t.app.db.select().from(clientErrors)).toEqual([]);
      expect((await runCounts(t.app)).map((run) => run['client-errors-30d'])).toEqual([counted(1), counted(1)]);
    }),
  );

  it(
    'the SMS outbox keeps messages for 24 hours',
    withClockApp(async (t, clock) => {
      const now = clock().getTime();
      const [old, young] = await t.app.db
        .insert(smsOutbox)
        .values([
          { to: '+18095550101', body: 'Tu código es 1234', createdAt: new Date(now - 24 * HOUR * 1000 - 60_000) },
          { to: '+18095550102', body: 'Tu código es 5678', createdAt: new Date(now - 23 * HOUR * 1000) },
        ])
        .returning();
      await runScheduleJob(t.app);
      const left = await t.app.db
        .select({ id: smsOutbox.id })
        .from(smsOutbox)
        .where(inArray(smsOutbox.id, [old!.id, young!.id]));
      expect(left).toEqual([{ id: young!.id }]);
      expect((await runCounts(t.app))[0]!['sms-outbox-24h']!.done).toBeGreaterThanOrEqual(1);
    }),
  );

  it(
    'a message keeps its sealed number and text three days at most: then cleared, and dropped if never sent',
    withClockApp(async (t, clock) => {
      const now = clock().getTime();
      const message = (hoursAgo: number, status: string) => ({
        kind: 'signing-link',
        channel: 'whatsapp',
        fallbacks: ['sms'],
        provider: 'outbox',
        status,
        sealed: t.app.cipher.encrypt(JSON.stringify({ to: '+18095550103', body: 'enlace', variables: [] })),
        createdAt: new Date(now - hoursAgo * HOUR * 1000),
        statusAt: new Date(now - hoursAgo * HOUR * 1000),
      });
      const [pending, queued, young] = await t.app.db
        .insert(outgoingMessages)
        .values([message(73, 'pending'), message(73, 'queued'), message(71, 'queued')])
        .returning();
      await runScheduleJob(t.app);
      const rows = await t.app.db
        .select({ id: outgoingMessages.id, status: outgoingMessages.status, sealed: outgoingMessages.sealed })
        .from(outgoingMessages)
        .where(inArray(outgoingMessages.id, [pending!.id, queued!.id, young!.id]));
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(pending!.id)).toMatchObject({ status: 'dropped', sealed: null });
      expect(byId.get(queued!.id)).toMatchObject({ status: 'queued', sealed: null });
      expect(byId.get(young!.id)!.sealed).not.toBeNull();
      expect((await runCounts(t.app))[0]!['message-texts-3d']!.done).toBe(2);
    }),
  );

  it(
    'phone-proof rows (codes, starts, reverse-OTP sessions) go after 24 hours, younger stay, and the limits still hold',
    withClockApp(async (t, clock) => {
      // Live limits first: five codes to one number and five reverse-OTP starts for another, this hour.
      const smsPhone = createPhone();
      for (let i = 0; i < 5; i++) {
        expect((await t.app.inject(codeRequest(smsPhone, '10.40.0.1'))).statusCode).toBe(200);
        clock.advance(61);
      }
      const reverseOtp = (phone: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/users/reverse-otp',
          remoteAddress: '10.40.0.2',
          payload: { phone_number: phone },
        });
      const otpPhone = createPhone();
      for (let i = 0; i < 5; i++) expect((await reverseOtp(otpPhone)).statusCode).toBe(200);

      // A day and a minute old, and an hour younger than the cutoff, in each table.
      const now = clock().getTime();
      const aged = (ms: number) => new Date(now - ms);
      const [oldAge, youngAge] = [24 * HOUR * 1000 + 60_000, 23 * HOUR * 1000];
      const code = (phoneE164: string, age: number) => ({
        phoneE164,
        purpose: 'phone-proof',
        codeHash: 'f'.repeat(64),
        createdAt: aged(age),
        expiresAt: aged(age - 600_000),
      });
      const start = (phoneE164: string, age: number) => ({
        kind: 'sms',
        phoneE164,
        ip: '10.40.0.9',
        createdAt: aged(age),
      });
      const session = (phoneE164: string, age: number, nonce: string) => ({
        keyHash: nonce.repeat(8),
        phoneE164,
        anonymousId: 'a'.repeat(16),
        nonce,
        provider: 'simulator',
        observedIp: '10.40.0.9',
        createdAt: aged(age),
        expiresAt: aged(age - 600_000),
      });
      const [oldCode, youngCode] = await t.app.db
        .insert(phoneCodes)
        .values([code('+18095550201', oldAge), code('+18095550202', youngAge)])
        .returning();
      const [oldStart, youngStart] = await t.app.db
        .insert(phoneProofStarts)
        .values([start('+18095550201', oldAge), start('+18095550202', youngAge)])
        .returning();
      const [oldSession, youngSession] = await t.app.db
        .insert(reverseOtpSessions)
        .values([session('+18095550201', oldAge, 'OLDNONCE'), session('+18095550202', youngAge, 'NEWNONCE')])
        .returning();

      await runScheduleJob(t.app);

      const ids = async <T extends { id: unknown }>(rows: Promise<T[]>) => (await rows).map((row) => row.id);
      expect(
        await ids(
          t.app.db
            .select({ id: phoneCodes.id })
            .from(phoneCodes)
            .where(inArray(phoneCodes.id, [oldCode!.id, youngCode!.id])),
        ),
      ).toEqual([youngCode!.id]);
      expect(
        await ids(
          t.app.db
            .select({ id: phoneProofStarts.id })
            .from(phoneProofStarts)
            .where(inArray(phoneProofStarts.id, [oldStart!.id, youngStart!.id])),
        ),
      ).toEqual([youngStart!.id]);
      expect(
        await ids(
          t.app.db
            .select({ id: reverseOtpSessions.id })
            .from(reverseOtpSessions)
            .where(inArray(reverseOtpSessions.id, [oldSession!.id, youngSession!.id])),
        ),
      ).toEqual([youngSession!.id]);
      // Exactly the three old rows: the requests of this hour were not touched.
      expect((await runCounts(t.app))[0]!['phone-proof-24h']).toEqual(counted(3));

      // The hourly caps still count this hour's codes and starts: the sixth of each is refused.
      const sixthCode = await t.app.inject(codeRequest(smsPhone, '10.40.0.1'));
      expect(sixthCode.statusCode).toBe(429);
      expect(sixthCode.json().code).toBe('CODE_HOURLY_LIMIT');
      const sixthStart = await reverseOtp(otpPhone);
      expect(sixthStart.statusCode).toBe(429);
      expect(sixthStart.json().code).toBe('CODE_HOURLY_LIMIT');
    }),
  );

  it(
    'erases applications inactive a year after their consent (not rejected, not signed, not with the lender); a day younger stays',
    withClockApp(async (t, clock) => {
      const inactiveOld = await createApplication(t.app, { nextStep: 'INVENTORY' });
      const oldConsent = await giveConsent(t.app, inactiveOld.id);
      // Submitted to the lender, approved by it, disbursed: a credit may exist, so no inactivity erases them.
      const withLender = await Promise.all(
        ['PENDING_APPROVAL', 'APPROVED', 'DISBURSED'].map((nextStep) => createApplication(t.app, { nextStep })),
      );
      const lenderConsents = await Promise.all(withLender.map((user) => giveConsent(t.app, user.id)));
      clock.advance(DAY);
      const inactiveYounger = await createApplication(t.app, { nextStep: 'PARTNER_FORM' });
      const youngerConsent = await giveConsent(t.app, inactiveYounger.id);

      clock.advance(364 * DAY + HOUR); // the first 365 days and an hour old, the younger a day less
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, inactiveOld.id)).toBe(false);
      expect(await holdsName(t.app, inactiveYounger.id)).toBe(true);
      clock.advance(DAY);
      await runScheduleJob(t.app);
      expect(await holdsName(t.app, inactiveYounger.id)).toBe(false);
      for (const user of withLender) expect(await holdsName(t.app, user.id)).toBe(true);
      const counts = await runCounts(t.app);
      expect(counts.map((run) => run['inactive-after-consent-365d'])).toEqual([counted(1), counted(1)]);
      // Neither rule that erases before the consent or after a rejection took them.
      expect(counts.map((run) => run['abandoned-before-consent-90d'])).toEqual([counted(0), counted(0)]);

      // The erased applications' consents stay as evidence until their own term, counted from the consent.
      expect(await consentHeld(t.app, oldConsent)).toBe(true);
      clock.advance((3653 - 366) * DAY - 2 * HOUR); // the first consent an hour short of ten years
      await runScheduleJob(t.app);
      expect(await consentHeld(t.app, oldConsent)).toBe(true);
      clock.advance(2 * HOUR);
      await runScheduleJob(t.app);
      expect(await consentHeld(t.app, oldConsent)).toBe(false);
      expect(await consentHeld(t.app, youngerConsent)).toBe(true);
      clock.advance(DAY);
      await runScheduleJob(t.app);
      expect(await consentHeld(t.app, youngerConsent)).toBe(false);
      // A live application's consent is its own evidence: no term clears it while the application stands.
      for (const id of lenderConsents) expect(await consentHeld(t.app, id)).toBe(true);
      expect((await runCounts(t.app)).slice(2).map((run) => run['consent-record-legal-minimum'])).toEqual([
        counted(0),
        counted(1),
        counted(1),
      ]);
      expect((await verifyAuditChain(t.app.db, RETENTION_CHAIN)).valid).toBe(true);
      expect((await verifyAuditChain(t.app.db, inactiveOld.id)).valid).toBe(true);
    }),
  );

  it(
    'consent records stay append-only but for the clearing of their personal columns, in a transaction that says so',
    withClockApp(async (t) => {
      const user = await createApplication(t.app, { nextStep: 'INVENTORY' });
      const consentId = await giveConsent(t.app, user.id);
      const attempt = (statement: ReturnType<typeof sql>, erasing = true) =>
        t.app.db.transaction(async (tx) => {
          if (erasing) await tx.execute(sql`select set_config('provee.erasing', 'on', true)`);
          await tx.execute(statement);
        });
      const clear = sql`update bureau_consents set ip = '', peer_ip = null, forwarded_for = null, user_agent = null,
        pin_encrypted = null where id = ${consentId}::uuid`;
      await expect(attempt(clear, false)).rejects.toThrow();
      await expect(
        attempt(sql`update bureau_consents set ip = '', peer_ip = null, forwarded_for = null,
        user_agent = null, pin_encrypted = null, consent_version = 'v2' where id = ${consentId}::uuid`),
      ).rejects.toThrow();
      await expect(
        attempt(sql`update bureau_consents set user_agent = null where id = ${consentId}::uuid`),
      ).rejects.toThrow();
      await expect(attempt(sql`delete from credit_decisions where consent_id = ${consentId}::uuid`)).rejects.toThrow();
      await expect(attempt(sql`delete from bureau_consents where id = ${consentId}::uuid`)).rejects.toThrow();
      await expect(
        attempt(sql`update credit_decisions set inputs = '{}'::jsonb, amount = 0, result = 'REJECTED'
        where consent_id = ${consentId}::uuid`),
      ).rejects.toThrow();
      expect(await consentHeld(t.app, consentId)).toBe(true);
      await attempt(clear);
      await attempt(
        sql`update credit_decisions set inputs = '{}'::jsonb, amount = 0 where consent_id = ${consentId}::uuid`,
      );
      expect(await consentHeld(t.app, consentId)).toBe(false);
    }),
  );

  it(
    'admins read the schedule and its last runs in the back office; an analyst may not',
    withClockApp(async (t) => {
      await setRuleEnabled(t.app.db, 'rejected-180d', false);
      await runScheduleJob(t.app);
      const admin = await staffSession(t.app, 'admin');
      const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/retention', headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      const { rules, runs } = res.json().data as RetentionScheduleView;
      expect(rules.map((rule) => [rule.name, rule.country, rule.age_days, rule.enabled])).toEqual([
        ['sms-outbox-24h', null, 1, true],
        ['phone-proof-24h', null, 1, true],
        ['client-errors-30d', null, 30, true],
        ['message-texts-3d', null, 3, true],
        ['identity-photos-30d-after-decision', null, 30, true],
        ['abandoned-before-consent-90d', null, 90, true],
        ['inactive-after-consent-365d', null, 365, true],
        ['rejected-180d', null, 180, false],
        ['signed-contract-legal-minimum', 'do', 3653, true],
        ['signed-contract-legal-minimum', 'mx', 3653, true],
        ['consent-record-legal-minimum', 'do', 3653, true],
        ['consent-record-legal-minimum', 'mx', 3653, true],
      ]);
      expect(runs).toHaveLength(1);
      // The test app is Dominican: Mexico's legal minimum is not its rule; the switched-off rule did not run.
      expect(Object.keys(runs[0]!.counts).sort()).toEqual([
        'abandoned-before-consent-90d',
        'client-errors-30d',
        'consent-record-legal-minimum',
        'identity-photos-30d-after-decision',
        'inactive-after-consent-365d',
        'message-texts-3d',
        'phone-proof-24h',
        'signed-contract-legal-minimum',
        'sms-outbox-24h',
      ]);
      const analyst = await staffSession(t.app, 'analyst');
      const refused = await t.app.inject({ method: 'GET', url: '/api/backoffice/retention', headers: analyst.headers });
      expect(refused.statusCode).toBe(403);
    }),
  );
});
