import type { ApplicationDetail, StaffView } from '@provee/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION_ID,
  createChain,
  createDetail,
  createLenderDecision,
  createSigner,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubSignedIn,
  type Call,
} from '../../../../test/backoffice.js';

const DETAIL = `/api/backoffice/applications/${APPLICATION_ID}`;
const DECIDE = `${DETAIL}/lender-decision`;
const ANALYST = 'staff:11111111-2222-4333-8444-555555555555';

type Decision = ApplicationDetail['decisions'][number];
const preApproval = (amount: number, created_at: string, overrides: Partial<Decision> = {}): Decision => ({
  id: `d-${created_at}`,
  consent_id: 'c1',
  aval_id: null,
  result: 'APPROVED',
  amount,
  currency: 'DOP',
  policy_version: '2025-05',
  rules: [],
  created_at,
  ...overrides,
});

/** A staff member of `role` on the application; the detail read first is `detail`, then `after` once a decision went through. */
function open(
  role: StaffView['role'],
  detail: ApplicationDetail,
  answer: (call: Call) => Response | undefined = () => undefined,
  after: ApplicationDetail = detail,
) {
  let decided = false;
  const calls = stubSignedIn(createStaff({ role }), (call) => {
    if (call.method === 'GET' && call.url === DETAIL) return json(200, { data: decided ? after : detail });
    const answered = answer(call);
    if (call.method === 'POST' && call.url === DECIDE && answered?.ok) decided = true;
    return answered;
  });
  renderBackoffice(`/backoffice/applications/${APPLICATION_ID}`);
  return calls;
}

const accepted =
  (next_step: string, status = 'IN_PROGRESS') =>
  () =>
    json(200, { data: { next_step, status, result: {} } });
const section = () => screen.findByRole('region', { name: 'Decisión del prestamista' });
const posted = (calls: Call[]) => calls.filter((call) => call.method === 'POST' && call.url === DECIDE);

