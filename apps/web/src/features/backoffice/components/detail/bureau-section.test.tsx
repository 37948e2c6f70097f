import type { ApplicationDetail } from '@provee/domain';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPLICATION_ID, createDetail, envelope, json, stubFetch } from '../../../../test/backoffice.js';
import { BureauSection } from './bureau-section.js';
import { ConsentsSection } from './consents-section.js';

type Query = ApplicationDetail['bureau_queries'][number];
const QUERY_ID = '7c0e5a8e-1b2d-4c3e-9f40-5a6b7c8d9e01';
const RAW_URL = `/api/backoffice/applications/${APPLICATION_ID}/bureau-queries/${QUERY_ID}/raw`;

/** A Círculo query answered with a report whose NIP audit was acknowledged. */
const answered = (overrides: Partial<Query> = {}): Query => ({
  id: QUERY_ID,
  consent_id: 'consent-1',
  status: 'DONE',
  attempts: 1,
  last_error: null,
  failure: null,
  provider: 'circulo',
  report: {
    folio: '0000123456',
    score: 720,
    open_accounts: 2,
    delinquencies: 1,
    worst_past_due_delay_days: 90,
    recent_inquiries: 2,
    details: {
      scores: { FICO: 720 },
      inquiries_3_months: 1,
      inquiries_6_months: 1,
      inquiries_12_months: 2,
      prevention_keys: ['CL'],
      messages: ["No se obtuvo respuesta de otras SIC's"],
    },
  },
  raw_report: true,
  audit_status: 'DONE',
  audit_folio: '998877',
  audit_last_error: null,
  created_at: '2026-11-25T16:00:00.000Z',
  updated_at: '2026-11-25T16:00:01.000Z',
  ...overrides,
});
const failed = (failure: Query['failure'], lastError: string | null = null): Query =>
  answered({ status: 'FAILED', failure, last_error: lastError, report: null, raw_report: false, audit_status: null });

