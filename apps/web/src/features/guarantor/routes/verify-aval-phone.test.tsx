import { act, fireEvent, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { uiState } from '../../../shared/lib/ui-state.js';
import { json, stubApi, type Call } from '../../../test/fetch-stub.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import { VerifyAvalPhoneRoute } from './verify-aval-phone.js';

const USER = '3f0c1d9e-8a55-4a57-9a8e-1e2b3c4d5e6f';
const AVAL = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SESSION = '0b8e6b2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';

const started = {
  redirection_url: 'https://wa.me/18095550111?text=PROVEE%20123',
  session_id: SESSION,
  message: 'PROVEE 123',
  destination: '+18095550111',
  whatsapp_url: 'https://wa.me/18095550111?text=PROVEE%20123',
  sms_url: 'sms:+18095550111?&body=PROVEE%20123',
  expires_at: new Date(Date.now() + 600_000).toISOString(),
};

/** fetch answered by `answer` (undefined → 404), but the public IP and the consent text; every call is recorded. */
function stubAvalApi(answer: (call: Call) => Response | undefined) {
  return stubApi((call) => {
    if (call.url === '/api/v1/ip') return json(200, { ip: '203.0.113.9' });
    if (call.url === '/api/v1/consents/text?person_type=collateral')
      return json(200, { data: { version: 'v', text: 'Autorizo la consulta como aval.', sha256: 'x'.repeat(64) } });
    return answer(call);
  });
}

const invitation = (status = 'PENDING') =>
  json(200, {
    data: {
      user_id: USER,
      user_type_id: 'SK',
      collateral_id: AVAL,
      aval_type: 'COLLATERAL',
      collateralName: 'Ramón Pérez',
      shopkeeperName: 'Juana Gómez',
      phone_number: '8095551234',
      status,
    },
  });

const validation = (value: 'pending' | 'success' | 'error') => json(200, { data: { validation: value } });

const renderAt = (url: string) =>
  renderScreenAt(url, <Route path="/verify-aval-phone" element={<VerifyAvalPhoneRoute />} />);

/** Lets the fake clock run and the answers it released arrive. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/**
 * On a fake clock, the screen following the session of the link; the n-th question on where it
 * stands gets `answer(n)`. Returns how many were asked so far.
 */
function followSession(answer: (poll: number) => Response) {
  vi.useFakeTimers();
  let polls = 0;
  stubAvalApi((call) => {
    if (call.url !== '/api/v1/users/aval/reverse-otp') return undefined;
    polls += 1;
    return answer(polls);
  });
  renderAt(`/verify-aval-phone?sessionUuid=${SESSION}`);
  return () => polls;
}

describe('VerifyAvalPhoneRoute (remote consent of the guarantor, SPEC §2.5)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    uiState.reset();
  });

  it('greets the guarantor with the names of the invitation', async () => {
    sessionStorage.setItem('clientToken', 'Bearer shopkeeper');
    const calls = stubAvalApi((call) => (call.url === '/api/v1/users/aval/invitation' ? invitation() : undefined));
    renderAt('/verify-aval-phone?token=invite-1');

    expect(await screen.findByRole('heading', { name: 'Hola, Ramón Pérez' })).toBeTruthy();
    expect(screen.getByText('Juana Gómez tiene una solicitud de crédito y te eligió como su aval.')).toBeTruthy();
    expect(
      screen.getByText('Para continuar, acepta la consulta de tu historial crediticio a favor de Provee.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Aceptar Consulta' })).toBeTruthy();
    // What accepting means, word for word: the guarantor's consent text.
    expect(await screen.findByText('Autorizo la consulta como aval.')).toBeTruthy();
    const invitationCall = calls.find((call) => call.url === '/api/v1/users/aval/invitation');
    expect(invitationCall).toMatchObject({ method: 'GET', authorization: 'Bearer invite-1' });
  });

  it("'Aceptar Consulta' starts the consent and the page stays: what to send, the links beside it, come back here", async () => {
    const calls = stubAvalApi((call) => {
      if (call.url === '/api/v1/users/aval/invitation') return invitation();
      if (call.url === '/api/v1/users/aval/consent') return json(200, { data: started });
      if (call.url === '/api/v1/users/aval/reverse-otp') return validation('pending');
      return undefined;
    });
    renderAt('/verify-aval-phone?token=invite-1');
    await screen.findByRole('heading', { name: 'Hola, Ramón Pérez' });
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar Consulta' }));

    expect(await screen.findByText('PROVEE 123')).toBeTruthy();
    // Nothing takes the page away: the messaging app opens from a link, in a window of its own.
    expect(uiState.get().redirectUrl).toBeNull();
    const whatsapp = screen.getByRole('link', { name: 'Enviar por WhatsApp' }) as HTMLAnchorElement;
    expect(whatsapp.href).toBe(started.whatsapp_url);
    expect(whatsapp.target).toBe('_blank');
    expect((screen.getByRole('link', { name: 'Enviar por SMS' }) as HTMLAnchorElement).href).toBe(started.sms_url);
    expect(screen.getByText('Envía el mensaje tal como aparece, sin cambiarlo.')).toBeTruthy();
    expect(screen.getByText('Vuelve a esta página: aquí verás el resultado.')).toBeTruthy();
    expect(await screen.findByText('Esperando tu mensaje…')).toBeTruthy();
    expect(calls.find((call) => call.url === '/api/v1/users/aval/consent')).toMatchObject({
      method: 'POST',
      authorization: 'Bearer invite-1',
      body: { account_type_id: 'SK', account_id: USER, collateral_id: AVAL, ip_address: '203.0.113.9' },
    });
    expect(calls.find((call) => call.url === '/api/v1/users/aval/reverse-otp')).toMatchObject({
      method: 'PUT',
      body: { session_id: SESSION },
    });
    expect(JSON.parse(sessionStorage.getItem('aval_consent')!)).toMatchObject({
      session_id: SESSION,
      token: 'invite-1',
      collateralName: 'Ramón Pérez',
      shopkeeperName: 'Juana Gómez',
    });
  });

  it("back with ?sessionUuid=: 'Excelente' when the phone was validated", async () => {
    const calls = stubAvalApi((call) =>
      call.url === '/api/v1/users/aval/reverse-otp' ? validation('success') : undefined,
    );
    renderAt(`/verify-aval-phone?sessionUuid=${SESSION}`);
    expect(await screen.findByRole('heading', { name: 'Excelente' })).toBeTruthy();
    expect(screen.getByText('Tu celular fue validado. Pronto te llamaremos para continuar.')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'PUT', body: { session_id: SESSION } });
  });

  it("back with ?sessionUuid=: 'Lo sentimos' and the support chat when it could not be validated", async () => {
    stubAvalApi((call) => (call.url === '/api/v1/users/aval/reverse-otp' ? validation('error') : undefined));
    renderAt(`/verify-aval-phone?sessionUuid=${SESSION}`);
    expect(await screen.findByRole('heading', { name: 'Lo sentimos' })).toBeTruthy();
    expect(screen.getByText('No pudimos validar tu celular. Por favor, contacta a soporte.')).toBeTruthy();
    const support = screen.getByRole('link', { name: 'Contactar a soporte' }) as HTMLAnchorElement;
    expect(support.href).toContain('https://wa.me/18095550100?text=');
  });

  it('back without the query: the session this tab stored is the one asked about', async () => {
    sessionStorage.setItem(
      'aval_consent',
      JSON.stringify({
        session_id: SESSION,
        token: 'invite-1',
        collateralName: 'Ramón Pérez',
        shopkeeperName: 'Juana',
      }),
    );
    const calls = stubAvalApi((call) =>
      call.url === '/api/v1/users/aval/reverse-otp' ? validation('success') : undefined,
    );
    renderAt('/verify-aval-phone?token=invite-1');
    expect(await screen.findByRole('heading', { name: 'Excelente' })).toBeTruthy();
    expect(calls.map((call) => call.url)).toEqual(['/api/v1/users/aval/reverse-otp']);
  });

  it('while pending it asks again soon, then less and less often (2 s, 3 s, 4.5 s … every 10 s), until the answer', async () => {
    vi.useFakeTimers();
    let polls = 0;
    let answer: 'pending' | 'success' = 'pending';
    stubAvalApi((call) => {
      if (call.url === '/api/v1/users/aval/invitation') return invitation();
      if (call.url === '/api/v1/users/aval/consent') return json(200, { data: started });
      if (call.url === '/api/v1/users/aval/reverse-otp') {
        polls += 1;
        return validation(answer);
      }
      return undefined;
    });
    renderAt('/verify-aval-phone?token=invite-1');
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar Consulta' }));
    await advance(0);
    expect(screen.getByText('Esperando tu mensaje…')).toBeTruthy();
    expect(polls).toBe(1);

    await advance(1_999);
    expect(polls).toBe(1);
    await advance(1);
    expect(polls).toBe(2);
    await advance(3_000);
    expect(polls).toBe(3);
    await advance(4_500);
    expect(polls).toBe(4);
    // 6.75 s, then every 10 s: ten minutes of waiting are about 65 questions, never a give-up of its own.
    await advance(6_750 + 10_000 * 60);
    expect(polls).toBe(65);
    expect(screen.getByText('Esperando tu mensaje…')).toBeTruthy();

    answer = 'success';
    await advance(10_000);
    expect(screen.getByRole('heading', { name: 'Excelente' })).toBeTruthy();
    await advance(60_000);
    expect(polls).toBe(66);
  });

  it('coming back to the page (from the messaging app) asks at once, and soon again after', async () => {
    let answer: 'pending' | 'success' = 'pending';
    const polls = followSession(() => validation(answer));
    await advance(0);
    expect(screen.getByText('Validando tu celular…')).toBeTruthy();
    // Away for a while: the questions have slowed down to one every 10 s.
    await advance(60_000);
    const before = polls();

    answer = 'success';
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await advance(0);
    expect(polls()).toBe(before + 1);
    expect(screen.getByRole('heading', { name: 'Excelente' })).toBeTruthy();
  });

  it("the server's 'error' (another number, the session expired) is 'Lo sentimos' at once", async () => {
    const polls = followSession((poll) => validation(poll < 3 ? 'pending' : 'error'));
    await advance(5_000);
    expect(screen.getByRole('heading', { name: 'Lo sentimos' })).toBeTruthy();
    await advance(60_000);
    expect(polls()).toBe(3);
  });

  it("'Lo sentimos' after the session ended: 'Intentar de nuevo' starts a new one from the invitation", async () => {
    vi.useFakeTimers();
    let consents = 0;
    stubAvalApi((call) => {
      if (call.url === '/api/v1/users/aval/invitation') return invitation();
      if (call.url === '/api/v1/users/aval/consent') {
        consents += 1;
        return json(200, { data: { ...started, session_id: consents === 1 ? SESSION : AVAL } });
      }
      if (call.url === '/api/v1/users/aval/reverse-otp') {
        const session = (call.body as { session_id?: string } | undefined)?.session_id;
        return validation(session === SESSION ? 'error' : 'pending');
      }
      return undefined;
    });
    renderAt('/verify-aval-phone?token=invite-1');
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar Consulta' }));
    await advance(0);
    expect(screen.getByRole('heading', { name: 'Lo sentimos' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Intentar de nuevo' }));
    await advance(0);
    expect(sessionStorage.getItem('aval_consent')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar Consulta' }));
    await advance(0);
    // The new session is watched from the start, not shown as the last one ended.
    expect(screen.getByText('Esperando tu mensaje…')).toBeTruthy();
    expect(consents).toBe(2);
  });

  it('no answer at all: the timer stops after 30 questions in a row, coming back asks again; a 429 is waited out', async () => {
    let reachable = false;
    const polls = followSession((poll) => {
      if (reachable) return validation('success');
      if (poll === 1)
        return json(429, { code: 'RATE_LIMITED', message: 'x', readable_message: 'x', retry_after_seconds: 60 });
      throw new TypeError('Failed to fetch');
    });
    await advance(0);
    expect(polls()).toBe(1);
    await advance(59_000);
    expect(polls()).toBe(1);
    await advance(1_000);
    expect(polls()).toBe(2);
    await advance(60 * 60_000);
    expect(polls()).toBe(30);
    reachable = true;
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await advance(0);
    expect(polls()).toBe(31);
    expect(screen.getByRole('heading', { name: 'Excelente' })).toBeTruthy();
  });

  it('an invitation already answered shows no button', async () => {
    stubAvalApi((call) => (call.url === '/api/v1/users/aval/invitation' ? invitation('CONSENTED') : undefined));
    renderAt('/verify-aval-phone?token=invite-1');
    expect(await screen.findByText('Ya registramos tu respuesta. ¡Gracias!')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Aceptar Consulta' })).toBeNull();
  });
});
