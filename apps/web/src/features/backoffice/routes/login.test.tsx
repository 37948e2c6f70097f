import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeNext } from '../lib/login-steps.js';
import {
  createSession,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubFetch,
  type Call,
} from '../../../test/backoffice.js';

const where = () => screen.getByTestId('where').textContent;
const OPTIONS = (call: Call, sso: { name: string } | null = null, password = true) =>
  call.url === '/api/backoffice/login-options' ? json(200, { data: { password, sso } }) : undefined;

async function logIn(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Correo electrónico'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
}

const typeCode = (label: string | RegExp, code: string) => {
  fireEvent.change(screen.getByLabelText(label), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
};

describe('/backoffice/login', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the lock-out message of a 429 and stays on the login', async () => {
    const calls = stubFetch(
      (call) =>
        OPTIONS(call) ??
        (call.url === '/api/backoffice/session' && call.method === 'POST'
          ? envelope(429, 'LOGIN_LOCKED', 'Demasiados intentos fallidos. Espera 15 minutos e intenta de nuevo.')
          : undefined),
    );
    renderBackoffice('/backoffice/login');
    await logIn('ana@provee.example', 'una clave equivocada');

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Demasiados intentos fallidos. Espera 15 minutos e intenta de nuevo.',
    );
    expect(calls.find((call) => call.method === 'POST')).toMatchObject({
      url: '/api/backoffice/session',
      body: { email: 'ana@provee.example', password: 'una clave equivocada' },
      credentials: 'same-origin',
    });
    expect(where()).toBe('/backoffice/login');
  });

  it('a wrong password (401) is a message, not a redirect', async () => {
    stubFetch((call) => OPTIONS(call) ?? envelope(401, 'INVALID_LOGIN', 'El correo o la contraseña no son correctos.'));
    renderBackoffice('/backoffice/login?next=%2Fbackoffice%2Fqueue');
    await logIn('ana@provee.example', 'otra');
    expect((await screen.findByRole('alert')).textContent).toBe('El correo o la contraseña no son correctos.');
    expect(where()).toBe('/backoffice/login?next=%2Fbackoffice%2Fqueue');
  });

  it('offers single sign-on by its name, and says in words why it sent the person back', async () => {
    stubFetch((call) => OPTIONS(call, { name: 'Google Workspace' }, false));
    renderBackoffice('/backoffice/login?sso=unknown');
    const link = await screen.findByRole('link', { name: 'Entrar con Google Workspace' });
    expect(link.getAttribute('href')).toBe('/api/backoffice/sso/start');
    expect(screen.queryByLabelText('Contraseña')).toBeNull();
    expect(screen.getByRole('alert').textContent).toMatch(/Tu cuenta de la empresa no tiene acceso al back office/);
  });

  it('an account without a second factor to give (an advisor) opens the page asked for in ?next=', async () => {
    const staff = createStaff({ name: 'Marisol Peña', role: 'advisor', second_factor: false });
    stubFetch((call) => {
      if (call.url === '/api/backoffice/session' && call.method === 'POST')
        return json(200, { data: createSession({ staff, factors: [], step_up_until: null }) });
      if (call.url.startsWith('/api/backoffice/advisor-queue')) return json(200, { data: [] });
      return OPTIONS(call);
    });
    renderBackoffice('/backoffice/login?next=%2Fbackoffice%2Fqueue');
    await logIn('marisol@provee.example', 'correct horse battery');

    expect(await screen.findByRole('heading', { level: 1, name: 'Cola de asesores' })).toBeTruthy();
    expect(where()).toBe('/backoffice/queue');
    expect(screen.getByText('Marisol Peña')).toBeTruthy();
    expect(screen.getByText('· Asesor')).toBeTruthy();
  });

  it("stage 'factor': the app's code finishes the login (a wrong one is a message), then ?next=", async () => {
    const staff = createStaff({ name: 'Ana Núñez Peña', role: 'analyst' });
    const waiting = createSession({ stage: 'factor', staff, step_up_until: null });
    let attempts = 0;
    const calls = stubFetch((call) => {
      if (call.url === '/api/backoffice/session' && call.method === 'POST') return json(200, { data: waiting });
      if (call.url === '/api/backoffice/session/factor')
        return (attempts += 1) === 1
          ? envelope(401, 'INVALID_FACTOR', 'El código no es correcto o ya se usó.')
          : json(200, { data: createSession({ staff }) });
      if (call.url.startsWith('/api/backoffice/advisor-queue')) return json(200, { data: [] });
      return OPTIONS(call);
    });
    renderBackoffice('/backoffice/login?next=%2Fbackoffice%2Fqueue');
    await logIn('ana@provee.example', 'correct horse battery');

    expect(await screen.findByRole('heading', { level: 1, name: 'Verificación en dos pasos' })).toBeTruthy();
    expect(where()).toBe('/backoffice/login/factor?next=%2Fbackoffice%2Fqueue');
    typeCode('Código de 6 dígitos de tu aplicación', '111111');
    expect((await screen.findByRole('alert')).textContent).toBe('El código no es correcto o ya se usó.');
    expect(where()).toBe('/backoffice/login/factor?next=%2Fbackoffice%2Fqueue');

    typeCode('Código de 6 dígitos de tu aplicación', '123 456');
    expect(await screen.findByRole('heading', { level: 1, name: 'Cola de asesores' })).toBeTruthy();
    expect(calls.filter((call) => call.url === '/api/backoffice/session/factor').map((call) => call.body)).toEqual([
      { method: 'totp', code: '111111' },
      { method: 'totp', code: '123 456' },
    ]);
  });

  it("'Usar un código de recuperación' asks for one of the codes instead", async () => {
    const waiting = createSession({ stage: 'factor', step_up_until: null });
    const calls = stubFetch((call) => {
      if (call.url === '/api/backoffice/session' && call.method === 'GET') return json(200, { data: waiting });
      if (call.url === '/api/backoffice/session/factor') return json(200, { data: createSession() });
      if (call.url.startsWith('/api/backoffice/applications'))
        return json(200, {
          data: { items: [], total: 0, total_exact: true, page_size: 25, next_cursor: null, previous_cursor: null },
        });
      return undefined;
    });
    renderBackoffice('/backoffice/login/factor');
    fireEvent.click(await screen.findByRole('button', { name: 'Usar un código de recuperación' }));
    typeCode('Código de recuperación', 'abcde-12345');
    expect(await screen.findByRole('heading', { level: 1, name: 'Solicitudes' })).toBeTruthy();
    expect(calls.find((call) => call.url === '/api/backoffice/session/factor')?.body).toEqual({
      method: 'recovery_code',
      code: 'abcde-12345',
    });
  });

  it('after single sign-on the layout finds a login waiting for its factor and shows that step', async () => {
    stubFetch((call) =>
      call.url === '/api/backoffice/session' && call.method === 'GET'
        ? json(200, { data: createSession({ stage: 'factor', auth_method: 'sso', step_up_until: null }) })
        : undefined,
    );
    renderBackoffice('/backoffice');
    expect(await screen.findByRole('heading', { level: 1, name: 'Verificación en dos pasos' })).toBeTruthy();
    expect(where()).toBe('/backoffice/login/factor?next=%2Fbackoffice');
  });

  it("'Entrar con otra cuenta' ends the waiting login", async () => {
    const calls = stubFetch((call) => {
      if (call.url === '/api/backoffice/session' && call.method === 'GET')
        return json(200, { data: createSession({ stage: 'factor', step_up_until: null }) });
      if (call.method === 'DELETE') return new Response(null, { status: 204 });
      return OPTIONS(call);
    });
    renderBackoffice('/backoffice/login/factor');
    fireEvent.click(await screen.findByRole('button', { name: 'Entrar con otra cuenta' }));
    await waitFor(() => expect(where()).toBe('/backoffice/login'));
    expect(calls.some((call) => call.method === 'DELETE' && call.url === '/api/backoffice/session')).toBe(true);
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
