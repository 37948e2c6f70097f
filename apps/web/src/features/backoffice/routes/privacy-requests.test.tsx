import type { PrivacyRequestView } from '@provee/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APPLICATION_ID,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubSignedIn,
} from '../../../test/backoffice.js';

const createRequest = (overrides: Partial<PrivacyRequestView> = {}): PrivacyRequestView => ({
  id: '9d2f6b4e-1c3a-4f5e-8a7b-0c1d2e3f4a5b',
  folio: 'ARCO-2026-000001',
  application_id: APPLICATION_ID,
  kind: 'cancellation',
  reason: 'Ya no quiero el crédito.',
  field: null,
  state: 'RECEIVED',
  deadline: '2026-12-07',
  overdue: false,
  refusal_reason: null,
  resolution: null,
  created_at: '2026-11-21T12:00:00Z',
  decided_at: null,
  ...overrides,
});

const overdue = createRequest({ id: 'a1', folio: 'ARCO-2026-000002', deadline: '2026-11-02', overdue: true });
const onTime = createRequest();
const QUEUE = '/api/backoffice/privacy-requests';

describe('/backoffice/privacy-requests (issue 31)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the requests by deadline for an analyst, the overdue one marked', async () => {
    stubSignedIn(createStaff({ role: 'analyst' }), (call) =>
      call.url.startsWith(QUEUE) ? json(200, { data: { items: [overdue, onTime] } }) : undefined,
    );
    renderBackoffice('/backoffice/privacy-requests');
    const table = await screen.findByRole('table', { name: 'Solicitudes por fecha límite' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'ARCO-2026-000002',
      'ARCO-2026-000001',
    ]);
    expect(within(rows[0]!).getByText('Vencida')).toBeTruthy();
    expect(within(rows[1]!).queryByText('Vencida')).toBeNull();
    expect(screen.getByRole('link', { name: 'Privacidad' })).toBeTruthy();
  });

  it('is not offered to advisors', async () => {
    stubSignedIn(createStaff({ role: 'advisor' }), () => undefined);
    renderBackoffice('/backoffice');
    await screen.findByRole('link', { name: 'Solicitudes' });
    expect(screen.queryByRole('link', { name: 'Privacidad' })).toBeNull();
  });

  it('the detail shows the person’s data; erasing with a signed contract shows the legal reason', async () => {
    vi.stubGlobal('confirm', () => true);
    const calls = stubSignedIn(createStaff({ role: 'admin' }), (call) => {
      if (call.url === `${QUEUE}/${onTime.id}`)
        return json(200, {
          data: {
            request: onTime,
            person: {
              application: {
                id: APPLICATION_ID,
                status: 'IN_PROGRESS',
                next_step: 'APPROVED',
                started_at: '2026-11-01',
              },
              categories: [
                {
                  category: 'identity',
                  label: 'Identidad',
                  fields: [
                    { source: 'users.name', label: 'Nombre', basis: 'Contrato', retention: '—', value: 'Begoña' },
                  ],
                },
              ],
            },
          },
        });
      if (call.url === `${QUEUE}/${onTime.id}/erase`)
        return envelope(409, 'PRIVACY_LEGAL_HOLD', 'No podemos eliminar estos datos todavía: hay un contrato firmado.');
      return undefined;
    });
    renderBackoffice(`/backoffice/privacy-requests/${onTime.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Solicitud ARCO-2026-000001' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Identidad' })).getByText('Begoña')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar los datos' }));
    expect(await screen.findByText('No podemos eliminar estos datos todavía: hay un contrato firmado.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST' && call.url.endsWith('/erase'))).toBe(true);
  });

  it('refuses with a legal reason and shows the new state', async () => {
    let refused = false;
    const calls = stubSignedIn(createStaff({ role: 'analyst' }), (call) => {
      if (call.url === `${QUEUE}/${onTime.id}/refuse`) {
        refused = true;
        return json(200, { data: { ...onTime, state: 'REFUSED', refusal_reason: 'Art. 26: obligación legal.' } });
      }
      if (call.url === `${QUEUE}/${onTime.id}`)
        return json(200, {
          data: {
            request: refused ? { ...onTime, state: 'REFUSED', refusal_reason: 'Art. 26: obligación legal.' } : onTime,
            person: null,
          },
        });
      return undefined;
    });
    renderBackoffice(`/backoffice/privacy-requests/${onTime.id}`);
    fireEvent.change(await screen.findByLabelText('Fundamento legal'), {
      target: { value: 'Art. 26: obligación legal.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Negar la solicitud' }));
    expect(await screen.findByText('Negada')).toBeTruthy();
    expect(screen.getByText('Ya no guardamos datos de esta persona.')).toBeTruthy();
    expect(calls.find((call) => call.url.endsWith('/refuse'))?.body).toEqual({
      legal_reason: 'Art. 26: obligación legal.',
    });
  });

  it('the detail of an erased person says when their data went and lists none', async () => {
    const done = createRequest({ state: 'DONE' });
    stubSignedIn(createStaff({ role: 'admin' }), (call) => {
      if (call.url === `${QUEUE}/${done.id}`)
        return json(200, {
          data: {
            request: done,
            person: {
              application: {
                id: APPLICATION_ID,
                status: 'IN_PROGRESS',
                next_step: 'TAX_ACCOUNT',
                started_at: '2026-11-01',
                erased_at: '2026-11-25 18:30:00.123+00',
              },
              categories: [],
            },
          },
        });
      return undefined;
    });
    renderBackoffice(`/backoffice/privacy-requests/${done.id}`);
    expect(await screen.findByText(/^Datos personales eliminados el 25 nov 2026\./)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Datos de la persona' })).queryByRole('term')).toBeNull();
  });
});