const renderBureau = (detail: ApplicationDetail) =>
  render(<BureauSection detail={detail} act={async () => {}} canAct={false} />);
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('the bureau section', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the report as facts, not JSON', () => {
    renderBureau(createDetail({ bureau_queries: [answered()] }));
    expect(fact('FICO Score')).toBe('720');
    expect(fact('Cuentas abiertas')).toBe('2');
    expect(fact('Cuentas con saldo vencido')).toBe('1');
    expect(fact('Peor atraso vencido (días)')).toBe('90');
    expect(fact('Consultas 3 / 6 / 12 meses')).toBe('1 / 1 / 2');
    expect(fact('Claves de prevención')).toBe('CL');
    expect(fact('Mensajes')).toBe("No se obtuvo respuesta de otras SIC's");
    expect(screen.queryByText(/"open_accounts"/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so when the bureau has no record of the person', () => {
    const report = { folio: null, score: null, open_accounts: 0, details: { no_record: true } };
    renderBureau(createDetail({ bureau_queries: [answered({ report, raw_report: false })] }));
    expect(screen.getByText('Sin registro en el buró')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ver reporte completo' })).toBeNull();
  });

  it('alerts on an answer whose signature did not verify, and on a refusal with its reason', () => {
    renderBureau(
      createDetail({
        bureau_queries: [failed('integrity'), { ...failed('refused', '403.2 El expediente está bloqueado'), id: 'q2' }],
      }),
    );
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toEqual([
      'Alerta de integridad: la firma de la respuesta del buró no es válida; no se usó para decidir. Revisa el certificado configurado.',
      'El buró rechazó la consulta: 403.2 El expediente está bloqueado. Revisa la configuración o los datos.',
    ]);
  });

  it('gives each rule its reason, or — when it has none', () => {
    const rules = [
      { rule: 'min_score', passed: true, value: 720, threshold: 600 },
      {
        rule: 'max_past_due_delay_days',
        passed: false,
        value: 90,
        threshold: 60,
        reason: 'Hay una cuenta abierta con saldo vencido y un atraso mayor a 60 días.',
      },
    ];
    const decision = {
      id: 'd1',
      consent_id: 'consent-1',
      aval_id: null,
      result: 'REJECTED',
      amount: 0,
      currency: 'MXN',
      policy_version: '2026-11-25-mx',
      rules,
      created_at: '2026-11-25T16:00:02.000Z',
    };
    renderBureau(createDetail({ decisions: [decision] }));
    const table = screen.getByRole('table', { name: /Reglas de la decisión/ });
    expect(within(table).getByRole('columnheader', { name: 'Motivo' })).toBeTruthy();
    const cells = (rule: string) =>
      within(within(table).getByRole('rowheader', { name: rule }).closest('tr')!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('min_score')).toEqual(['720', '600', 'Cumple', '—']);
    expect(cells('max_past_due_delay_days')).toEqual([
      '90',
      '60',
      'No cumple',
      'Hay una cuenta abierta con saldo vencido y un atraso mayor a 60 días.',
    ]);
  });

  it('loads the whole report on request and shows its sections', async () => {
    const raw = {
      folioConsulta: '0000123456',
      creditos: [
        {
          nombreOtorgante: 'TIENDA DEPARTAMENTAL',
          tipoCredito: 'PP',
          fechaAperturaCuenta: '2024-06-08',
          fechaCierreCuenta: null,
          saldoActual: '4200',
          saldoVencido: '1500',
          peorAtraso: '3',
          clavePrevencion: 'CL',
        },
      ],
      consultas: [{ fechaConsulta: '2026-10-26', nombreOtorgante: 'BANCO' }],
      scores: [{ nombreScore: 'FICO', valor: 720, razones: ['D2', 'P9'] }],
      mensajes: [{ tipoMensaje: '2', leyenda: "No se obtuvo respuesta de otras SIC's" }],
    };
    const calls = stubFetch((call) => (call.url === RAW_URL ? json(200, { data: raw }) : undefined));
    renderBureau(createDetail({ bureau_queries: [answered()] }));
    expect(calls).toEqual([]); // nothing read (nor recorded) before the analyst asks
    fireEvent.click(screen.getByRole('button', { name: 'Ver reporte completo' }));

    const credits = await screen.findByRole('table', { name: 'Créditos del reporte' });
    expect(
      within(credits)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Otorgante',
      'Tipo',
      'Apertura',
      'Cierre',
      'Saldo actual',
      'Saldo vencido',
      'Peor atraso',
      'Clave de prevención',
    ]);
    const [, row] = within(credits).getAllByRole('row');
    expect(within(row!).getByRole('rowheader').textContent).toBe('TIENDA DEPARTAMENTAL');
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['PP', '2024-06-08', '—', '4200', '1500', '3', 'CL']);
    const inquiries = screen.getByRole('table', { name: 'Consultas del reporte' });
    expect(
      within(inquiries)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2026-10-26', 'BANCO']);
    expect(fact('FICO')).toBe('720 (razones: D2, P9)');
    expect(screen.getAllByText("No se obtuvo respuesta de otras SIC's").length).toBeGreaterThanOrEqual(2);
    expect(calls.map((call) => [call.method, call.url])).toEqual([['GET', RAW_URL]]);
  });

  it('shows the API’s words when the whole report cannot be read', async () => {
    stubFetch((call) =>
      call.url === RAW_URL ? envelope(404, 'BUREAU_REPORT_NOT_FOUND', 'Esta consulta no tiene reporte.') : undefined,
    );
    renderBureau(createDetail({ bureau_queries: [answered()] }));
    fireEvent.click(screen.getByRole('button', { name: 'Ver reporte completo' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Esta consulta no tiene reporte.');
  });

  it('offers no whole report where the API keeps none for this viewer (advisors)', () => {
    renderBureau(
      createDetail({ sensitive_visible: false, bureau_queries: [answered({ report: null, raw_report: false })] }),
    );
    expect(screen.queryByRole('button', { name: 'Ver reporte completo' })).toBeNull();
  });
});

describe('the consents section', () => {
  it('shows the NIP audit’s folioCDC and status beside the consent whose query it is', () => {
    const consent = (id: string, folio: string): ApplicationDetail['consents'][number] => ({
      id,
      person_type: 'titular',
      aval_id: null,
      created_at: '2026-11-25T15:59:00.000Z',
      ip: null,
      user_agent: 'Mozilla/5.0',
      pin_verified: true,
      bureau_folio: folio,
      consent_version: '2026-11',
      consent_text_sha256: 'b'.repeat(64),
      authorized_until: '2029-11-25T15:59:00.000Z',
    });
    const detail = createDetail({
      consents: [consent('consent-1', 'PRV-1'), consent('consent-2', 'PRV-2'), consent('consent-3', 'PRV-3')],
      bureau_queries: [
        answered(),
        answered({
          id: 'q2',
          consent_id: 'consent-2',
          audit_status: 'REFUSED',
          audit_folio: null,
          audit_last_error: '400 folioCDC inválido',
        }),
      ],
    });
    render(<ConsentsSection detail={detail} />);
    const table = screen.getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    const column = headers.indexOf('folioCDC (auditoría NIP)');
    expect(column).toBeGreaterThan(0);
    const auditOf = (folio: string) =>
      within(within(table).getByText(folio).closest('tr')!).getAllByRole('cell')[column - 1]!.textContent;
    expect(auditOf('PRV-1')).toBe('998877 (Acusada)');
    expect(auditOf('PRV-2')).toBe('— (Rechazada: 400 folioCDC inválido)');
    expect(auditOf('PRV-3')).toBe('—');
  });
});
