import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createStaff,
  createSummary,
  envelope,
  json,
  renderBackoffice,
  stubFetch,
  stubSignedIn,
} from '../../test/backoffice.js';

const where = () => screen.getByTestId('where').textContent;
const EXPIRED = () => envelope(401, 'STAFF_SESSION_REQUIRED', 'Inicia sesión para continuar.');

describe('the back office session', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('without a session (401) goes to the login, keeping the page asked for in ?next=', async () => {
    stubFetch(() => EXPIRED());
    renderBackoffice('/backoffice/queue?include=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
    expect(where()).toBe(`/backoffice/login?next=${encodeURIComponent('/backoffice/queue?include=1')}`);
  });

  it('a session that ends mid-work (401 on a later call) also goes to the login with ?next=', async () => {
    stubSignedIn(createStaff(), (call) =>
      call.url.startsWith('/api/backoffice/applications') ? EXPIRED() : undefined,
    );
    renderBackoffice('/backoffice?status=WAITING');
    await waitFor(() =>
      expect(where()).toBe(`/backoffice/login?next=${encodeURIComponent('/backoffice?status=WAITING')}`),
    );
  });

  it("hides what the role may not use: an advisor's nav has no funnel, exports or staff", async () => {
    stubSignedIn(createStaff({ role: 'advisor' }), (call) =>
      call.url.startsWith('/api/backoffice/applications')
        ? json(200, {
            data: { items: [], total: 0, total_exact: true, page_size: 25, next_cursor: null, previous_cursor: null },
          })
        : undefined,
    );
    renderBackoffice('/backoffice');
    const nav = await screen.findByRole('navigation', { name: 'Secciones del back office' });
    const links = [...nav.querySelectorAll('a')].map((a) => a.textContent);
    expect(links).toEqual(['Solicitudes', 'Cola de asesores']);
    // Their own second factors are everyone's business.
    expect(screen.getByRole('link', { name: 'Mi seguridad' }).getAttribute('href')).toBe('/backoffice/security');
  });

  it('an admin sees every section', async () => {
    stubSignedIn(createStaff({ role: 'admin' }), (call) =>
      call.url.startsWith('/api/backoffice/applications')
        ? json(200, {
            data: {
              items: [createSummary()],
              total: 1,
              total_exact: true,
              page_size: 25,
              next_cursor: null,
              previous_cursor: null,
            },
          })
        : undefined,
    );
    renderBackoffice('/backoffice');
    const nav = await screen.findByRole('navigation', { name: 'Secciones del back office' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Solicitudes',
      'Cola de asesores',
      'Embudo',
      'Exportaciones',
      'Política de crédito',
      'Personal',
      'Trabajos',
      'Conservación',
      'Privacidad',
      'Integraciones',
    ]);
  });

  it("'Cerrar sesión' ends the session and shows the login", async () => {
    const calls = stubSignedIn(createStaff(), (call) => {
      if (call.method === 'DELETE') return new Response(null, { status: 204 });
      if (call.url.startsWith('/api/backoffice/applications'))
        return json(200, {
          data: { items: [], total: 0, total_exact: true, page_size: 25, next_cursor: null, previous_cursor: null },
        });
      return undefined;
    });
    renderBackoffice('/backoffice');
    fireEvent.click(await screen.findByRole('button', { name: 'Cerrar sesión' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/backoffice/session')).toBe(true);
    expect(where()).toBe('/backoffice/login');
  });
});
