import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicConfig } from '@provee/domain';
import { applicationState } from '../../../shared/lib/application-state.js';
import { ConfigContext } from '../../../shared/lib/config.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { json, stubApi, Where, type Call } from '../../../test/fetch-stub.js';
import { createPublicConfig } from '../../../test/public-config.js';
import { CongratulationsPartnerRoute } from './congratulations-partner.js';
import { SendNipPartnerRoute } from './send-nip-partner.js';

const sent = (overrides: Record<string, unknown> = {}) => ({
  data: {
    collateralName: 'Ramón Pérez',
    shopkeeperName: 'Juana Gómez',
    aval_type: 'PARTNER',
    expires_at: new Date(Date.now() + 600_000).toISOString(),
    resend_after_seconds: 60,
    ...overrides,
  },
});

/** fetch answered by `answer` (undefined → 404), but the consent text, always there; every call is recorded. */
const stubAvalApi = (answer: (call: Call) => Response | undefined) =>
  stubApi((call) =>
    call.url.includes('/consents/text')
      ? json(200, { data: { version: '1', text: 'Autorizo la consulta.', sha256: 'abc' } })
      : answer(call),
  );

function renderAt(url: string, config: PublicConfig = createPublicConfig()) {
  render(
    <ConfigContext value={config}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/send-nip-partner" element={<SendNipPartnerRoute />} />
          <Route path="/:to/:userTypeId/:userId/:phoneNumber/send-nip-partner" element={<SendNipPartnerRoute />} />
          <Route
            path="/partner/:userTypeId/:userId/:phoneNumber/send-nip-partner"
            element={<SendNipPartnerRoute to="partner" />}
          />
          <Route
            path="/collateral/:userTypeId/:userId/:phoneNumber/send-nip-partner"
            element={<SendNipPartnerRoute to="collateral" />}
          />
          <Route path="/congratulations-partner" element={<CongratulationsPartnerRoute />} />
          <Route path="/rejected" element={<p>Pantalla de rechazo</p>} />
        </Routes>
        <Where />
      </MemoryRouter>
    </ConfigContext>,
  );
}

const box = (index: number) =>
  screen.getByRole('textbox', { name: `NIP de consulta, dígito ${index + 1} de 4` }) as HTMLInputElement;
const boxes = () => [0, 1, 2, 3].map((index) => box(index).value).join('');
const type = (digits: string) =>
  [...digits].forEach((digit, index) => fireEvent.change(box(index), { target: { value: digit } }));
const accept = () => screen.getByRole('button', { name: 'Aceptar consulta' }) as HTMLButtonElement;
/** formatPhone joins the groups with non-breaking spaces. */
const plain = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

