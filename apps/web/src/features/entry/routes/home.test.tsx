import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uiState } from '../../../shared/lib/ui-state.js';
import { HomeRoute } from './home.js';
import { createPublicConfig } from '../../../test/public-config.js';
import { renderScreenAt } from '../../../test/render-screen.js';

const config = (country: 'do' | 'mx') => createPublicConfig(country);

function renderHome(country: 'do' | 'mx' = 'do') {
  return renderScreenAt(
    '/home',
    <>
      <Route path="/home" element={<HomeRoute />} />
      <Route path="/home/:phoneNumber/code" element={<p>pantalla del código</p>} />
    </>,
    config(country),
  );
}

describe('home phone field', () => {
  beforeEach(() => {
    sessionStorage.clear();
    sessionStorage.setItem('otp_vendor', 'sms');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
  });

  it('a server refusal of the number shows its message under the field, described by it, no modal', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              code: 'VALIDATION_ERROR',
              message: 'invalid',
              readable_message: 'Revisa los datos marcados.',
              issues: [{ field: 'body.phone_number', message: 'Este número no recibe SMS.' }],
            }),
            { status: 400, headers: { 'content-type': 'application/json' } },
          ),
      ),
    );
    renderHome();
    const field = screen.getByLabelText('Teléfono celular');
    fireEvent.change(field, { target: { value: '809 555 1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    const message = await screen.findByText('Este número no recibe SMS.');
    expect(field.getAttribute('aria-describedby')).toBe(message.id);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(uiState.get().error).toBeNull();
    fireEvent.change(field, { target: { value: '8095551235' } });
    expect(screen.queryByText('Este número no recibe SMS.')).toBeNull();
  });

  it('a number this tab proved: offered with Cambiar número, which forgets the person', async () => {
    const token = `${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 }))}.firma`;
    sessionStorage.setItem('clientToken', `Bearer ${token}`);
    sessionStorage.setItem('proven_phone', '8095551234');
    sessionStorage.setItem('phone_number', '8095551234');
    sessionStorage.setItem('values', '{"name":"Primera"}');
    renderHome();
    const field = screen.getByLabelText('Teléfono celular');
    expect((field as HTMLInputElement).value).toBe('8095551234');
    fireEvent.click(screen.getByRole('button', { name: 'Cambiar número télefonico' }));
    await waitFor(() => expect((field as HTMLInputElement).value).toBe(''));
    expect(Object.keys(sessionStorage)).toEqual(['otp_vendor']);
  });

  it('an expired token is not a proven number: no Cambiar número, the code flow as usual', () => {
    const token = `${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 1 }))}.firma`;
    sessionStorage.setItem('clientToken', `Bearer ${token}`);
    sessionStorage.setItem('proven_phone', '8095551234');
    sessionStorage.setItem('phone_number', '8095551234');
    renderHome();
    expect(screen.queryByRole('button', { name: 'Cambiar número télefonico' })).toBeNull();
  });

  it('mx: +52 and the 2-4-4 grouping are taken, the 10 digits kept', () => {
    renderHome('mx');
    const field = screen.getByLabelText('Teléfono celular');
    fireEvent.change(field, { target: { value: '+52 55 1234 5678' } });
    expect((field as HTMLInputElement).value).toBe('5512345678');
    expect(screen.getByRole('img', { name: 'Número válido' })).toBeTruthy();
  });
});
