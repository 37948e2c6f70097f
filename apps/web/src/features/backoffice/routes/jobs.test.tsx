import type { JobView } from '@provee/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStaff, json, renderBackoffice, stubSignedIn } from '../../../test/backoffice.js';

const failed: JobView = {
  id: 'j1',
  name: 'contract-copy-sms',
  state: 'failed',
  retries: 14,
  retry_limit: 14,
  created_at: '2026-11-20T10:00:00.000Z',
  started_at: '2026-11-22T08:00:00.000Z',
  finished_at: '2026-11-22T08:00:01.000Z',
  next_run_at: null,
  last_error: 'El proveedor de SMS no respondió.',
  data: { signer_id: 's1' },
};

describe('/backoffice/jobs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows admins each kind by state and the failed jobs with their last error; the filter asks again', async () => {
    const calls = stubSignedIn(createStaff({ role: 'admin' }), (call) =>
      call.url.startsWith('/api/backoffice/jobs')
        ? json(200, {
            data: {
              kinds: [{ name: 'contract-copy-sms', waiting: 2, running: 0, done: 40, failed: 1 }],
              jobs: call.url.includes('state=failed') ? [failed] : [],
            },
          })
        : undefined,
    );
    renderBackoffice('/backoffice/jobs');

    const byKind = await screen.findByRole('table', { name: 'Trabajos por tipo' });
    const row = within(byKind).getByRole('rowheader', { name: 'contract-copy-sms' }).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', '0', '40', '1']);
    const latest = screen.getByRole('table', { name: 'Últimos trabajos' });
    expect(within(latest).getByText('El proveedor de SMS no respondió.')).toBeTruthy();
    expect(within(latest).getByText('15 de 15')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Trabajos' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Estado'), { target: { value: 'waiting' } });
    expect(await screen.findByText('Ningún trabajo en este estado.')).toBeTruthy();
    expect(calls.map((call) => call.url)).toContain('/api/backoffice/jobs?state=waiting');
  });

  it('is not offered to analysts', async () => {
    stubSignedIn(createStaff({ role: 'analyst' }), () => undefined);
    renderBackoffice('/backoffice');
    await screen.findByRole('link', { name: 'Solicitudes' });
    expect(screen.queryByRole('link', { name: 'Trabajos' })).toBeNull();
  });
});
