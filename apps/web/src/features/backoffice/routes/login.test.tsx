import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStaff, envelope, json, renderBackoffice, stubFetch } from '../testing.js';
import { safeNext } from './login.js';

const where = () => screen.getByTestId('where').textContent;

function logIn(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
}

describe('/backoffice/login', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the lock-out message of a 423 and stays on the login', async () => {
    const calls = stubFetch((call) =>
      call.url === '/api/backoffice/session' && call.method === 'POST'
        ? envelope(423, 'ACCOUNT_LOCKED', 'Tu cuenta está bloqueada por 15 minutos por demasiados intentos.')
        : undefined,
    );
    renderBackoffice('/backoffice/login');
    logIn('ana@provee.example', 'una clave equivocada');

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Tu cuenta está bloqueada por 15 minutos por demasiados intentos.',
    );
    expect(calls[0]).toMatchObject({
      method: 'POST',
      body: { email: 'ana@provee.example', password: 'una clave equivocada' },
      credentials: 'same-origin',
    });
    expect(where()).toBe('/backoffice/login');
  });

  it('a wrong password (401) is a message, not a redirect', async () => {
    stubFetch(() => envelope(401, 'INVALID_LOGIN', 'Correo o contraseña incorrectos.'));
    renderBackoffice('/backoffice/login?next=%2Fbackoffice%2Fqueue');
    logIn('ana@provee.example', 'otra');
    expect((await screen.findByRole('alert')).textContent).toBe('Correo o contraseña incorrectos.');
    expect(where()).toBe('/backoffice/login?next=%2Fbackoffice%2Fqueue');
  });

  it('after signing in, opens the page asked for in ?next= with the staff member in the header', async () => {
    const staff = createStaff({ name: 'Marisol Peña', role: 'advisor' });
    stubFetch((call) => {
      if (call.url === '/api/backoffice/session' && call.method === 'POST') return json(200, { data: { staff } });
      if (call.url.startsWith('/api/backoffice/advisor-queue')) return json(200, { data: [] });
      return undefined;
    });
    renderBackoffice('/backoffice/login?next=%2Fbackoffice%2Fqueue');
    logIn('marisol@provee.example', 'correct horse battery');

    expect(await screen.findByRole('heading', { level: 1, name: 'Cola de asesores' })).toBeTruthy();
    expect(where()).toBe('/backoffice/queue');
    expect(screen.getByText('Marisol Peña')).toBeTruthy();
    expect(screen.getByText('· Asesor')).toBeTruthy();
  });

  it('follows ?next= only inside the back office', () => {
    expect(safeNext('/backoffice/applications/1?x=1')).toBe('/backoffice/applications/1?x=1');
    expect(safeNext('//evil.example/backoffice')).toBe('/backoffice');
    expect(safeNext('https://evil.example')).toBe('/backoffice');
    expect(safeNext('/backofficex')).toBe('/backoffice');
    expect(safeNext('/backoffice/login?next=/backoffice')).toBe('/backoffice');
    expect(safeNext(null)).toBe('/backoffice');
  });
});
