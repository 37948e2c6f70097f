import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSession, createStaff, envelope, json, renderBackoffice, stubFetch } from '../../../test/backoffice.js';

const where = () => screen.getByTestId('where').textContent;
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `ABCDE-${String(10000 + i)}`);

describe('/backoffice/login/enrol (a first login of an analyst or an admin)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the QR and the key to type, confirms with the first code, then the recovery codes once', async () => {
    const staff = createStaff({ name: 'Adela Admin', role: 'admin', second_factor: false, must_enrol: true });
    let confirmations = 0;
    const calls = stubFetch((call) => {
      if (call.url === '/api/backoffice/session' && call.method === 'GET')
        return json(200, { data: createSession({ stage: 'enrol', staff, factors: [], step_up_until: null }) });
      if (call.url === '/api/backoffice/me/totp')
        return json(200, {
          data: { secret: SECRET, otpauth_uri: `otpauth://totp/Provee:adela?secret=${SECRET}&issuer=Provee` },
        });
      if (call.url === '/api/backoffice/me/totp/confirm')
        return (confirmations += 1) === 1
          ? envelope(401, 'INVALID_FACTOR', 'El código no es correcto o ya se usó.')
          : json(200, {
              data: { session: createSession({ staff: { ...staff, second_factor: true } }), recovery_codes: CODES },
            });
      if (call.url.startsWith('/api/backoffice/applications'))
        return json(200, {
          data: { items: [], total: 0, total_exact: true, page_size: 25, next_cursor: null, previous_cursor: null },
        });
      return undefined;
    });
    renderBackoffice('/backoffice/login/enrol?next=%2Fbackoffice', { strict: true });

    expect(await screen.findByRole('heading', { level: 1, name: 'Protege tu cuenta' })).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'Código QR para tu aplicación de autenticación' })).toBeTruthy();
    expect((screen.getByLabelText('Clave para escribir a mano') as HTMLInputElement).value).toBe(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    const code = screen.getByLabelText('Escribe el código de 6 dígitos que muestra la aplicación');
    fireEvent.change(code, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Escribe los 6 dígitos que muestra la aplicación.');
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('El código no es correcto o ya se usó.');
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Tus códigos de recuperación' })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Códigos de recuperación' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    const download = screen.getByRole('link', { name: 'Descargar (.txt)' });
    expect(decodeURIComponent(download.getAttribute('href')!)).toContain(CODES.join('\n'));
    const next = screen.getByRole('button', { name: 'Continuar' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Guardé mis códigos en un lugar seguro'));
    fireEvent.click(next);

    expect(await screen.findByRole('heading', { level: 1, name: 'Solicitudes' })).toBeTruthy();
    expect(where()).toBe('/backoffice');
    // One secret for the screen, even with React's second effect run; the codes only once.
    expect(calls.filter((call) => call.url === '/api/backoffice/me/totp')).toHaveLength(1);
    expect(calls.filter((call) => call.url === '/api/backoffice/me/totp/confirm').map((call) => call.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
  });

  it('a login in another stage is sent to it: an active one goes on to ?next=', async () => {
    stubFetch((call) => {
      if (call.url === '/api/backoffice/session') return json(200, { data: createSession() });
      if (call.url.startsWith('/api/backoffice/advisor-queue')) return json(200, { data: [] });
      return undefined;
    });
    renderBackoffice('/backoffice/login/enrol?next=%2Fbackoffice%2Fqueue');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cola de asesores' })).toBeTruthy();
  });

  it('without a session, back to the login', async () => {
    stubFetch(() => envelope(401, 'STAFF_UNAUTHENTICATED', 'Tu sesión terminó. Vuelve a iniciar sesión.'));
    renderBackoffice('/backoffice/login/enrol');
    expect(await screen.findByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
    expect(where()).toBe('/backoffice/login');
  });
});
