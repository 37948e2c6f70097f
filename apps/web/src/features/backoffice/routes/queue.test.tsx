import type { AdvisorTaskView } from '@provee/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStaff, json, renderBackoffice, stubSignedIn } from '../../../test/backoffice.js';

const task = (overrides: Partial<AdvisorTaskView>): AdvisorTaskView => ({
  source: 'contact',
  source_id: '1',
  kind: 'CALL_ADVISER',
  application_id: null,
  phone: '+18095550140',
  name: 'Rosa Almánzar',
  created_at: '2025-05-02T10:00:00.000Z',
  claimed_by: null,
  claimed_at: null,
  done_at: null,
  call_url: 'tel:+18095550140',
  chat_url: 'https://wa.me/18095550140',
  visits: 1,
  last_seen_at: '2025-05-02T10:00:00.000Z',
  ...overrides,
});

describe('/backoffice/queue', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the oldest first with call and WhatsApp links; claiming posts and reloads', async () => {
    const newer = task({ source_id: '7', name: 'Rosa Almánzar', created_at: '2025-05-03T10:00:00.000Z' });
    const older = task({
      source: 'lead',
      source_id: 'lead-3',
      name: 'Héctor Suárez',
      phone: '+18295550111',
      kind: 'WHATSAPP_CHAT',
      application_id: '5b1f7a52-3c1e-4b8e-9a0f-2d6c1e8f4a10',
      created_at: '2025-05-01T10:00:00.000Z',
      call_url: 'tel:+18295550111',
      chat_url: 'https://wa.me/18295550111',
    });
    const calls = stubSignedIn(createStaff({ role: 'advisor' }), (call) => {
      if (call.url === '/api/backoffice/advisor-queue?include_done=false') return json(200, { data: [newer, older] });
      if (call.method === 'POST') return json(200, { data: older });
      return undefined;
    });
    renderBackoffice('/backoffice/queue');

    const rows = within(await screen.findByRole('table'))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      expect.stringContaining('Héctor Suárez'),
      expect.stringContaining('Rosa Almánzar'),
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'Llamar a Héctor Suárez' }).getAttribute('href')).toBe(
      'tel:+18295550111',
    );
    expect(within(rows[0]!).getByRole('link', { name: 'WhatsApp con Héctor Suárez' }).getAttribute('href')).toBe(
      'https://wa.me/18295550111',
    );
    expect(within(rows[0]!).getByRole('link', { name: 'Ver solicitud' }).getAttribute('href')).toBe(
      '/backoffice/applications/5b1f7a52-3c1e-4b8e-9a0f-2d6c1e8f4a10',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Tomar la tarea de Héctor Suárez' }));
    expect(await screen.findByText('Tomaste la tarea de Héctor Suárez')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.url).toBe('/api/backoffice/advisor-queue/lead/lead-3/claim');
    // The list is asked for again once the claim went through.
    await waitFor(() =>
      expect(calls.filter((call) => call.url.startsWith('/api/backoffice/advisor-queue?'))).toHaveLength(2),
    );
  });

  it('names each task in words (a lead is “Inició su registro”, never INTERNAL) and counts a person’s logins', async () => {
    const lead = task({
      source: 'lead',
      source_id: 'lead-9',
      kind: 'INTERNAL',
      name: null,
      phone: '+18095550177',
      visits: 3,
      last_seen_at: '2025-05-04T15:30:00.000Z',
    });
    const contact = task({ source_id: '8', kind: 'WITH_ADVISER', name: 'Rosa Almánzar' });
    stubSignedIn(createStaff({ role: 'advisor' }), (call) =>
      call.url === '/api/backoffice/advisor-queue?include_done=false'
        ? json(200, { data: [lead, contact] })
        : undefined,
    );
    renderBackoffice('/backoffice/queue');

    const rows = within(await screen.findByRole('table'))
      .getAllByRole('row')
      .slice(1);
    const leadRow = rows.find((row) => row.textContent?.includes('+18095550177'))!;
    expect(leadRow.textContent).toContain('Inició su registro');
    expect(leadRow.textContent).toContain('Nuevo contacto');
    expect(leadRow.textContent).toMatch(/Entró 3 veces, la última /);
    const contactRow = rows.find((row) => row.textContent?.includes('Rosa Almánzar'))!;
    expect(contactRow.textContent).toContain('Quiere un asesor');
    expect(contactRow.textContent).not.toContain('Entró');
    expect(screen.queryByText(/INTERNAL/)).toBeNull();
  });
});
