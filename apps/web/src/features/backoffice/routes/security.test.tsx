import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSession, createStaff, json, renderBackoffice, stubSignedIn } from '../../../test/backoffice.js';

const CODES = Array.from({ length: 10 }, (_, i) => `KLMNP-${String(20000 + i)}`);

describe("/backoffice/security ('Mi seguridad')", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the app, the passkeys and the codes left; new codes are shown once', async () => {
    const calls = stubSignedIn(createSession(), (call) => {
      if (call.url === '/api/backoffice/me/factors')
        return json(200, {
          data: {
            totp: true,
            passkeys: [
              {
                id: '0b6f3c1e-1111-4c9a-8e2d-5f7a9b1c3d5e',
                name: 'Laptop de la oficina',
                created_at: '2025-05-01T10:00:00.000Z',
                last_used_at: null,
              },
            ],
            recovery_codes_left: 7,
          },
        });
      if (call.url === '/api/backoffice/me/recovery-codes') return json(200, { data: { recovery_codes: CODES } });
      return undefined;
    });
    renderBackoffice('/backoffice/security');
    const app = await screen.findByRole('region', { name: 'Aplicación de autenticación' });
    expect(within(app).getByText('Configurada')).toBeTruthy();
    const passkeys = screen.getByRole('region', { name: 'Llaves de acceso' });
    expect(within(passkeys).getByText('Laptop de la oficina')).toBeTruthy();
    expect(within(passkeys).getByRole('button', { name: 'Quitar la llave Laptop de la oficina' })).toBeTruthy();
    const codes = screen.getByRole('region', { name: 'Códigos de recuperación' });
    expect(codes.textContent).toMatch(/Te quedan 7 de 10/);

    fireEvent.click(within(codes).getByRole('button', { name: 'Generar códigos nuevos' }));
    const list = await screen.findByRole('list', { name: 'Códigos de recuperación' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByText('Generaste códigos nuevos: los anteriores ya no sirven.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Guardé mis códigos en un lugar seguro'));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.queryByRole('list', { name: 'Códigos de recuperación' })).toBeNull();
    expect(calls.filter((call) => call.url === '/api/backoffice/me/recovery-codes')).toHaveLength(1);
  });

  it('an advisor without a second factor can set up the app (no step-up: there is no factor to give)', async () => {
    const advisor = createStaff({ role: 'advisor', second_factor: false });
    const calls = stubSignedIn(createSession({ staff: advisor, factors: [], step_up_until: null }), (call) => {
      if (call.url === '/api/backoffice/me/factors')
        return json(200, { data: { totp: false, passkeys: [], recovery_codes_left: 0 } });
      if (call.url === '/api/backoffice/me/totp')
        return json(200, {
          data: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' },
        });
      return undefined;
    });
    renderBackoffice('/backoffice/security');
    expect(await screen.findByText('No configurada')).toBeTruthy();
    expect(screen.getByText('Primero configura la aplicación o una llave de acceso.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Configurar la aplicación' }));
    expect(((await screen.findByLabelText('Clave para escribir a mano')) as HTMLInputElement).value).toBe(
      'JBSW Y3DP EHPK 3PXP',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.url === '/api/backoffice/me/totp')).toHaveLength(1);
  });
});
