// Mexico with Círculo de Crédito as the bureau, against its stand-in over real HTTP
// (apps/api/test/stand-ins/circulo): the shopkeeper's PIN, the signed query, the policy's decision
// and the NIP audit, on both databases.
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, bureauConsentAudits, bureauConsents, bureauQueries, creditDecisions } from '../../db/schema.js';
import { circuloRfc, consentAsCirculoPerson, useCirculoTestApp } from '../../test/circulo.js';
import { createApplication, lastSmsPin, shopkeeperCall } from '../../test/factories.js';
import { manualClock } from '../../test/test-app.js';
import { jobsOf, runBureauJobs, runConsentAuditJobs } from '../../test/jobs.js';
import { personCipher } from '../privacy/index.js';
import { CONSENT_AUDIT_JOB } from './bureau-schedule.js';

describe('Círculo de Crédito: the query, the decision and the NIP audit', () => {
  const clock = manualClock(new Date('2026-11-25T16:00:00Z'));
  const t = useCirculoTestApp(
    { BUREAU_SYNC_WAIT_MS: '5000', BUREAU_RETRY_BASE_MS: '1000', BUREAU_RETRY_MAX_MS: '4000' },
    { clock },
  );

  const call = (method: 'GET' | 'POST' | 'PUT', user: { id: string; phone: string }, path: string, payload?: object) =>
    shopkeeperCall(t.app, user, method, path, payload);
  const lastPin = (phone: string) => lastSmsPin(t.app, phone);
  const consent = (datePart: string) => consentAsCirculoPerson(t.app, datePart);
  const queryOf = async (userId: string) =>
    (await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, userId)))[0]!;
  const decisionOf = async (userId: string) =>
    (await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, userId)))[0];
  const stepOf = async (user: { id: string; phone: string }) => (await call('GET', user, '')).json().data;
  const eventsOf = async (userId: string) =>
    (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, userId))).map((event) => event.type);

  it('a good person is pre-approved; the answer is kept encrypted and the NIP audit acknowledged', async () => {
    const { user, rfc, pin, res } = await consent('800101');
    expect(res.statusCode).toBe(200);
    expect(await stepOf(user)).toMatchObject({ next_step: 'PASSWORD', status: 'IN_PROGRESS' });
    const decision = (await decisionOf(user.id))!;
    expect(decision).toMatchObject({ result: 'APPROVED', policyVersion: '2026-11-25-mx', currency: 'MXN' });
    const query = await queryOf(user.id);
    expect(query).toMatchObject({ status: 'DONE', provider: 'circulo' });
    expect(query.report).toMatchObject({ score: 720, delinquencies: 0, details: { inquiries_12_months: 2 } });
    expect(decision.bureauReportFolio).toBe(query.report!.folio);
    // What the stand-in was sent: Círculo's PersonaPeticion, signed (the stand-in checked it).
    expect(t.standIn.queries.get(String(query.report!.folio))?.body).toMatchObject({
      RFC: rfc,
      fechaNacimiento: '1980-01-01',
      domicilio: { estado: 'MEX', CP: '55000' },
    });
    // The titular was asked: their own data key sealed the report and the PIN (decision 032).
    const own = await personCipher(t.app, t.app.db, user.id);
    const raw = JSON.parse(Buffer.from(own.decrypt(query.reportRawEncrypted!), 'base64').toString('utf8'));
    expect(raw.folioConsulta).toBe(query.report!.folio);
    expect(JSON.stringify(query.report)).not.toContain('TIENDA DEPARTAMENTAL'); // the raw sections stay in the encrypted copy

    // The NIP audit: due from the decision's transaction (its job with it), sent with the consent's PIN.
    const [consentRow] = await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.userId, user.id));
    expect(own.decrypt(consentRow!.pinEncrypted!)).toBe(pin);
    expect((await runConsentAuditJobs(t.app)).ran).toBeGreaterThanOrEqual(1);
    const [audit] = await t.app.db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.userId, user.id));
    expect(audit).toMatchObject({ status: 'DONE', auditFolio: String(query.report!.folio), attempts: 1 });
    const sent = t.standIn.audits.find((body) => String(body.folioCDC) === query.report!.folio)!;
    expect(sent).toMatchObject({
      numeroFirma: pin,
      ingresoNuevamenteNIP: true,
      tipoConsulta: 'PF',
      usuario: 'NGA9915CC5',
    });
    expect(sent.persona).toMatchObject({ RFC: rfc, domicilio: { estado: 'EM' } });
    expect(await eventsOf(user.id)).toEqual(expect.arrayContaining(['decision.made', 'bureau.consent_audited']));
  });

  it('an open account past due over 60 days is rejected with the policy’s reason', async () => {
    const { user } = await consent('800102');
    expect(await stepOf(user)).toMatchObject({ next_step: 'PASSWORD', status: 'REJECTED' });
    const decision = (await decisionOf(user.id))!;
    expect(decision.result).toBe('REJECTED');
    expect(decision.rules.find((rule) => !rule.passed)).toMatchObject({
      rule: 'max_past_due_delay_days',
      value: 90,
      threshold: 60,
      reason: 'Hay una cuenta abierta con saldo vencido y un atraso mayor a 60 días.',
    });
  });

  it('a thin file (204) is decided by the policy’s own rule, and owes no audit', async () => {
    const { user } = await consent('800103');
    const decision = (await decisionOf(user.id))!;
    expect(decision.result).toBe('REJECTED');
    expect(decision.rules.find((rule) => rule.rule === 'thin_file')).toMatchObject({ passed: false });
    expect(decision.bureauReportFolio).toBeNull();
    expect(await t.app.db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.userId, user.id))).toEqual(
      [],
    );
  });

  it('a tampered answer signature is never a decision: the query fails for good, the application waits', async () => {
    const { user } = await consent('800109');
    expect(await decisionOf(user.id)).toBeUndefined();
    expect(await queryOf(user.id)).toMatchObject({
      status: 'FAILED',
      failure: 'integrity',
      provider: 'circulo',
      report: null,
      reportRawEncrypted: null,
    });
    expect(await stepOf(user)).toMatchObject({ next_step: 'ACCOUNT_BUREAU', status: 'WAITING' });
    expect(await eventsOf(user.id)).toContain('bureau.integrity_failed');
    const line = t.logs.find((entry) => entry.msg === 'bureau answer signature did not verify: nothing in it was read');
    expect(line).toMatchObject({ level: 50 });
    // Never tried again by itself.
    clock.advance(3600);
    await runBureauJobs(t.app);
    expect(await queryOf(user.id)).toMatchObject({ status: 'FAILED', attempts: 1 });
  });

  it('a person the bureau will not report (403) is refused for good, with its code', async () => {
    const { user } = await consent('800105');
    expect(await queryOf(user.id)).toMatchObject({ status: 'FAILED', failure: 'refused' });
    expect(await decisionOf(user.id)).toBeUndefined();
    expect(await eventsOf(user.id)).toContain('bureau.refused');
  });

  it.each([
    ['429', '800107'],
    ['503', '800108'],
  ])('%s, then an answer: retried with back-off, then decided', async (_status, datePart) => {
    const { user } = await consent(datePart);
    expect(await queryOf(user.id)).toMatchObject({ status: 'PENDING', attempts: 1, failure: null });
    expect(await decisionOf(user.id)).toBeUndefined();
    clock.advance(2);
    await runBureauJobs(t.app);
    expect(await queryOf(user.id)).toMatchObject({ status: 'DONE', attempts: 2 });
    expect((await decisionOf(user.id))!.result).toBe('APPROVED');
  });

  it('an audit whose acknowledgement was lost (sent, then a crash) is done when Círculo says the folio is audited', async () => {
    const { user } = await consent('800101');
    await runConsentAuditJobs(t.app);
    // The state a crash right after Círculo's answer leaves: the audit is still owed here, and its
    // job (the one of that attempt, tried again by the queue once it expired) runs again.
    const [owed] = await t.app.db
      .update(bureauConsentAudits)
      .set({ status: 'PENDING', auditFolio: null })
      .where(eq(bureauConsentAudits.userId, user.id))
      .returning();
    const job = t.app.jobs.kind(CONSENT_AUDIT_JOB)!;
    await job.run({ id: owed!.id, due_at: owed!.nextAttemptAt.toISOString() }, { retry: 1, last: false });
    const [audit] = await t.app.db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.userId, user.id));
    const query = await queryOf(user.id);
    expect(audit).toMatchObject({ status: 'DONE', auditFolio: query.report!.folio, attempts: 2 });
    const acknowledged = await t.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, user.id))
      .orderBy(asc(auditEvents.id));
    expect(
      acknowledged.filter((event) => event.type === 'bureau.consent_audited').map((event) => event.payload),
    ).toEqual([
      { query_id: query.id, audit_folio: query.report!.folio },
      { query_id: query.id, audit_folio: query.report!.folio, acknowledged_before: true },
    ]);
  });

  it('a signed report about another person (a replayed answer) is never a decision', async () => {
    const { user } = await consent('800110');
    expect(await decisionOf(user.id)).toBeUndefined();
    expect(await queryOf(user.id)).toMatchObject({ status: 'FAILED', failure: 'integrity' });
  });

  it('20 PIN confirmations at once: one bureau query, one decision and one NIP audit', async () => {
    const rfc = circuloRfc('800101');
    const user = await createApplication(t.app, { taxId: rfc, dob: '1980-01-01' });
    expect((await call('POST', user, '/nip')).statusCode).toBe(200);
    const pin = await lastPin(user.phone);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('PUT', user, '/nip', { nip: pin })));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(answers.every((res) => res.statusCode === 200 || res.statusCode === 409)).toBe(true);
    const sent = [...t.standIn.queries.values()].filter((query) => query.body.RFC === rfc);
    expect(sent).toHaveLength(1);
    // Five runs of the audit's job at once (the queue retrying one whose run seemed lost, another
    // process): one claims the audit, the others find it taken or done.
    const [audit] = await t.app.db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.userId, user.id));
    const auditJobs = (await jobsOf(t.app, CONSENT_AUDIT_JOB)).filter(
      (job) => (job.data as { id: string }).id === audit!.id,
    );
    expect(auditJobs).toHaveLength(1);
    const job = t.app.jobs.kind(CONSENT_AUDIT_JOB)!;
    await Promise.allSettled(Array.from({ length: 5 }, () => job.run(auditJobs[0]!.data, { retry: 0, last: false })));
    expect(t.standIn.audits.filter((body) => String(body.folioCDC) === sent[0]!.folio)).toHaveLength(1);
    expect(await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.userId, user.id))).toHaveLength(1);
  });
});
