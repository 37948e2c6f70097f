import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createStaff,
  createSummary,
  json,
  renderBackoffice,
  stubSignedIn,
  type Call,
} from '../../../test/backoffice.js';

const LIST = '/api/backoffice/applications';
const listCalls = (calls: Call[]) => calls.filter((call) => call.url.startsWith(LIST)).map((call) => call.url);

function stubList(total: number, items = [createSummary()]) {
  return stubSignedIn(createStaff(), (call) => {
    if (!call.url.startsWith(LIST)) return undefined;
    const page = Number(new URL(call.url, 'http://x').searchParams.get('page'));
    return json(200, { data: { items, total, page, page_size: 25 } });
  });
}

describe('/backoffice (applications)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the applications with a link to each one', async () => {
    const rows = [
      createSummary({ full_name: 'Lucía Germán Báez', status: 'WAITING', next_step: 'ACCOUNT_BUREAU' }),
      createSummary({
        full_name: null,
        business_name: null,
        phone: '(829) 555-0199',
        utm_source: null,
        utm_campaign: null,
      }),
    ];
    const calls = stubList(2, rows);
    renderBackoffice('/backoffice');

    const table = await screen.findByRole('table');
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByRole('link', { name: 'Lucía Germán Báez' }).getAttribute('href')).toBe(
      `/backoffice/applications/${rows[0]!.id}`,
    );
    expect(first!.textContent).toContain('Consulta al buró');
    expect(first!.textContent).toContain('En espera');
    expect(first!.textContent).toContain('facebook / mayo');
    expect(within(second!).getByRole('link', { name: 'Sin nombre' })).toBeTruthy();
    expect(second!.textContent).toContain('(829) 555-0199');
    expect(screen.getByText('2 solicitudes')).toBeTruthy();
    expect(screen.getByText('Página 1 de 1')).toBeTruthy();
    expect(listCalls(calls)).toEqual([`${LIST}?page=1&page_size=25`]);
  });

  it('marks an application whose guarantor phone is named on another application (issue 26)', async () => {
    stubList(2, [
      createSummary({ full_name: 'Con aval repetido', guarantor_phone_shared: true }),
      createSummary({ full_name: 'Sin aval repetido' }),
    ]);
    renderBackoffice('/backoffice');
    const [, shared, alone] = within(await screen.findByRole('table')).getAllByRole('row');
    expect(shared!.textContent).toContain('Aval repetido');
    expect(alone!.textContent).not.toContain('Aval repetido');
  });

  it('builds the query string from the search box and the filters, and keeps them in the address', async () => {
    const calls = stubList(60);
    renderBackoffice('/backoffice');
    await screen.findByRole('table');

    fireEvent.change(screen.getByLabelText('Buscar por teléfono, nombre o identificación fiscal'), {
      target: { value: '809 555 0142' },
    });
    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'REJECTED' } });
    fireEvent.change(screen.getByLabelText('Paso'), { target: { value: 'PARTNER_NIP' } });
    fireEvent.change(screen.getByLabelText('Fuente (utm_source)'), { target: { value: 'tiktok' } });
    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2025-05-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buscar' }));

    await screen.findByText('Página 1 de 3');
    const url = new URL(listCalls(calls).at(-1)!, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: '809 555 0142',
      next_step: 'PARTNER_NIP',
      status: 'REJECTED',
      utm_source: 'tiktok',
      from: '2025-05-01',
      page: '1',
      page_size: '25',
    });
    expect(screen.getByTestId('where').textContent).toContain('status=REJECTED');

    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('Página 2 de 3');
    const next = new URL(listCalls(calls).at(-1)!, 'http://x').searchParams;
    expect(next.get('page')).toBe('2');
    expect(next.get('status')).toBe('REJECTED');
    expect((screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("opening a shared address fills the form with its filters; 'Limpiar filtros' clears both", async () => {
    const calls = stubList(1);
    renderBackoffice('/backoffice?q=Ram%C3%ADrez&country=mx&page=2');
    await screen.findByRole('table');
    expect(listCalls(calls)[0]).toBe(`${LIST}?q=Ram%C3%ADrez&country=mx&page=2&page_size=25`);
    expect((screen.getByLabelText('País') as HTMLSelectElement).value).toBe('mx');

    fireEvent.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)).toBe(`${LIST}?page=1&page_size=25`));
    expect(
      (screen.getByLabelText('Buscar por teléfono, nombre o identificación fiscal') as HTMLInputElement).value,
    ).toBe('');
  });
});
