import { randomBytes } from 'node:crypto';
import { toE164 } from '@provee/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  advisorTasks,
  auditEvents,
  avals,
  bureauConsentAudits,
  bureauQueries,
  businessAddresses,
  businesses,
  contracts,
  contractSigners,
  identityVerifications,
  leads,
  phoneCodes,
  privacyRequests,
  reverseOtpSessions,
  smsOutbox,
  users,
} from '../../db/schema.js';
import { resultRows } from '../../db/rows.js';
import { dumpDatabase, leaks, openAll } from '../../test/database-dump.js';
import { createApplication, createPng, shopkeeperCall, userAuth } from '../../test/factories.js';
import { flushSms, runQueuedJobs } from '../../test/jobs.js';
import { registerProvenPhone, registrationData } from '../../test/registration.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { createPhone } from '../../test/phone.js';
import { staffSession } from '../../test/staff.js';
import { HAND_DRIVEN_JOB_KINDS, useTestApp } from '../../test/test-app.js';
import type { App } from '../../types.js';
import { verifyAuditChain } from '../audit/index.js';
import { BUREAU_QUERY_JOB, CONSENT_AUDIT_JOB } from '../credit/index.js';
import { SIGNING_INVITATION_JOB } from '../lending/index.js';
import { VERIFIED_GUARANTOR_SESSION_JOB } from '../phone-proof/index.js';
import { eraseApplication, LegalHoldError } from './erase-application.js';
import { allLiveCiphers, personCipher } from './person-keys.js';

/** A word no other row holds: names and places the dump is searched for. */
const unique = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').replace(/\d/g, 'q')}`;

/**
 * An application as a real journey leaves it (registration, PIN consent and bureau report, a signing
 * link, identity photos checked by the verifier), then made recognisable: its people's values are
 * words found nowhere else, and a guarantor, a lead and an advisor's note are added.
 */
async function recognisableApplication(app: App) {
  const signer = await verifiedSigner(app);
  const userId = signer.userId;
  const [user] = await app.db.select().from(users).where(eq(users.id, userId));
  const own = await personCipher(app, app.db, userId);
  const values = {
    phone: user!.phoneE164,
    name: unique('Quiteria'),
    lastname: unique('Zubizarreta'),
    maternalLastname: unique('Olaechea'),
    taxId: own.decrypt(user!.taxIdEncrypted!),
    dob: own.decrypt(user!.dobEncrypted!),
    business: unique('Colmado Luz'),
    street: unique('Calle Bienvenido'),
    guarantorName: unique('Anacleto'),
    guarantorPhone: toE164(app.config.COUNTRY, createPhone()),
    guarantorTaxId: unique('40212'),
    guarantorStreet: unique('Avenida Duarte'),
  };
  await app.db
    .update(users)
    .set({ name: values.name, lastname: values.lastname, maternalLastname: values.maternalLastname })
    .where(eq(users.id, userId));
  await app.db.update(businesses).set({ name: values.business }).where(eq(businesses.userId, userId));
  await app.db.update(businessAddresses).set({ streetName: values.street }).where(eq(businessAddresses.userId, userId));
  // A guarantor as the naming step writes one: sealed with their own key.
  const [guarantor] = await app.db
    .insert(avals)
    .values({ userId, avalType: 'PARTNER', phoneE164: values.guarantorPhone, name: values.guarantorName })
    .returning();
  const theirs = await personCipher(app, app.db, guarantor!.id);
  await app.db
    .update(avals)
    .set({
      taxIdEncrypted: theirs.encrypt(values.guarantorTaxId),
      addressEncrypted: theirs.encrypt(JSON.stringify({ street_name: values.guarantorStreet })),
    })
    .where(eq(avals.id, guarantor!.id));
  const leadId = `lead-${randomBytes(6).toString('hex')}`;
  const at = app.clock();
  await app.db.insert(leads).values({
    leadId,
    leadType: 'SK',
    shopkeeperPhoneE164: values.phone,
    clientCreatedAt: at,
    clientUpdatedAt: at,
  });
  await app.db.insert(advisorTasks).values({ source: 'lead', sourceId: leadId, note: `llamar a ${values.phone}` });
  return { userId, signer, guarantorId: guarantor!.id, values };
}

