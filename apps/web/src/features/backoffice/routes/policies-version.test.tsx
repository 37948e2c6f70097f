import type { PolicyDetailView } from '@provee/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION_ID,
  createBacktest,
  createPolicyDetail,
  createPolicyDocument,
  createPolicyVersion,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubSignedIn,
  type Call,
} from '../../../test/backoffice.js';

const POLICY_ID = '3f0c9a1e-5b7d-4c2a-9e8f-1a2b3c4d5e6f';
const URL = `/api/backoffice/policies/${POLICY_ID}`;
const live = createPolicyVersion({ number: 3, label: 'v3', live: true });

/** `role` on the version's page; its detail as `detail()` says at each read, other calls to `answer`. */
function open(
  role: 'analyst' | 'admin',
  detail: () => PolicyDetailView,
  answer: (call: Call) => Response | undefined = () => undefined,
) {
  const calls = stubSignedIn(createStaff({ role }), (call) => {
    if (call.method === 'GET' && call.url === URL) return json(200, { data: detail() });
    if (call.method === 'GET' && call.url === '/api/backoffice/policies')
      return json(200, { data: { country: 'do', versions: [live, createPolicyVersion({ live: false })] } });
    return answer(call);
  });
  renderBackoffice(`/backoffice/policies/${POLICY_ID}`);
  return calls;
}

const rules = () => screen.getByRole('form', { name: 'Reglas' });
const input = (name: string) => within(rules()).getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });

describe('/backoffice/policies/:policyId', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows every rule as a form: threshold, operator, whether it applies and its reason', async () => {
    open('analyst', () => createPolicyDetail({ id: POLICY_ID }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Versión v2' })).toBeTruthy();
    const applicant = within(rules()).getByRole('table', { name: 'Solicitante' });
    const row = within(applicant).getByRole('rowheader', { name: 'Antigüedad del negocio' }).closest('tr')!;
    expect(within(row).getByText('≥')).toBeTruthy();
    expect((within(row).getByRole('textbox', { name: 'Antigüedad del negocio ≥' }) as HTMLInputElement).value).toBe(
      '1',
    );
    expect(within(row).getByText('años · de 1 a 4')).toBeTruthy();
    expect(input('Edad de la persona ≤').value).toBe('80');
    expect(input('Motivo: Puntaje de buró ≥').value).toBe('Puntaje de buró insuficiente');
    expect(
      (within(rules()).getByRole('checkbox', { name: 'Solo municipios atendidos' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(
      (within(rules()).getByRole('combobox', { name: 'Sin historial en el buró' }) as HTMLSelectElement).value,
    ).toBe('approve');
    // An optional rule the version leaves out: not applied, its threshold empty and closed.
    expect(
      (
        within(rules()).getByRole('checkbox', {
          name: 'Aplicar: Peor atraso de una cuenta vencida ≤',
        }) as HTMLInputElement
      ).checked,
    ).toBe(false);
    expect(input('Peor atraso de una cuenta vencida ≤').disabled).toBe(true);
    expect(
      (within(rules()).getByRole('checkbox', { name: 'Aplicar: Consultas recientes al buró ≤' }) as HTMLInputElement)
        .checked,
    ).toBe(true);
    const guarantor = within(rules()).getByRole('table', { name: 'Aval' });
    expect(within(guarantor).getAllByRole('row')).toHaveLength(4);
    expect(
      (within(guarantor).getByRole('combobox', { name: 'Aval sin historial en el buró' }) as HTMLSelectElement).value,
    ).toBe('reject');
    expect(input('Rango 3').value).toBe('12000');
    expect(input('Monto máximo').value).toBe('10000');
    expect(input('Factor, banda 1').value).toBe('1');
    // The author edits; nobody publishes their own: the reason says so.
    expect(within(rules()).getByRole('button', { name: 'Guardar borrador' })).toBeTruthy();
    const publishing = screen.getByRole('region', { name: 'Publicación' });
    expect(publishing.textContent).toContain('Publicar una versión le corresponde a una persona administradora.');
    expect(within(publishing).queryByRole('button')).toBeNull();
  });

  it('saves the draft as typed, at the revision read: a rule left out is absent, another applied', async () => {
    let detail = createPolicyDetail({ id: POLICY_ID });
    const calls = open(
      'analyst',
      () => detail,
      (call) => {
        if (call.method !== 'PUT' || call.url !== URL) return undefined;
        detail = createPolicyDetail({
          id: POLICY_ID,
          revision: 4,
          document: { ...createPolicyDocument({ version: 'v2' }), ...(call.body as { document: object }).document },
          changes_from_live: [{ what: 'Antigüedad del negocio ≥', before: '1', after: '2' }],
        });
        return json(200, { data: detail });
      },
    );
    await screen.findByRole('form', { name: 'Reglas' });
    type('Antigüedad del negocio ≥', '2');
    type('Motivo: Antigüedad del negocio ≥', 'El negocio tiene menos de 2 años');
    fireEvent.click(within(rules()).getByRole('checkbox', { name: 'Aplicar: Consultas recientes al buró ≤' }));
    fireEvent.click(within(rules()).getByRole('checkbox', { name: 'Aplicar: Peor atraso de una cuenta vencida ≤' }));
    type('Peor atraso de una cuenta vencida ≤', '90');
    fireEvent.change(within(rules()).getByRole('combobox', { name: 'Sin historial en el buró' }), {
      target: { value: 'reject' },
    });
    type('Monto máximo', '15,000');
    fireEvent.click(within(rules()).getByRole('button', { name: 'Agregar banda' }));
    type('Desde el puntaje, banda 2', '700');
    type('Factor, banda 2', '1,5');
    fireEvent.click(within(rules()).getByRole('button', { name: 'Guardar borrador' }));

    expect(await screen.findByText('Borrador v2 guardado')).toBeTruthy();
    const sent = calls.find((call) => call.method === 'PUT')!.body as { revision: number; document: unknown };
    expect(sent).toEqual({
      revision: 3,
      document: {
        description: 'Política de lanzamiento.',
        eligibility: {
          min_age: 18,
          max_age: 80,
          allowed_cities_only: true,
          min_business_age_years: 2,
          min_sales_range: 1,
          min_score: 500,
          thin_file: 'reject',
          max_delinquencies: 0,
          max_past_due_delay_days: 90,
        },
        reasons: {
          min_business_age_years: 'El negocio tiene menos de 2 años',
          min_score: 'Puntaje de buró insuficiente',
        },
        guarantor: { min_score: 550, max_delinquencies: 0, thin_file: 'reject' },
        amount: {
          by_sales_range: [10_000, 10_000, 12_000],
          score_bands: [
            { min_score: 0, factor: 1 },
            { min_score: 700, factor: 1.5 },
          ],
          cap: 15_000,
        },
      },
    });
    // The saved draft comes back (its new revision) with what it changes from the live version.
    const changes = screen.getByRole('region', { name: 'Cambios frente a la versión vigente (2026-11-01)' });
    await waitFor(() => expect(changes.textContent).toContain('Antigüedad del negocio ≥: 1 → 2'));
    expect(input('Antigüedad del negocio ≥').value).toBe('2');
  });

  it('shows a refused value under its input, and a stale revision’s message under the form', async () => {
    let answer = envelope(400, 'VALIDATION_ERROR', 'Revisa los datos marcados e intenta de nuevo.', [
      {
        field: 'body.document.eligibility.min_business_age_years',
        message: 'Antigüedad mínima del negocio: de 1 a 4.',
      },
      { field: 'body.document.amount.score_bands.0.factor', message: 'Factor: mayor que 0.' },
    ]);
    open(
      'analyst',
      () => createPolicyDetail({ id: POLICY_ID }),
      (call) => (call.method === 'PUT' ? answer : undefined),
    );
    await screen.findByRole('form', { name: 'Reglas' });
    type('Antigüedad del negocio ≥', '7');
    fireEvent.click(within(rules()).getByRole('button', { name: 'Guardar borrador' }));

    const message = await within(rules()).findByText('Antigüedad mínima del negocio: de 1 a 4.');
    const field = input('Antigüedad del negocio ≥');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(message.id);
    expect(input('Factor, banda 1').getAttribute('aria-invalid')).toBe('true');
    expect(within(rules()).getByText('Factor: mayor que 0.')).toBeTruthy();
    expect(within(rules()).getByRole('alert').textContent).toBe('Revisa los datos marcados e intenta de nuevo.');

    answer = envelope(
      409,
      'POLICY_CONFLICT',
      'El borrador cambió desde que lo abriste (otra pestaña). Vuelve a abrirlo.',
    );
    fireEvent.click(within(rules()).getByRole('button', { name: 'Guardar borrador' }));
    expect(await within(rules()).findByText(/El borrador cambió desde que lo abriste/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows someone else’s draft read only; an admin publishes it as live at the revision read', async () => {
    let detail = createPolicyDetail({
      id: POLICY_ID,
      may_edit: false,
      may_publish: true,
      publish_refusal: null,
      changes_from_live: [{ what: 'Antigüedad del negocio ≥', before: '1', after: '2' }],
    });
    const calls = open(
      'admin',
      () => detail,
      (call) => {
        if (call.method !== 'POST' || call.url !== `${URL}/publish`) return undefined;
        detail = { ...detail, status: 'PUBLISHED', live: true, may_publish: false, changes_from_live: [] };
        return json(200, { data: detail });
      },
    );
    await screen.findByRole('form', { name: 'Reglas' });
    expect(within(rules()).getByText('Solo quien empezó este borrador (Ana Núñez Peña) puede cambiarlo.')).toBeTruthy();
    // The whole form is a disabled fieldset.
    expect(input('Antigüedad del negocio ≥').matches(':disabled')).toBe(true);
    expect(within(rules()).queryByRole('button', { name: 'Guardar borrador' })).toBeNull();

    const publishing = screen.getByRole('region', { name: 'Publicación' });
    expect(within(publishing).getByRole('button', { name: 'Publicar en sombra' })).toBeTruthy();
    fireEvent.click(within(publishing).getByRole('button', { name: 'Publicar como vigente' }));
    const dialog = screen.getByRole('dialog', { name: '¿Publicar v2 como vigente?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publicar como vigente' }));
    expect(await screen.findByText('v2 publicada como vigente')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ revision: 3, mode: 'live' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Publicación' })).toBeNull());
    expect(screen.getByText('Esta es la versión vigente.')).toBeTruthy();
  });

  it("an earlier version goes live again with 'Volver a esta versión'", async () => {
    const earlier = createPolicyDetail({
      id: POLICY_ID,
      number: 1,
      label: '2026-11-01',
      status: 'PUBLISHED',
      may_edit: false,
      publish_refusal: 'Solo se publica un borrador.',
      may_activate: true,
      live_label: 'v3',
    });
    const calls = open(
      'admin',
      () => earlier,
      (call) => (call.method === 'POST' && call.url === `${URL}/activate` ? json(200, { data: earlier }) : undefined),
    );
    const publishing = await screen.findByRole('region', { name: 'Publicación' });
    expect(publishing.textContent).not.toContain('Solo se publica un borrador.');
    fireEvent.click(await within(publishing).findByRole('button', { name: 'Volver a esta versión' }));
    const dialog = screen.getByRole('dialog', { name: '¿Hacer vigente 2026-11-01?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Volver a esta versión' }));
    expect(await screen.findByText('2026-11-01 es la versión vigente')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST' && call.url === `${URL}/activate`)).toBe(true);
  });

  it('backtests over a range: approval by each version, the flips and the rules that refuse', async () => {
    const calls = open(
      'analyst',
      () => createPolicyDetail({ id: POLICY_ID }),
      (call) =>
        call.method === 'POST' && call.url === `${URL}/backtests` ? json(200, { data: createBacktest() }) : undefined,
    );
    const card = await screen.findByRole('region', { name: 'Prueba con decisiones pasadas' });
    fireEvent.change(within(card).getByLabelText('Desde'), { target: { value: '2026-11-01' } });
    fireEvent.change(within(card).getByLabelText('Hasta'), { target: { value: '2026-11-30' } });
    fireEvent.change(within(card).getByLabelText('Fuente UTM (opcional)'), { target: { value: ' facebook ' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Probar con decisiones pasadas' }));

    const result = await within(card).findByRole('region', { name: /^Resultado: 4 decisiones/ });
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      utm_source: 'facebook',
    });
    const fact = (term: string) => within(result).getByText(term).nextElementSibling?.textContent;
    expect(fact('Como se decidió')).toMatch(/^75\s?% \(3 de 4\)$/);
    expect(fact('Con la vigente (2026-11-01)')).toMatch(/^75\s?% \(3 de 4\)$/);
    expect(fact('Con esta versión (v2)')).toMatch(/^50\s?% \(2 de 4\)$/);
    expect(fact('Aprobadas → rechazadas')).toBe('1');
    expect(fact('Rechazadas → aprobadas')).toBe('0');
    const reasons = within(result).getByRole('table', { name: 'Rechazos por regla' });
    const reason = within(reasons).getByRole('rowheader', { name: 'Antigüedad del negocio ≥' }).closest('tr')!;
    expect([...reason.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual(['0', '1']);
    const flips = within(result).getByRole('table', { name: 'Solicitudes que cambian de resultado' });
    const link = within(flips).getByRole('link', { name: `Solicitud ${APPLICATION_ID}` });
    expect(link.getAttribute('href')).toBe(`/backoffice/applications/${APPLICATION_ID}`);
    const flip = link.closest('tr')!;
    expect(within(flip).getByText('Aprobada → Rechazada')).toBeTruthy();
    expect(within(flip).getByText('Antigüedad del negocio ≥')).toBeTruthy();
  });

  it('follows a long backtest as a job: its progress every second until it is done', async () => {
    const running = createBacktest({ status: 'RUNNING', processed: 0, total: 30_000, result: null, finished_at: null });
    let polls = 0;
    const calls = open(
      'analyst',
      () => createPolicyDetail({ id: POLICY_ID }),
      (call) => {
        if (call.method === 'POST' && call.url === `${URL}/backtests`) return json(202, { data: running });
        if (call.method === 'GET' && call.url === `/api/backoffice/policy-backtests/${running.id}`) {
          polls += 1;
          return json(200, {
            data: polls === 1 ? { ...running, processed: 15_000 } : createBacktest({ id: running.id, total: 30_000 }),
          });
        }
        return undefined;
      },
    );
    const card = await screen.findByRole('region', { name: 'Prueba con decisiones pasadas' });
    fireEvent.click(within(card).getByRole('button', { name: 'Probar con decisiones pasadas' }));
    expect(await within(card).findByText(/Procesadas 0 de 30.000 decisiones/)).toBeTruthy();
    expect(
      await within(card).findByText(/Procesadas 15.000 de 30.000 decisiones/, {}, { timeout: 3_000 }),
    ).toBeTruthy();
    expect(await within(card).findByRole('region', { name: /^Resultado:/ }, { timeout: 3_000 })).toBeTruthy();
    expect(calls.filter((call) => call.url.startsWith('/api/backoffice/policy-backtests/'))).toHaveLength(2);
  });
});
