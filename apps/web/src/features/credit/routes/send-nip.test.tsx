import { fireEvent, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applicationState } from '../../../shared/lib/application-state.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { SendNipRoute } from './send-nip.js';
import { json, stubApi } from '../../../test/fetch-stub.js';
import { renderScreenAt } from '../../../test/render-screen.js';

const WRONG = '* El NIP no es correcto. Revísalo o pide uno nuevo.';

describe('SendNipRoute', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
    applicationState.clear();
  });

  it('the wrong-PIN message goes away when a new PIN is sent', async () => {
    stubApi(({ url, method }) => {
      if (url.endsWith('/consents/text'))
        return json(200, { data: { version: '1', text: 'Autorizo la consulta.', sha256: 'abc' } });
      if (url.endsWith('/SK/nip') && method === 'PUT')
        return json(400, { code: 'NIP_INVALID', message: 'wrong nip', readable_message: WRONG });
      if (url.endsWith('/SK/nip') && method === 'POST')
        return json(200, {
          data: { expires_at: new Date(Date.now() + 600_000).toISOString(), resend_after_seconds: 60 },
        });
      return undefined;
    });
    // The tab knows the application is at the PIN (the step guard lets the screen show).
    applicationState.set({ user_id: 'u-1', next_step: 'ACCOUNT_BUREAU', status: 'IN_PROGRESS', phone: '8095551234' });
    renderScreenAt(
      '/8095551234/u-1/send-nip?already-sent=true',
      <Route path="/:phoneNumber/:userId/send-nip" element={<SendNipRoute />} />,
    );
    await screen.findByText('Autorizo la consulta.');
    for (const [index, digit] of ['1', '2', '3', '4'].entries()) {
      fireEvent.change(screen.getByRole('textbox', { name: `NIP de consulta, dígito ${index + 1} de 4` }), {
        target: { value: digit },
      });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText(WRONG)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Reenviar NIP' }));
    expect(await screen.findByText('Se ha enviado el nip nuevamente')).toBeTruthy();
    expect(screen.queryByText(WRONG)).toBeNull();
  });
});