/** The signed copy's SMS reached the outbox (its job runs after the signature's answer). */
async function copySent(app: App, phone: string) {
  for (let tries = 0; tries < 100; tries++) {
    await runQueuedJobs(app, 'contract-copy-sms');
    await flushSms(app);
    const sent = await app.db.select().from(smsOutbox).where(eq(smsOutbox.to, phone));
    if (sent.some((sms) => sms.body.includes('firmaste'))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the signed copy was never sent');
}

// Kinds their modules do not export (test/jobs.ts names them so too).
const CONTRACT_COPY_JOB = 'contract-copy-sms';
const SIMULATED_ANSWER_JOB = 'identity-simulated-answer';

const erase = (app: App, id: string, options = {}) =>
  app.db.transaction((tx) => eraseApplication(app, tx, id, 'staff:test', options));

/** Each job's state by id (a deleted job is absent). */
async function jobStates(app: App, ids: string[]): Promise<Record<string, string>> {
  const rows = resultRows<{ id: string; state: string }>(
    await app.db.execute(
      sql`select id::text as id, state::text as state from pgboss.job where id::text in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    ),
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.state]));
}

const fileRequest = (app: App, person: { id: string; phone: string }, body: object) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/users/${person.id}/SK/privacy/requests`,
    headers: userAuth(app, person),
    payload: body,
  });

describe('erasing an application', () => {
  const t = useTestApp({
    ...MANY_UPLOADS_ENV,
    // The tests run these by hand too: a job the erasure must delete is not taken by a worker first.
    JOB_KINDS_OFF: `${HAND_DRIVEN_JOB_KINDS},${SIGNING_INVITATION_JOB},${CONTRACT_COPY_JOB}`,
  });

  it("leaves none of its people's values in the database, in clear or under a remaining key", async () => {
    const other = await createApplication(t.app);
    const { userId, values } = await recognisableApplication(t.app);
    const secrets = Object.values(values);
    expect(leaks(await dumpDatabase(t.app), [values.name, values.guarantorName]).length).toBeGreaterThan(0);

    const result = await erase(t.app, userId);
    expect(result).toMatchObject({ erased: true, guarantors: 1, signers: 1 });

    const dump = await dumpDatabase(t.app);
    expect(leaks(dump, secrets)).toEqual([]);
    // The national number too (leads, the outbox and SMS bodies carry it so).
    expect(leaks(dump, [values.phone.slice(-10), values.guarantorPhone.slice(-10)])).toEqual([]);
    const opened = openAll(dump, await allLiveCiphers(t.app, t.app.db));
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.filter((plain) => secrets.some((secret) => plain.includes(secret)))).toEqual([]);

    // The chain holds ids and hashes only, so it still verifies, ending with the erasure.
    expect(await verifyAuditChain(t.app.db, userId)).toMatchObject({ valid: true });
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, userId));
    expect(events.filter((event) => event.type === 'privacy.erased')).toHaveLength(1);
    // Another applicant keeps everything.
    const [kept] = await t.app.db.select().from(users).where(eq(users.id, other.id));
    expect(kept!.name).not.toBeNull();
    expect(kept!.phoneE164).toBe(toE164(t.app.config.COUNTRY, other.phone));
  });

  it('is idempotent: a second erasure changes nothing and records nothing', async () => {
    const { userId } = await recognisableApplication(t.app);
    await erase(t.app, userId);
    const before = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, userId));
    const [first, second] = await Promise.all([erase(t.app, userId), erase(t.app, userId)]);
    expect([first.erased, second.erased]).toEqual([false, false]);
    const after = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, userId));
    expect(after).toHaveLength(before.length);
  });

  it('two erasures at once: one erases, the other finds it erased', async () => {
    const { userId } = await recognisableApplication(t.app);
    const results = await Promise.all([erase(t.app, userId), erase(t.app, userId)]);
    expect(results.map((r) => r.erased).sort()).toEqual([false, true]);
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, userId));
    expect(events.filter((event) => event.type === 'privacy.erased')).toHaveLength(1);
  });

  it('the same phone proving itself again starts a new application', async () => {
    const { userId, values } = await recognisableApplication(t.app);
    const national = values.phone.slice(-10);
    const before = await shopkeeperCall(t.app, { id: userId, phone: national }, 'GET', '');
    expect(before.statusCode, before.body).toBe(200);
    await erase(t.app, userId);
    // The token handed out before no longer opens the erased application.
    expect((await shopkeeperCall(t.app, { id: userId, phone: national }, 'GET', '')).statusCode).toBe(403);
    const again = await registerProvenPhone(t.app, national, registrationData(national));
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data).toMatchObject({ next_step: 'TAX_ACCOUNT', status: 'IN_PROGRESS' });
    const [fresh] = await t.app.db.select().from(users).where(eq(users.phoneE164, values.phone));
    expect(fresh!.id).toBe(again.json().data.user_id);
    expect(fresh!.id).not.toBe(userId);
  });

  it('refuses a signed contract (legal hold) unless its legal term has passed', async () => {
    const { userId, signer, values } = await recognisableApplication(t.app);
    const signed = await sendSignature(t.app, signer, createPng({ width: 400, height: 150 }));
    expect(signed.statusCode, signed.body).toBe(200);
    await copySent(t.app, values.phone);

    const refused = await erase(t.app, userId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LegalHoldError);
    expect(refused).toMatchObject({ statusCode: 409, readableMessage: expect.stringContaining('contrato firmado') });
    const [untouched] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect(untouched!.name).toBe(values.name);

    expect((await erase(t.app, userId, { contractTermPassed: true })).erased).toBe(true);
    const dump = await dumpDatabase(t.app);
    expect(leaks(dump, Object.values(values))).toEqual([]);
    expect(await verifyAuditChain(t.app.db, userId)).toMatchObject({ valid: true });
  });
  it("keeps what another person's phone holds when a guarantor shares it; leads go by the applicant's phone only", async () => {
    const e164 = (national: string) => toE164(t.app.config.COUNTRY, national);
    const [a, b, c] = [await createApplication(t.app), await createApplication(t.app), await createApplication(t.app)];
    const phones = {
      applicant: e164(a.phone),
      // A's guarantor is B, who applies on their own.
      otherApplicant: e164(b.phone),
      // Guarantor of A and of C.
      shared: e164(createPhone()),
      // A's guarantor only.
      own: e164(createPhone()),
    };
    await t.app.db.insert(avals).values([
      { userId: a.id, avalType: 'PARTNER', phoneE164: phones.otherApplicant, name: 'Aval B' },
      { userId: a.id, avalType: 'COLLATERAL', phoneE164: phones.shared, name: 'Aval compartido' },
      { userId: c.id, avalType: 'PARTNER', phoneE164: phones.shared, name: 'Aval compartido' },
      // A guarantor A replaced: theirs go too.
      { userId: a.id, avalType: 'PARTNER', phoneE164: phones.own, name: 'Aval propio', status: 'REPLACED' },
    ]);
    const at = t.app.clock();
    const everyPhone = Object.values(phones);
    await t.app.db.insert(phoneCodes).values(
      everyPhone.map((phone) => ({
        phoneE164: phone,
        purpose: 'login',
        codeHash: randomBytes(8).toString('hex'),
        expiresAt: new Date(at.getTime() + 600_000),
      })),
    );
    await t.app.db.insert(smsOutbox).values(everyPhone.map((phone) => ({ to: phone, body: 'Tu código' })));
    // A lead of B's and one of the shared guarantor's: theirs, whatever A's guarantors are.
    await t.app.db.insert(leads).values(
      [phones.applicant, phones.otherApplicant, phones.shared].map((phone) => ({
        leadId: `lead-${randomBytes(6).toString('hex')}`,
        leadType: 'SK',
        shopkeeperPhoneE164: phone,
        clientCreatedAt: at,
        clientUpdatedAt: at,
      })),
    );

    expect((await erase(t.app, a.id)).erased).toBe(true);

    const left = async <T>(rows: Promise<T[]>, phoneOf: (row: T) => string) => (await rows).map(phoneOf).sort();
    const kept = [phones.otherApplicant, phones.shared].sort();
    expect(
      await left(
        t.app.db.select().from(phoneCodes).where(inArray(phoneCodes.phoneE164, everyPhone)),
        (row) => row.phoneE164,
      ),
    ).toEqual(kept);
    expect(
      await left(t.app.db.select().from(smsOutbox).where(inArray(smsOutbox.to, everyPhone)), (row) => row.to),
    ).toEqual(kept);
    expect(
      await left(
        t.app.db.select().from(leads).where(inArray(leads.shopkeeperPhoneE164, everyPhone)),
        (row) => row.shopkeeperPhoneE164,
      ),
    ).toEqual(kept);
  });

  it("closes the application's other open requests as answered by the erasure, and no rectification writes into it", async () => {
    const person = await createApplication(t.app);
    const other = await createApplication(t.app);
    const rectification = await fileRequest(t.app, person, {
      kind: 'rectification',
      field: 'name',
      reason: 'Mi nombre está mal escrito.',
    });
    expect(rectification.statusCode, rectification.body).toBe(201);
    const access = await fileRequest(t.app, person, { kind: 'access', reason: 'Quiero saber qué datos tienen.' });
    expect(access.statusCode, access.body).toBe(201);
    const cancellation = await fileRequest(t.app, person, {
      kind: 'cancellation',
      reason: 'Ya no quiero el crédito, borren mis datos.',
    });
    expect(cancellation.statusCode, cancellation.body).toBe(201);
    const othersOwn = await fileRequest(t.app, other, { kind: 'access', reason: 'Quiero saber qué datos tienen.' });
    expect(othersOwn.statusCode, othersOwn.body).toBe(201);

    const { headers } = await staffSession(t.app, 'admin');
    const erased = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/privacy-requests/${cancellation.json().data.id}/erase`,
      headers,
    });
    expect(erased.statusCode, erased.body).toBe(200);

    const requests = await t.app.db
      .select()
      .from(privacyRequests)
      .where(inArray(privacyRequests.applicationId, [person.id, other.id]));
    const byId = new Map(requests.map((row) => [row.id, row]));
    for (const filed of [rectification, access, cancellation])
      expect(byId.get(filed.json().data.id)).toMatchObject({
        state: 'DONE',
        resolution: 'erased',
        decidedAt: expect.any(Date),
        decidedBy: expect.any(String),
      });
    expect(byId.get(othersOwn.json().data.id)).toMatchObject({ state: 'RECEIVED', resolution: null });
    const [event] = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, person.id), eq(auditEvents.type, 'privacy.erased')));
    expect((event!.payload as { closed_request_ids: string[] }).closed_request_ids.sort()).toEqual(
      [rectification.json().data.id, access.json().data.id].sort(),
    );

    // The rectification filed before the erasure can no longer write a name into the erased row.
    const rectified = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/privacy-requests/${rectification.json().data.id}/rectify`,
      headers,
      payload: { field: 'name', value: 'Nombre Escrito Después' },
    });
    expect([409, 410]).toContain(rectified.statusCode);
    const [row] = await t.app.db.select({ name: users.name }).from(users).where(eq(users.id, person.id));
    expect(row!.name).toBeNull();
  });

  it("deletes the waiting jobs that would act on the application, not a running one nor anyone else's", async () => {
    const { userId, guarantorId } = await recognisableApplication(t.app);
    const signers = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, userId));
    const [check] = await t.app.db
      .select()
      .from(identityVerifications)
      .where(
        inArray(
          identityVerifications.signerId,
          signers.map((signer) => signer.id),
        ),
      );
    const [query] = await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, userId));
    const at = t.app.clock();
    const [audit] =
      (await t.app.db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.userId, userId))).length > 0
        ? await t.app.db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.userId, userId))
        : await t.app.db
            .insert(bureauConsentAudits)
            .values({ queryId: query!.id, userId, status: 'PENDING', createdAt: at, updatedAt: at })
            .returning();
    const [session] = await t.app.db
      .insert(reverseOtpSessions)
      .values({
        keyHash: randomBytes(16).toString('hex'),
        phoneE164: toE164(t.app.config.COUNTRY, createPhone()),
        anonymousId: randomBytes(8).toString('hex'),
        nonce: randomBytes(8).toString('hex'),
        provider: 'outbox',
        observedIp: '127.0.0.1',
        avalId: guarantorId,
        expiresAt: new Date(at.getTime() + 600_000),
      })
      .returning();
    const enqueue = (name: string, data: object) => t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, name, data));
    const someone = () => crypto.randomUUID();
    const theirs = [
      await enqueue(SIGNING_INVITATION_JOB, { user_id: userId }),
      await enqueue(SIGNING_INVITATION_JOB, { user_id: userId, person_type: 'collateral', aval_id: guarantorId }),
      await enqueue(CONTRACT_COPY_JOB, { signer_id: signers[0]!.id }),
      await enqueue(BUREAU_QUERY_JOB, { id: query!.id, due_at: at.toISOString() }),
      await enqueue(CONSENT_AUDIT_JOB, { id: audit!.id, due_at: at.toISOString() }),
      await enqueue(VERIFIED_GUARANTOR_SESSION_JOB, { session_id: session!.id }),
      await enqueue(SIMULATED_ANSWER_JOB, { verification_id: check!.id }),
    ];
    const running = await enqueue(SIGNING_INVITATION_JOB, { user_id: userId, person_type: 'titular' });
    await t.app.db.execute(sql`update pgboss.job set state = 'active', started_on = now() where id = ${running}::uuid`);
    const others = [
      await enqueue(SIGNING_INVITATION_JOB, { user_id: someone() }),
      await enqueue(CONTRACT_COPY_JOB, { signer_id: someone() }),
      await enqueue(BUREAU_QUERY_JOB, { id: someone(), due_at: at.toISOString() }),
      await enqueue(CONSENT_AUDIT_JOB, { id: someone(), due_at: at.toISOString() }),
      await enqueue(VERIFIED_GUARANTOR_SESSION_JOB, { session_id: someone() }),
      await enqueue(SIMULATED_ANSWER_JOB, { verification_id: someone() }),
    ];
    expect(Object.keys(await jobStates(t.app, [...theirs, running, ...others]))).toHaveLength(14);

    const result = await erase(t.app, userId);
    expect(result.rows['pgboss.job']).toBeGreaterThanOrEqual(theirs.length);
    const states = await jobStates(t.app, [...theirs, running, ...others]);
    expect(theirs.filter((id) => id in states)).toEqual([]);
    expect(states[running]).toBe('active');
    expect(others.map((id) => states[id])).toEqual(others.map(() => 'created'));

    // The bureau's safety net gives no new job to an erased application's open query or audit.
    await t.app.db.update(bureauQueries).set({ status: 'PENDING' }).where(eq(bureauQueries.id, query!.id));
    await t.app.db.update(bureauConsentAudits).set({ status: 'PENDING' }).where(eq(bureauConsentAudits.id, audit!.id));
    await t.app.jobs.kind('bureau-jobs-sweep')!.run({}, { retry: 0, last: false });
    const adopted = resultRows<{ id: string }>(
      await t.app.db.execute(
        sql`select id::text as id from pgboss.job where data->>'id' in (${query!.id}, ${audit!.id}) and state = 'created'`,
      ),
    );
    expect(adopted).toEqual([]);
  });

  it('a signature committing while the erasure starts is waited for and meets the legal hold', async () => {
    const { userId } = await recognisableApplication(t.app);
    const [signer] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, userId));
    const signedPdf = new Uint8Array([37, 80, 68, 70]);
    // A signature's transaction as sign.ts runs it: the signer, then the contract, locked; it commits
    // only once the erasure has started.
    let commit!: () => void;
    const released = new Promise<void>((resolve) => (commit = resolve));
    let hold!: () => void;
    const holding = new Promise<void>((resolve) => (hold = resolve));
    const signing = t.app.db.transaction(async (tx) => {
      await tx.select().from(contractSigners).where(eq(contractSigners.id, signer!.id)).for('update');
      await tx.select().from(contracts).where(eq(contracts.id, signer!.contractId)).for('update');
      await tx
        .update(contracts)
        .set({ signedSha256: 'a'.repeat(64), signedPdf })
        .where(eq(contracts.id, signer!.contractId));
      await tx.update(contractSigners).set({ state: 'SIGNED' }).where(eq(contractSigners.id, signer!.id));
      hold();
      await released;
    });
    await holding;
    const erasure = erase(t.app, userId).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await signing;

    expect(await erasure).toBeInstanceOf(LegalHoldError);
    const [contract] = await t.app.db.select().from(contracts).where(eq(contracts.id, signer!.contractId));
    expect([...contract!.signedPdf!]).toEqual([...signedPdf]);
    const [user] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect(user!.phoneE164.startsWith('erased:')).toBe(false);
  });
});