describe('SendNipPartnerRoute (the guarantor PIN, SPEC §2.5)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
    applicationState.clear();
  });

  it("sends the PIN to the guarantor's number on arrival, greets them and prefills the PIN", async () => {
    sessionStorage.setItem('clientToken', 'Bearer shopkeeper');
    const calls = stubAvalApi((call) =>
      call.method === 'POST' && call.url.includes('/aval/nip') ? json(200, sent({ default_nip: '4821' })) : undefined,
    );
    renderAt('/partner/SK/u-1/8095551234/send-nip-partner');

    expect(await screen.findByRole('heading', { name: 'Hola, Ramón Pérez' })).toBeTruthy();
    expect(screen.getByText('Juana Gómez te nombró como aval de su solicitud de crédito.')).toBeTruthy();
    expect(plain(screen.getByText(/Te enviamos un NIP de 4 dígitos/).textContent)).toContain('+1 809 555 1234');
    expect(boxes()).toBe('4821');
    expect(accept().disabled).toBe(false);
    const post = calls.filter((call) => call.url.includes('/aval/nip'));
    expect(post).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api/v1/users/u-1/SK/aval/nip?to=8095551234',
        authorization: 'Bearer shopkeeper',
      }),
    ]);
    // The resend waits 60 s (mm : ss), like the shopkeeper's PIN.
    expect(screen.getByRole('timer').textContent).toBe('01 : 00');
    expect((screen.getByRole('button', { name: 'Reenviar código' }) as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByText('Autorizo la consulta.')).toBeTruthy();
  });

  it("'Aceptar consulta' is enabled only with the 4 digits", async () => {
    stubAvalApi((call) => (call.method === 'POST' ? json(200, sent()) : undefined));
    renderAt('/partner/SK/u-1/8095551234/send-nip-partner');
    await screen.findByRole('heading', { name: 'Hola, Ramón Pérez' });
    expect(boxes()).toBe('');
    expect(accept().disabled).toBe(true);
    type('123');
    expect(accept().disabled).toBe(true);
    fireEvent.change(box(3), { target: { value: '4' } });
    expect(accept().disabled).toBe(false);
  });

  it('the right PIN goes to /congratulations-partner', async () => {
    const calls = stubAvalApi((call) => {
      if (call.method === 'POST') return json(200, sent({ default_nip: '4821' }));
      if (call.method === 'PUT' && call.url.includes('/aval/nip'))
        return json(200, {
          data: {
            user_id: 'u-1',
            next_step: 'PARTNER_BUREAU',
            status: 'IN_PROGRESS',
            path: '/8095550000/u-1/download',
            aval: { id: 'a-1', aval_type: 'PARTNER', name: 'Ramón Pérez', phone: '8095551234', status: 'CONSENTED' },
          },
        });
      return undefined;
    });
    renderAt('/partner/SK/u-1/8095551234/send-nip-partner');
    await waitFor(() => expect(boxes()).toBe('4821'));
    fireEvent.click(accept());

    expect(await screen.findByRole('heading', { name: '¡Gracias!' })).toBeTruthy();
    expect(screen.getByText('Gracias por aceptar ser aval. Nuestro equipo validará la información.')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/congratulations-partner');
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      url: '/api/v1/users/u-1/SK/aval/nip?to=8095551234',
      body: { nip: '4821' },
    });
  });

  it('a wrong PIN shows the server message; a resend clears it and says the PIN went again', async () => {
    const WRONG = '* El NIP no es correcto. Revísalo o pide uno nuevo.';
    stubAvalApi((call) => {
      if (call.method === 'POST') return json(200, sent());
      if (call.method === 'PUT')
        return json(400, { code: 'NIP_INVALID', message: 'wrong nip', readable_message: WRONG });
      return undefined;
    });
    // Arrived with the PIN already sent: the resend is open at once.
    renderAt('/collateral/SK/u-1/8095551234/send-nip-partner?already-sent=true');
    await screen.findByText('Autorizo la consulta.');
    type('1234');
    fireEvent.click(accept());
    expect(await screen.findByText(WRONG)).toBeTruthy();
    expect(boxes()).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Reenviar código' }));
    expect(await screen.findByText('Se ha enviado el nip nuevamente')).toBeTruthy();
    expect(screen.queryByText(WRONG)).toBeNull();
    // The resend's answer named the guarantor and started the 60 s again.
    expect(screen.getByRole('heading', { name: 'Hola, Ramón Pérez' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Reenviar código' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a 422 on the PIN goes to /rejected (SPEC §8)', async () => {
    stubAvalApi((call) => {
      if (call.method === 'POST') return json(200, sent({ default_nip: '4821' }));
      if (call.method === 'PUT')
        return json(422, { code: 'NOT_ELIGIBLE', message: 'refused', readable_message: 'No cumple' });
      return undefined;
    });
    renderAt('/partner/SK/u-1/8095551234/send-nip-partner');
    await waitFor(() => expect(boxes()).toBe('4821'));
    fireEvent.click(accept());
    expect(await screen.findByText('Pantalla de rechazo')).toBeTruthy();
  });

  it('already-sent: no PIN request on arrival; the query route reads to, user_id, user_type_id, phone_number', async () => {
    const calls = stubAvalApi(() => undefined);
    renderAt('/send-nip-partner?to=collateral&user_id=u-9&user_type_id=SK&phone_number=8295550000&already-sent=true');
    expect(await screen.findByRole('heading', { name: 'Hola' })).toBeTruthy();
    expect(plain(screen.getByText(/Te enviamos un NIP/).textContent)).toContain('+1 829 555 0000');
    await screen.findByText('Autorizo la consulta.');
    expect(calls.filter((call) => call.url.includes('/aval/'))).toEqual([]);
    expect((screen.getByRole('button', { name: 'Reenviar código' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("a guarantor's link (?token=) calls with that token, not the stored one", async () => {
    sessionStorage.setItem('clientToken', 'Bearer shopkeeper');
    const calls = stubAvalApi((call) => (call.method === 'POST' ? json(200, sent()) : undefined));
    renderAt('/partner/SK/u-1/8095551234/send-nip-partner?token=invite-123');
    await screen.findByRole('heading', { name: 'Hola, Ramón Pérez' });
    expect(calls.find((call) => call.url.includes('/aval/nip'))?.authorization).toBe('Bearer invite-123');
  });

  it("'Cambiar número' sends the new number with the country's prefix, shows a 400's field message, then continues with the new number", async () => {
    const OWN = 'El aval necesita su propio celular, distinto al tuyo.';
    let changes = 0;
    const calls = stubAvalApi((call) => {
      if (call.method === 'POST') return json(200, sent());
      if (call.url.endsWith('/aval/phone-number')) {
        changes += 1;
        return changes === 1
          ? json(400, {
              code: 'VALIDATION_ERROR',
              message: 'invalid fields',
              readable_message: 'Revisa los datos.',
              issues: [{ field: 'body.new_phone_number', message: OWN }],
            })
          : json(200, sent({ default_nip: '7315', resend_after_seconds: 60 }));
      }
      return undefined;
    });
    renderAt('/partner/SK/u-1/8095551234/send-nip-partner');
    await screen.findByRole('heading', { name: 'Hola, Ramón Pérez' });

    fireEvent.click(screen.getByRole('button', { name: 'Cambiar número' }));
    const dialog = screen.getByRole('dialog', { name: 'Cambiar número' });
    const prefix = within(dialog).getByLabelText('Prefijo') as HTMLSelectElement;
    expect(prefix.value).toBe('+1');
    const number = within(dialog).getByLabelText('Teléfono celular') as HTMLInputElement;
    const confirm = within(dialog).getByRole('button', { name: 'Enviar NIP' }) as HTMLButtonElement;
    fireEvent.change(number, { target: { value: '829555' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(number, { target: { value: '8295550000' } });
    expect(confirm.disabled).toBe(false);

    fireEvent.click(confirm);
    expect(await within(dialog).findByText(OWN)).toBeTruthy();
    expect(calls.find((call) => call.url.endsWith('/aval/phone-number'))).toMatchObject({
      method: 'PUT',
      url: '/api/v1/users/u-1/SK/aval/phone-number',
      body: { aval_type: 'PARTNER', phone_number: '8095551234', new_phone_number: '+18295550000' },
    });

    fireEvent.change(number, { target: { value: '8295550001' } });
    expect(within(dialog).queryByText(OWN)).toBeNull();
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(
        '/partner/SK/u-1/8295550001/send-nip-partner?already-sent=true',
      ),
    );
    expect(plain(screen.getByText(/Te enviamos un NIP/).textContent)).toContain('+1 829 555 0001');
    expect(boxes()).toBe('7315');
    expect(screen.getByRole('heading', { name: 'Hola, Ramón Pérez' })).toBeTruthy();
    // The new number's PIN came with the change: no second send.
    expect(calls.filter((call) => call.method === 'POST' && call.url.includes('/aval/nip'))).toHaveLength(1);
  });

  it('Mexico: the modal shows +52 and sends it before the 10 digits', async () => {
    const calls = stubAvalApi((call) => {
      if (call.method === 'POST') return json(200, sent({ aval_type: 'COLLATERAL' }));
      if (call.url.endsWith('/aval/phone-number')) return json(200, sent({ aval_type: 'COLLATERAL' }));
      return undefined;
    });
    renderAt(
      '/send-nip-partner?to=collateral&user_id=u-2&user_type_id=SK&phone_number=5512345678',
      createPublicConfig('mx'),
    );
    await screen.findByRole('heading', { name: 'Hola, Ramón Pérez' });
    fireEvent.click(screen.getByRole('button', { name: 'Cambiar número' }));
    const dialog = screen.getByRole('dialog', { name: 'Cambiar número' });
    expect((within(dialog).getByLabelText('Prefijo') as HTMLSelectElement).value).toBe('+52');
    fireEvent.change(within(dialog).getByLabelText('Teléfono celular'), { target: { value: '5587654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Enviar NIP' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.url.endsWith('/aval/phone-number'))?.body).toEqual({
      aval_type: 'COLLATERAL',
      phone_number: '5512345678',
      new_phone_number: '+525587654321',
    });
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(
        '/send-nip-partner?to=collateral&user_id=u-2&user_type_id=SK&phone_number=5587654321&already-sent=true',
      ),
    );
  });
});