describe('Decisión del prestamista', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each recorded decision with its terms and who took it, by name', async () => {
    const detail = createDetail({
      next_step: 'DISBURSED',
      lender_decisions: [
        createLenderDecision({ amount: 40_000, term_months: 12, annual_rate: 18.5 }),
        createLenderDecision({
          outcome: 'DISBURSED',
          amount: null,
          currency: null,
          term_months: null,
          annual_rate: null,
          reference: 'TRF-2025-0042',
          decided_by: 'partner-key:0c8f2a1e-aaaa-4bbb-8ccc-000000000001',
          decided_by_name: 'Sistema del prestamista (llave 0c8f2a1e)',
          decided_at: '2025-05-05T12:00:00.000Z',
        }),
      ],
      timeline: [
        createChain({
          events: [
            {
              id: 9,
              type: 'lender.decision_recorded',
              actor: ANALYST,
              actor_name: 'Ana Núñez Peña (analista)',
              at: '2025-05-03T16:00:00.000Z',
              payload: {},
            },
          ],
        }),
      ],
    });
    open('analyst', detail);
    const table = within(await section()).getByRole('table', { name: 'Decisiones del prestamista' });
    const [approved, disbursed] = within(table).getAllByRole('row').slice(1);
    const cells = (row: HTMLElement | undefined) =>
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent?.replace(/\s/g, ' '));
    expect(cells(approved)).toEqual([
      'Aprobado',
      expect.stringMatching(/40,000\.00/),
      '12 meses',
      '18.5 %',
      '—',
      '—',
      'Ana Núñez Peña (analista)',
    ]);
    expect(cells(disbursed)).toEqual([
      'Desembolsado',
      '—',
      '—',
      '—',
      '—',
      'TRF-2025-0042',
      'Sistema del prestamista (llave 0c8f2a1e)',
    ]);
    // Disbursed: nothing left to decide.
    expect(within(await section()).queryByRole('button')).toBeNull();
  });

  it('approves with the latest pre-approved amount prefilled, then the detail is read again', async () => {
    const detail = createDetail({
      decisions: [
        preApproval(30_000, '2025-05-01T10:00:00.000Z'),
        preApproval(45_000, '2025-05-02T10:00:00.000Z'),
        preApproval(90_000, '2025-05-02T11:00:00.000Z', { aval_id: 'aval-1' }),
        preApproval(60_000, '2025-05-02T12:00:00.000Z', { result: 'REJECTED' }),
      ],
    });
    const calls = open('analyst', detail, (call) => (call.url === DECIDE ? accepted('APPROVED')() : undefined), {
      ...detail,
      next_step: 'APPROVED',
      lender_decisions: [createLenderDecision({ amount: 44_500 })],
    });
    const form = within(await section()).getByRole('form', { name: 'Aprobar' });
    const amount = within(form).getByLabelText('Monto aprobado (DOP)') as HTMLInputElement;
    expect(amount.value).toBe('45000');
    expect(within(form).getByText(/Preaprobado: .*45,000\.00; no puede ser mayor\./)).toBeTruthy();
    fireEvent.change(amount, { target: { value: '44,500' } });
    fireEvent.change(within(form).getByLabelText('Plazo (meses)'), { target: { value: '18' } });
    fireEvent.change(within(form).getByLabelText('Tasa anual (%)'), { target: { value: '24,75' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Aprobar' }));

    expect(await screen.findByText('Aprobación del prestamista registrada')).toBeTruthy();
    expect(posted(calls).map((call) => call.body)).toEqual([
      { outcome: 'APPROVED', amount: 44_500, term_months: 18, annual_rate: 24.75 },
    ]);
    // Read again: now approved, so the next thing to record is the disbursement.
    expect(await screen.findByRole('form', { name: 'Desembolso' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Aprobar' })).toBeNull();
    expect(calls.filter((call) => call.method === 'GET' && call.url === DETAIL)).toHaveLength(2);
  });

  it('declines with the reason typed', async () => {
    const calls = open('admin', createDetail(), (call) =>
      call.url === DECIDE ? accepted('PENDING_APPROVAL', 'REJECTED')() : undefined,
    );
    const form = within(await section()).getByRole('form', { name: 'Rechazar' });
    fireEvent.change(within(form).getByLabelText('Motivo del rechazo'), {
      target: { value: 'Capacidad de pago insuficiente' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Rechazar' }));
    expect(await screen.findByText('Rechazo del prestamista registrado')).toBeTruthy();
    expect(posted(calls).map((call) => call.body)).toEqual([
      { outcome: 'DECLINED', reason: 'Capacidad de pago insuficiente' },
    ]);
  });

  it('marks an approved application disbursed, with its reference or without one', async () => {
    const calls = open('analyst', createDetail({ next_step: 'APPROVED' }), accepted('DISBURSED'));
    let form = within(await section()).getByRole('form', { name: 'Desembolso' });
    expect(screen.queryByRole('form', { name: 'Aprobar' })).toBeNull();
    // The titular has not signed yet: the API will refuse, and the form says why beforehand.
    expect(within(form).getByText(/Todavía faltan firmas del contrato/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Referencia del desembolso (opcional)'), {
      target: { value: '  TRF-2025-0042 ' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Marcar como desembolsado' }));
    expect(await screen.findByText('Desembolso registrado')).toBeTruthy();

    form = screen.getByRole('form', { name: 'Desembolso' });
    fireEvent.change(within(form).getByLabelText('Referencia del desembolso (opcional)'), { target: { value: ' ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Marcar como desembolsado' }));
    await vi.waitFor(() => expect(posted(calls)).toHaveLength(2));
    expect(posted(calls).map((call) => call.body)).toEqual([
      { outcome: 'DISBURSED', reference: 'TRF-2025-0042' },
      { outcome: 'DISBURSED' },
    ]);
  });

  it('says nothing of missing signatures once every signer signed', async () => {
    const signed = createSigner({ state: 'SIGNED', signed_at: '2025-05-04T10:00:00.000Z' });
    open('analyst', createDetail({ next_step: 'APPROVED', signers: [signed] }));
    const form = within(await section()).getByRole('form', { name: 'Desembolso' });
    expect(within(form).queryByText(/Todavía faltan firmas/)).toBeNull();
  });

  it("shows a 400's messages under their fields, and a 409's readable message under the form", async () => {
    let answer = envelope(400, 'VALIDATION_ERROR', 'Revisa los datos marcados.', [
      { field: 'body.amount', message: 'El monto no puede pasar del pre aprobado (45,000 DOP).' },
      { field: 'body.term_months', message: 'El plazo es de 1 a 60 meses.' },
    ]);
    open('analyst', createDetail(), (call) => (call.url === DECIDE ? answer : undefined));
    const form = within(await section()).getByRole('form', { name: 'Aprobar' });
    fireEvent.change(within(form).getByLabelText('Plazo (meses)'), { target: { value: '90' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Aprobar' }));

    const term = within(form).getByLabelText('Plazo (meses)');
    await vi.waitFor(() => expect(term.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = (input: HTMLElement) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' | ');
    expect(describedBy(term)).toContain('El plazo es de 1 a 60 meses.');
    expect(describedBy(within(form).getByLabelText(/^Monto aprobado/))).toContain(
      'El monto no puede pasar del pre aprobado (45,000 DOP).',
    );
    expect(within(form).getByLabelText('Tasa anual (%)').getAttribute('aria-invalid')).toBeNull();
    // The fields' messages are not repeated in the form's alert.
    expect(within(form).getByRole('alert').textContent).toBe('Revisa los datos marcados.');

    answer = envelope(
      409,
      'LENDER_DECISION_NOT_NOW',
      'Solo se aprueba o rechaza una solicitud «Pendiente de aprobación»; esta está en «Aprobado por el prestamista».',
    );
    fireEvent.change(term, { target: { value: '12' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Aprobar' }));
    await vi.waitFor(() =>
      expect(within(form).getByRole('alert').textContent).toBe(
        'Solo se aprueba o rechaza una solicitud «Pendiente de aprobación»; esta está en «Aprobado por el prestamista».',
      ),
    );
    expect(term.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('Aprobación del prestamista registrada')).toBeNull();
  });

  it('offers no decision to advisors, nor on a rejected application or one not yet pending approval', async () => {
    open('advisor', createDetail({ sensitive_visible: false }));
    expect(within(await section()).queryByRole('form')).toBeNull();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';

    open('analyst', createDetail({ status: 'REJECTED' }));
    expect(within(await section()).queryByRole('form')).toBeNull();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';

    open('analyst', createDetail({ next_step: 'INVENTORY' }));
    const pending = await section();
    expect(within(pending).queryByRole('form')).toBeNull();
    expect(
      within(pending).getByText('El prestamista decide cuando la solicitud llega a «Pendiente de aprobación».'),
    ).toBeTruthy();
  });
});
