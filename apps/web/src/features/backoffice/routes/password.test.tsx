import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, json, renderBackoffice, stubFetch } from '../../../test/backoffice.js';

const where = () => screen.getByTestId('where').textContent;
const TOKEN = 'pl_4f8a0c2e9b7d1a3c5e7f9b0d2a4c6e8f';

function choose(password: string, repeat = password) {
  fireEvent.change(screen.getByLabelText('Contraseña nueva'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Repite la contraseña'), { target: { value: repeat } });
  fireEvent.click(screen.getByRole('button', { name: 'Guardar contraseña' }));
}

describe('/backoffice/password (the link an admin hands over)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes the token out of the address, greets the person and saves the password the server accepts', async () => {
    let attempts = 0;
    const calls = stubFetch((call) => {
      if (call.url === '/api/backoffice/password-link')
        return json(200, { data: { email: 'ines@prestamista.test', name: 'Inés Analista' } });
      if (call.url === '/api/backoffice/password-link/password')
        return (attempts += 1) === 1
          ? envelope(400, 'WEAK_PASSWORD', 'Esa contraseña es muy común o fácil de adivinar.')
          : new Response(null, { status: 204 });
      return undefined;
    });
    renderBackoffice(`/backoffice/password#token=${TOKEN}`);

    expect(await screen.findByText('Inés Analista')).toBeTruthy();
    await waitFor(() => expect(where()).toBe('/backoffice/password'));
    expect(calls[0]).toMatchObject({ method: 'POST', body: { token: TOKEN } });

    choose('corta');
    expect(screen.getByRole('alert').textContent).toBe('La contraseña debe tener al menos 12 caracteres.');
    choose('una frase larga de verdad', 'una frase larga de verdax');
    expect(screen.getByRole('alert').textContent).toBe('Las dos contraseñas no coinciden.');
    choose('contraseña123456');
    expect((await screen.findByRole('alert')).textContent).toBe('Esa contraseña es muy común o fácil de adivinar.');
    choose('mango verde sobre la mesa azul');

    expect(await screen.findByText(/tu contraseña quedó guardada/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Iniciar sesión' }).getAttribute('href')).toBe('/backoffice/login');
    expect(calls.filter((call) => call.url.endsWith('/password')).map((call) => call.body)).toEqual([
      { token: TOKEN, password: 'contraseña123456' },
      { token: TOKEN, password: 'mango verde sobre la mesa azul' },
    ]);
  });

  it('a used or expired link says so, with no form', async () => {
    stubFetch(() =>
      envelope(
        400,
        'PASSWORD_LINK_INVALID',
        'Este enlace ya se usó, venció o no es válido. Pide a un administrador uno nuevo.',
      ),
    );
    renderBackoffice(`/backoffice/password#token=${TOKEN}`);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Este enlace ya se usó, venció/);
    expect(screen.queryByLabelText('Contraseña nueva')).toBeNull();
  });

  it('without a token, asks for the link as it was sent', async () => {
    const calls = stubFetch(() => undefined);
    renderBackoffice('/backoffice/password');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Este enlace está incompleto/);
    expect(calls).toHaveLength(0);
  });
});
