// The back office's view of Círculo de Crédito's answers (issue 29), against its stand-in over real
// HTTP: the detail's facts, failures and NIP audit, the raw answer for analysts, and the consents CSV.
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, bureauConsentAudits } from '../../db/schema.js';
import { consentAsCirculoPerson, useCirculoTestApp } from '../../test/circulo.js';
import { staffSession } from '../../test/staff.js';
import { manualClock } from '../../test/test-app.js';
import { verifyAuditChain } from '../audit/index.js';

describe('back office: Círculo de Crédito’s report, NIP audit and alerts', () => {
  const clock = manualClock(new Date('2026-11-25T16:00:00Z'));
  // The queue sends the NIP audits by itself (every kind's worker runs), as in production.
  const t = useCirculoTestApp({ BUREAU_SYNC_WAIT_MS: '5000', JOB_KINDS_OFF: '' }, { clock });
  let analyst: Awaited<ReturnType<typeof staffSession>>;
  let advisor: Awaited<ReturnType<typeof staffSession>>;
  /** Applications by the stand-in's behaviour. */
  const ids: Record<'good' | 'pastDue' | 'tampered' | 'blocked', string> = {
    good: '',
    pastDue: '',
    tampered: '',
    blocked: '',
  };

  /** A shopkeeper of the stand-in's person `datePart`, through the consent PIN (200, or a rejection asserted below). */
  const consented = async (datePart: string) => (await consentAsCirculoPerson(t.app, datePart)).user.id;

  beforeAll(async () => {
    ids.good = await consented('800101');
    ids.pastDue = await consented('800102');
    ids.tampered = await consented('800109');
    ids.blocked = await consented('800105');
    analyst = await staffSession(t.app, 'analyst');
    advisor = await staffSession(t.app, 'advisor');
    // Both answered queries' audits acknowledged by the stand-in.
    await vi.waitFor(
      async () => {
        const audits = await t.app.db.select().from(bureauConsentAudits);
        expect(audits.map((audit) => audit.status)).toEqual(['DONE', 'DONE']);
      },
      { timeout: 15_000, interval: 50 },
    );
  }, 60_000);

  const get = (url: string, headers: Record<string, string> = analyst.headers) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice${url}`, headers });
  const detailOf = async (id: string, headers = analyst.headers) => {
    const res = await get(`/applications/${id}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const viewsOfRaw = async (id: string) =>
    t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, id), eq(auditEvents.type, 'staff.viewed_bureau_raw')));

  it('the detail gives each query its bureau, its report’s facts and its NIP audit with the folioCDC', async () => {
    const detail = await detailOf(ids.good);
    const [query] = detail.bureau_queries;
    expect(query).toMatchObject({
      status: 'DONE',
      provider: 'circulo',
      failure: null,
      audit_status: 'DONE',
      audit_last_error: null,
      raw_report: true,
      report: { score: 720, delinquencies: 0, details: { scores: { FICO: 720 }, inquiries_12_months: 2 } },
    });
    expect(query.audit_folio).toBe(query.report.folio);
    expect(query.audit_folio).toMatch(/\S/);
  });

  it('a failed rule carries the policy’s reason', async () => {
    const detail = await detailOf(ids.pastDue);
    expect(detail.decisions[0].rules.find((rule: { passed: boolean }) => !rule.passed)).toMatchObject({
      rule: 'max_past_due_delay_days',
      reason: 'Hay una cuenta abierta con saldo vencido y un atraso mayor a 60 días.',
    });
  });

  it('a tampered signature and a refusal are told apart, with no audit owed', async () => {
    const [tampered] = (await detailOf(ids.tampered)).bureau_queries;
    expect(tampered).toMatchObject({ failure: 'integrity', report: null, raw_report: false, audit_status: null });
    const [refused] = (await detailOf(ids.blocked)).bureau_queries;
    expect(refused).toMatchObject({ status: 'FAILED', failure: 'refused', audit_status: null, audit_folio: null });
    expect(refused.last_error).toMatch(/\S/);
  });

  it('advisors see the failure and the audit but not the report', async () => {
    const [query] = (await detailOf(ids.good, advisor.headers)).bureau_queries;
    expect(query).toMatchObject({ provider: 'circulo', report: null, raw_report: false, audit_status: 'DONE' });
  });

  it('an analyst reads the raw answer, and the reading is on the application’s chain', async () => {
    const [query] = (await detailOf(ids.good)).bureau_queries;
    const before = (await viewsOfRaw(ids.good)).length;
    const res = await get(`/applications/${ids.good}/bureau-queries/${query.id}/raw`);
    expect(res.statusCode, res.body).toBe(200);
    const raw = res.json().data;
    expect(raw.folioConsulta).toBe(query.report.folio);
    expect(raw.creditos.map((credit: { nombreOtorgante: string }) => credit.nombreOtorgante)).toEqual([
      'TIENDA DEPARTAMENTAL',
      'BANCO',
      'FINANCIERA',
    ]);
    expect(raw.scores).toEqual([expect.objectContaining({ nombreScore: 'FICO', valor: 720 })]);
    const views = await viewsOfRaw(ids.good);
    expect(views).toHaveLength(before + 1);
    expect(views.at(-1)).toMatchObject({ actor: `staff:${analyst.member.id}`, payload: { query_id: query.id } });
  });

  it('ten analysts’ readings at once: each answered and each on the chain, which still verifies', async () => {
    const [query] = (await detailOf(ids.good)).bureau_queries;
    const before = (await viewsOfRaw(ids.good)).length;
    const url = `/applications/${ids.good}/bureau-queries/${query.id}/raw`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => get(url)));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    expect(await viewsOfRaw(ids.good)).toHaveLength(before + 10);
    expect(await verifyAuditChain(t.app.db, ids.good)).toMatchObject({ valid: true });
  });

  it('the raw answer: 403 for an advisor, 404 for another application’s query or one without an answer', async () => {
    const [query] = (await detailOf(ids.good)).bureau_queries;
    const before = (await viewsOfRaw(ids.good)).length;
    const forbidden = await get(`/applications/${ids.good}/bureau-queries/${query.id}/raw`, advisor.headers);
    expect(forbidden.statusCode).toBe(403);
    const elsewhere = await get(`/applications/${ids.tampered}/bureau-queries/${query.id}/raw`);
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().readable_message).toBe('Esta consulta no tiene reporte.');
    const [refused] = (await detailOf(ids.blocked)).bureau_queries;
    expect((await get(`/applications/${ids.blocked}/bureau-queries/${refused.id}/raw`)).statusCode).toBe(404);
    expect(await viewsOfRaw(ids.good)).toHaveLength(before);
    expect(await viewsOfRaw(ids.tampered)).toEqual([]);
  });

  it('the consents CSV gives each consent its folioCDC (empty when no audit was acknowledged)', async () => {
    const res = await get('/exports/consents.csv?from=2026-11-25&to=2026-11-25');
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.slice(1).trimEnd().split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.at(-1)).toBe('folio_cdc');
    const folioOf = (id: string) =>
      lines
        .find((line) => line.split(',')[1] === id)!
        .split(',')
        .at(-1);
    const [good] = (await detailOf(ids.good)).bureau_queries;
    expect(folioOf(ids.good)).toBe(good.audit_folio);
    expect(folioOf(ids.blocked)).toBe('');
    expect(folioOf(ids.tampered)).toBe('');
  });

  // Last: it moves the clock past the analyst's second factor.
  it('the raw answer needs a second factor from the last 15 minutes, as identity images do', async () => {
    const [query] = (await detailOf(ids.good)).bureau_queries;
    clock.advance(15 * 60 + 1);
    const stale = await get(`/applications/${ids.good}/bureau-queries/${query.id}/raw`);
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'STEP_UP_REQUIRED' });
  });
});
