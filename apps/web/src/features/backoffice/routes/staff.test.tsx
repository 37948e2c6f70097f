import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSession, createStaff, json, renderBackoffice, stubSignedIn } from '../../../test/backoffice.js';

const admin = createStaff({ role: 'admin', name: 'Adela Admin' });
const analyst = createStaff({ role: 'analyst', name: 'Ana Analista', email: 'ana@prestamista.test' });
const advisor = createStaff({ role: 'advisor', name: 'Andrés Asesor', second_factor: false });
const LINK = { url: 'http://localhost:3000/backoffice/password#token=abc', expires_at: '2025-05-02T14:00:00.000Z' };

function signedIn(answer: Parameters<typeof stubSignedIn>[1]) {
  return stubSignedIn(createSession({ staff: admin }), (call) => {
    if (call.url === '/api/backoffice/login-options') return json(200, { data: { password: true, sso: null } });
    if (call.url === '/api/backoffice/staff' && call.method === 'GET')
      return json(200, { data: [admin, analyst, advisor] });
    return answer?.(call);
  });
}

describe('/backoffice/staff', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates an account without a password and shows the link to hand over, with a copy button and its expiry', async () => {
    const calls = signedIn((call) =>
      call.url === '/api/backoffice/staff' && call.method === 'POST'
        ? json(201, { data: { staff: createStaff({ name: 'Inés Analista' }), password_link: LINK } })
        : undefined,
    );
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderBackoffice('/backoffice/staff');
    const form = await screen.findByRole('form', { name: 'Crear cuenta' });
    expect(within(form).queryByLabelText(/Contraseña/)).toBeNull();
    fireEvent.change(within(form).getByLabelText('Nombre'), { target: { value: 'Inés Analista' } });
    fireEvent.change(within(form).getByLabelText('Correo electrónico'), { target: { value: 'ines@prestamista.test' } });
    fireEvent.change(within(form).getByLabelText('Rol', { selector: 'select' }), { target: { value: 'analyst' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Crear cuenta' }));

    const card = await screen.findByRole('region', { name: 'Enlace de contraseña para Inés Analista' });
    expect(
      within(card).getByText(/Entrega este enlace a la persona por un canal seguro: sirve una vez y vence en 1 hora\./),
    ).toBeTruthy();
    expect((within(card).getByLabelText('Enlace para crear la contraseña') as HTMLInputElement).value).toBe(LINK.url);
    expect(within(card).getByText(/^Vence el /)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Copiar enlace' }));
    expect(writeText).toHaveBeenCalledWith(LINK.url);
    expect(await within(card).findByText('Enlace copiado.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Inés Analista',
      email: 'ines@prestamista.test',
      role: 'analyst',
    });
  });

  it('shows each account’s second factor; a new password link and a reset (after confirming) per account', async () => {
    const calls = signedIn((call) => {
      if (call.url.endsWith('/password-link')) return json(200, { data: LINK });
      if (call.url.endsWith('/reset-factors'))
        return json(200, { data: { ...analyst, second_factor: false, must_enrol: true } });
      return undefined;
    });
    renderBackoffice('/backoffice/staff');
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
    await screen.findByRole('table');
    expect(within(row('Ana Analista')).getByText('Configurado')).toBeTruthy();
    expect(within(row('Andrés Asesor')).getByText('Sin segundo factor')).toBeTruthy();
    expect(within(row('Andrés Asesor')).queryByRole('button', { name: /Restablecer/ })).toBeNull();
    expect(within(row('Adela Admin')).queryByRole('button')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Nuevo enlace de contraseña para Andrés Asesor' }));
    expect(await screen.findByRole('region', { name: 'Enlace de contraseña para Andrés Asesor' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Restablecer segundo factor de Ana Analista' }));
    const dialog = screen.getByRole('dialog', { name: '¿Restablecer el segundo factor de Ana Analista?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(calls.some((call) => call.url.endsWith('/reset-factors'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Restablecer segundo factor de Ana Analista' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restablecer' }));
    expect(await screen.findByText(/Segundo factor de Ana Analista restablecido/)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      `/api/backoffice/staff/${advisor.id}/password-link`,
      `/api/backoffice/staff/${analyst.id}/reset-factors`,
    ]);
  });
});
