import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createDetail,
  createSession,
  createStaff,
  envelope,
  json,
  renderBackoffice,
  stubSignedIn,
} from '../../../test/backoffice.js';

const admin = createStaff({ role: 'admin', name: 'Adela Admin' });
const stale = createSession({ staff: admin, step_up_until: new Date(Date.now() - 60_000).toISOString() });
const fresh = () => createSession({ staff: admin, step_up_until: new Date(Date.now() + 15 * 60_000).toISOString() });
const STEP_UP = () =>
  envelope(403, 'STEP_UP_REQUIRED', 'Por seguridad, confirma tu identidad con tu segundo factor para continuar.');

function giveCode(code: string) {
  const dialog = screen.getByRole('dialog', { name: 'Confirma que eres tú' });
  fireEvent.change(within(dialog).getByLabelText('Código de 6 dígitos de tu aplicación'), { target: { value: code } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
}

/** On the staff page, asks to create an account for `name`; returns the form. */
async function createAccount(name: string) {
  renderBackoffice('/backoffice/staff');
  const form = await screen.findByRole('form', { name: 'Crear cuenta' });
  fireEvent.change(within(form).getByLabelText('Nombre'), { target: { value: name } });
  fireEvent.change(within(form).getByLabelText('Correo electrónico'), { target: { value: 'ines@provee.example' } });
  fireEvent.click(within(form).getByRole('button', { name: 'Crear cuenta' }));
  return form;
}

describe("the step-up dialog ('Confirma que eres tú')", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('opens when a call answers 403 STEP_UP_REQUIRED, and makes the call again once the code is right', async () => {
    let creations = 0;
    const calls = stubSignedIn(stale, (call) => {
      if (call.url === '/api/backoffice/staff' && call.method === 'GET') return json(200, { data: [admin] });
      if (call.url === '/api/backoffice/login-options') return json(200, { data: { password: true, sso: null } });
      if (call.url === '/api/backoffice/staff' && call.method === 'POST')
        return (creations += 1) === 1
          ? STEP_UP()
          : json(201, {
              data: {
                staff: createStaff({ name: 'Inés Analista', second_factor: false, must_enrol: true }),
                password_link: {
                  url: 'http://localhost/backoffice/password#token=abc',
                  expires_at: '2025-05-02T14:00:00.000Z',
                },
              },
            });
      if (call.url === '/api/backoffice/session/factor') return json(200, { data: fresh() });
      return undefined;
    });
    await createAccount('Inés Analista');

    expect(await screen.findByRole('dialog', { name: 'Confirma que eres tú' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Código de 6 dígitos de tu aplicación'));
    giveCode('654321');
    expect(await screen.findByText('Cuenta de Inés Analista creada')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/api/backoffice/staff',
      '/api/backoffice/session/factor',
      '/api/backoffice/staff',
    ]);
  });

  it("'Cancelar' leaves the call refused, with its message beside the form", async () => {
    stubSignedIn(stale, (call) => {
      if (call.url === '/api/backoffice/staff' && call.method === 'GET') return json(200, { data: [admin] });
      if (call.url === '/api/backoffice/staff' && call.method === 'POST') return STEP_UP();
      return undefined;
    });
    const form = await createAccount('Inés');
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancelar' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/confirma tu identidad/);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a download asks first when the last factor is too old, then follows the link', async () => {
    const calls = stubSignedIn(stale, (call) =>
      call.url === '/api/backoffice/session/factor' ? json(200, { data: fresh() }) : undefined,
    );
    renderBackoffice('/backoffice/exports');
    const link = await screen.findByRole('link', { name: 'Descargar consentimientos (CSV)' });
    const followed = vi.fn((event: Event) => event.preventDefault());
    link.addEventListener('click', followed);

    fireEvent.click(link);
    giveCode('123456');
    await waitFor(() => expect(followed).toHaveBeenCalledTimes(2));
    // The first click was held back (no file without the factor); the second is the browser's download.
    expect(followed.mock.calls[0]![0].defaultPrevented).toBe(true);
    expect(calls.some((call) => call.url === '/api/backoffice/session/factor')).toBe(true);

    // The factor is fresh now: the next download goes at once.
    fireEvent.click(link);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(followed).toHaveBeenCalledTimes(3);
  });

  it('identity images load only with a recent factor: a button asks for it first', async () => {
    stubSignedIn(createSession({ staff: createStaff({ role: 'analyst' }), step_up_until: null }), (call) => {
      if (call.url.startsWith('/api/backoffice/applications/')) return json(200, { data: createDetail() });
      if (call.url === '/api/backoffice/session/factor') return json(200, { data: fresh() });
      return undefined;
    });
    renderBackoffice('/backoffice/applications/5b1f7a52-3c1e-4b8e-9a0f-2d6c1e8f4a10');
    fireEvent.click(await screen.findByRole('button', { name: 'Ver imágenes' }));
    expect(screen.queryByRole('img', { name: 'Selfie' })).toBeNull();
    giveCode('123456');
    expect(await screen.findByRole('img', { name: 'Frente de la identificación' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Selfie' })).toBeTruthy();
  });
});
