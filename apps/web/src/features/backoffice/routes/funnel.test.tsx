import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFunnelStep, createStaff, json, renderBackoffice, stubSignedIn } from '../../../test/backoffice.js';

const steps = [
  createFunnelStep({ key: 'started', label: 'Inicio', reached: 400 }),
  createFunnelStep({
    key: 'registered',
    label: 'Registro',
    reached: 250,
    conversion: 0.625,
    median_seconds_from_previous: 185,
  }),
  createFunnelStep({
    key: 'consent',
    label: 'Consentimiento',
    reached: 100,
    conversion: 0.4,
    median_seconds_from_previous: 7_500,
  }),
  createFunnelStep({ key: 'signed', label: 'Firma', reached: 0, conversion: 0, median_seconds_from_previous: null }),
];

describe('/backoffice/funnel', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('draws one bar per step, scaled to the first, with the numbers in a table', async () => {
    const calls = stubSignedIn(createStaff({ role: 'analyst' }), (call) =>
      call.url.startsWith('/api/backoffice/funnel')
        ? json(200, {
            data: {
              from: '2025-04-01',
              to: '2025-05-01',
              utm_source: null,
              steps,
              reminders: [
                { number: 1, sent: 80, came_back: 20 },
                { number: 2, sent: 50, came_back: 5 },
              ],
            },
          })
        : undefined,
    );
    renderBackoffice('/backoffice/funnel');

    const chart = await screen.findByRole('img', { name: 'Personas que llegaron a cada paso del embudo' });
    const widths = [...chart.querySelectorAll('rect')].map((rect) => Number(rect.getAttribute('width')));
    expect(widths).toHaveLength(4);
    expect(widths[1]! / widths[0]!).toBeCloseTo(250 / 400);
    expect(widths[2]! / widths[0]!).toBeCloseTo(100 / 400);
    expect(widths[3]).toBe(0);

    const table = screen.getByRole('table', { name: 'Embudo por paso' });
    // How many each reminder brought back (issue 34).
    const reminders = screen.getByRole('table', { name: 'Recordatorios enviados en el periodo' });
    const reminderCells = (label: string) =>
      within(within(reminders).getByRole('rowheader', { name: label }).closest('tr')!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(reminderCells('Primer recordatorio')).toEqual(['80', '20', '25%']);
    expect(reminderCells('Segundo recordatorio')).toEqual(['50', '5', '10%']);

    const cells = (label: string) =>
      within(within(table).getByRole('rowheader', { name: label }).closest('tr')!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Inicio')).toEqual(['400', '—', '—']);
    expect(cells('Registro')).toEqual(['250', '62.5%', '3 min']);
    expect(cells('Consentimiento')).toEqual(['100', '40%', '2 h 5 min']);
    expect(cells('Firma')).toEqual(['0', '0%', '—']);

    const first = new URL(calls.find((c) => c.url.startsWith('/api/backoffice/funnel'))!.url, 'http://x');
    expect(first.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(first.searchParams.get('to')).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    fireEvent.change(screen.getByLabelText('Desde'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByLabelText('Hasta'), { target: { value: '2025-01-31' } });
    fireEvent.change(screen.getByLabelText('Fuente (utm_source)'), { target: { value: 'google' } });
    fireEvent.click(screen.getByRole('button', { name: 'Actualizar' }));
    await vi.waitFor(() =>
      expect(calls.at(-1)!.url).toBe('/api/backoffice/funnel?from=2025-01-01&to=2025-01-31&utm_source=google'),
    );
  });

  it('an advisor typing the address gets no funnel (and no call)', async () => {
    const calls = stubSignedIn(createStaff({ role: 'advisor' }));
    renderBackoffice('/backoffice/funnel');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sin acceso' })).toBeTruthy();
    expect(calls.some((call) => call.url.startsWith('/api/backoffice/funnel'))).toBe(false);
  });
});
