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

interface ListAnswer {
  total?: number;
  total_exact?: boolean;
  next_cursor?: string | null;
  previous_cursor?: string | null;
}

/** The list's answer to every call (the same page whatever the cursor), as the API shapes it. */
function stubList(answer: ListAnswer = {}, items = [createSummary()]) {
  return stubSignedIn(createStaff(), (call) => {
    if (!call.url.startsWith(LIST)) return undefined;
    const data = {
      items,
      total: items.length,
      total_exact: true,
      page_size: 25,
      next_cursor: null,
      previous_cursor: null,
    };
    return json(200, { data: { ...data, ...answer } });
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
    const calls = stubList({}, rows);
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
    // One page: nowhere to go.
    expect((screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Siguiente' }) as HTMLButtonElement).disabled).toBe(true);
    expect(listCalls(calls)).toEqual([`${LIST}?page_size=25`]);
  });

  it('marks an application whose guarantor phone is named on another application (issue 26)', async () => {
    stubList({}, [
      createSummary({ full_name: 'Con aval repetido', guarantor_phone_shared: true }),
      createSummary({ full_name: 'Sin aval repetido' }),
    ]);
    renderBackoffice('/backoffice');
    const [, shared, alone] = within(await screen.findByRole('table')).getAllByRole('row');
    expect(shared!.textContent).toContain('Aval repetido');
    expect(alone!.textContent).not.toContain('Aval repetido');
  });

  it('builds the query string from the search box and the filters, and keeps them in the address', async () => {
    const calls = stubList({ total: 60 });
    renderBackoffice('/backoffice');
    const caption = () => screen.getByRole('table').querySelector('caption')!;
    await screen.findByRole('table');
    // The order is said above the table: by last activity, or by creation given a range of days.
    expect(caption().textContent).toBe('Solicitudes, la de actividad más reciente primero');
    expect(caption().className).toBe('');

    fireEvent.change(screen.getByLabelText('Buscar por teléfono, nombre o identificación fiscal'), {
      target: { value: '809 555 0142' },
    });
    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'REJECTED' } });
    fireEvent.change(screen.getByLabelText('Paso'), { target: { value: 'PARTNER_NIP' } });
    fireEvent.change(screen.getByLabelText('Fuente (utm_source)'), { target: { value: 'tiktok' } });
    fireEvent.change(screen.getByLabelText('Creada desde'), { target: { value: '2025-05-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buscar' }));

    await vi.waitFor(() => expect(listCalls(calls)).toHaveLength(2));
    const url = new URL(listCalls(calls).at(-1)!, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: '809 555 0142',
      next_step: 'PARTNER_NIP',
      status: 'REJECTED',
      utm_source: 'tiktok',
      from: '2025-05-01',
      page_size: '25',
    });
    expect(screen.getByTestId('where').textContent).toContain('status=REJECTED');
    // A range of start days lists the latest started first (the API's applicationsOrder), and says so.
    await vi.waitFor(() => expect(caption().textContent).toBe('Solicitudes, la de creación más reciente primero'));
    expect(caption().className).toBe('');
  });

  it('Siguiente and Anterior ask for the pages next to this one by their cursors, with the same filters', async () => {
    const calls = stubList({ total: 60, next_cursor: 'c-siguiente', previous_cursor: 'c-anterior' });
    renderBackoffice('/backoffice?status=REJECTED');
    await screen.findByRole('table');
    expect(screen.getByText('60 solicitudes')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await vi.waitFor(() =>
      expect(listCalls(calls).at(-1)).toBe(`${LIST}?status=REJECTED&after=c-siguiente&page_size=25`),
    );
    expect(screen.getByTestId('where').textContent).toContain('after=c-siguiente');

    fireEvent.click(await screen.findByRole('button', { name: 'Anterior' }));
    await vi.waitFor(() =>
      expect(listCalls(calls).at(-1)).toBe(`${LIST}?status=REJECTED&before=c-anterior&page_size=25`),
    );
    expect(screen.getByTestId('where').textContent).not.toContain('after=');
  });

  it('past the count’s cap the total reads «Más de…»; the first page offers no Anterior, the last no Siguiente', async () => {
    stubList({ total: 10_000, total_exact: false, next_cursor: 'c-siguiente' });
    renderBackoffice('/backoffice');
    expect(await screen.findByText('Más de 10,000 solicitudes')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Siguiente' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a refused search shows the API’s Spanish words', async () => {
    const readable = 'Para buscar por nombre escribe al menos 3 letras seguidas.';
    stubSignedIn(createStaff(), (call) =>
      call.url.startsWith(LIST)
        ? json(400, {
            code: 'VALIDATION_ERROR',
            message: 'invalid fields',
            readable_message: readable,
            issues: [{ field: 'query.q', message: readable }],
          })
        : undefined,
    );
    renderBackoffice('/backoffice?q=Li');
    expect((await screen.findByRole('alert')).textContent).toBe(readable);
  });

  it("opening a shared address fills the form with its filters; 'Limpiar filtros' clears both", async () => {
    const calls = stubList();
    renderBackoffice('/backoffice?q=Ram%C3%ADrez&country=mx&after=c-siguiente');
    await screen.findByRole('table');
    expect(listCalls(calls)[0]).toBe(`${LIST}?q=Ram%C3%ADrez&country=mx&after=c-siguiente&page_size=25`);
    expect((screen.getByLabelText('País') as HTMLSelectElement).value).toBe('mx');

    fireEvent.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    await vi.waitFor(() => expect(listCalls(calls).at(-1)).toBe(`${LIST}?page_size=25`));
    expect(
      (screen.getByLabelText('Buscar por teléfono, nombre o identificación fiscal') as HTMLInputElement).value,
    ).toBe('');
  });
});
