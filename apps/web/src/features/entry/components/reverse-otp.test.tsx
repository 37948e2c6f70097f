import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigContext } from '../../../shared/lib/config.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { ReverseOtp } from './reverse-otp.js';
import { json } from '../../../test/fetch-stub.js';
import { createPublicConfig } from '../../../test/public-config.js';

const config = createPublicConfig();

const session = (id: string) => ({
  session_id: id,
  message: `Verificar Provee: ${id.slice(0, 8).toUpperCase()}`,
  destination: '+18095550111',
  whatsapp_url: 'https://wa.me/18095550111?text=x',
  sms_url: 'sms:+18095550111?&body=x',
  expires_at: new Date(Date.now() + 600_000).toISOString(),
});

/** Every call answers the 401 of a message sent from another number, with the server's `readable` text. */
const failProof = (readable: string) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      json(401, {
        code: 'REVERSE_OTP_FAILED',
        message: 'unauthenticated for invalid credentials',
        readable_message: readable,
      }),
    ),
  );

function renderScreen() {
  return render(
    <ConfigContext value={config}>
      <MemoryRouter>
        <ReverseOtp phone="8095551234" sessionId="aaaaaaaa-0000-4000-8000-000000000000" />
      </MemoryRouter>
    </ConfigContext>,
  );
}

describe('ReverseOtp screen', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
  });

  it('an expired session offers a new attempt, which starts a new session', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/v1/ip') return json(200, { ip: '203.0.113.5' });
      if (url === '/api/v1/users/reverse-otp' && init?.method === 'PUT') {
        const { session_id } = JSON.parse(String(init.body));
        return session_id.startsWith('aaaaaaaa')
          ? json(410, { code: 'REVERSE_OTP_EXPIRED', message: 'expired', readable_message: 'vencida' })
          : json(202, { data: { status: 'PENDING', ...session(session_id) } });
      }
      if (url === '/api/v1/users/reverse-otp')
        return json(200, { data: session('bbbbbbbb-0000-4000-8000-000000000000') });
      return json(204, {});
    });
    vi.stubGlobal('fetch', fetchMock);
    renderScreen();
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'El tiempo para enviar el mensaje terminó. Puedes intentarlo de nuevo.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Intentar de nuevo' }));
    expect(await screen.findByText('Verificar Provee: BBBBBBBB')).toBeTruthy();
    const start = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/v1/users/reverse-otp' && init?.method === 'POST',
    );
    expect(JSON.parse(String(start![1]!.body))).toEqual({
      phone_number: '8095551234',
      anonymous_id: 'anon-8095551234',
      ip_address: '203.0.113.5',
    });
  });

  it('shows the message, the destination and both links while pending', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(202, { data: { status: 'PENDING', ...session('cccccccc-0000-4000-8000-000000000000') } })),
    );
    renderScreen();
    expect(await screen.findByText('Verificar Provee: CCCCCCCC')).toBeTruthy();
    expect(screen.getByText('Al número +1 809 555 0111')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Enviar por WhatsApp' }).getAttribute('href')).toBe(
      'https://wa.me/18095550111?text=x',
    );
    expect(screen.getByRole('link', { name: 'Enviar por SMS' }).getAttribute('href')).toBe('sms:+18095550111?&body=x');
  });

  it('a message from another number on a phone: back to /home, without asking to scan a QR code it never showed', async () => {
    failProof(
      'La verificación es incorrecta. Regresa a la página de inicio y escanea el código QR con el celular con el que hiciste la solicitud.',
    );
    renderScreen();
    await vi.waitFor(() => expect(uiState.get().error).not.toBeNull());
    expect(uiState.get().error).toEqual({
      message:
        'La verificación es incorrecta. Regresa a la página de inicio y vuelve a intentarlo desde el celular con el que hiciste la solicitud.',
      buttonLabel: 'Entendido',
      goTo: '/home',
    });
  });

  it('on a wide screen (the QR is shown) the server text of SPEC §8 stays', async () => {
    const readable =
      'La verificación es incorrecta. Regresa a la página de inicio y escanea el código QR con el celular con el que hiciste la solicitud.';
    failProof(readable);
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...original(query), matches: true })) as typeof window.matchMedia;
    try {
      renderScreen();
      await vi.waitFor(() => expect(uiState.get().error?.message).toBe(readable));
    } finally {
      window.matchMedia = original;
    }
  });
});
