import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applicationState } from '../../../shared/lib/application-state.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { stubApi, Where } from '../../../test/fetch-stub.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import { DeclinedRoute } from './declined.js';

const PHONE = '8095551234';
const USER = 'u-8';

const renderAt = (url: string) =>
  renderScreenAt(
    url,
    <>
      <Route path="/:phoneNumber/:userId/declined" element={<DeclinedRoute />} />
      <Route path="*" element={<Where />} />
    </>,
  );

describe('/{phone}/{userId}/declined (issue 30: the lender declined)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
    applicationState.clear();
  });

  it('thanks them kindly, says it could not be approved this time, and offers an advisor', async () => {
    const calls = stubApi(() => undefined);
    applicationState.set({ user_id: USER, next_step: 'PENDING_APPROVAL', status: 'REJECTED', phone: PHONE });
    renderAt(`/${PHONE}/${USER}/declined`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Lo sentimos' })).toBeTruthy();
    expect(
      screen.getByText('Gracias por completar tu solicitud. Esta vez no pudimos aprobar tu crédito.'),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'Si quieres saber por qué o qué puedes hacer ahora, habla con un asesor: con gusto te orientamos.',
      ),
    ).toBeTruthy();
    const chat = screen.getByRole('link', { name: 'Hablar con un asesor' }) as HTMLAnchorElement;
    expect(chat.href).toContain('https://wa.me/18095550100?text=');
    expect(new URL(chat.href).searchParams.get('text')).toBe(
      'Hola, mi solicitud de crédito no fue aprobada y quiero saber qué puedo hacer.',
    );
    // The screen says what the shopkeeper may know: it asks for nothing (the lender's reason is not theirs to read).
    expect(calls).toEqual([]);
  });

  it('an application still with the lender goes where it stands', async () => {
    stubApi(() => undefined);
    applicationState.set({ user_id: USER, next_step: 'PENDING_APPROVAL', status: 'IN_PROGRESS', phone: PHONE });
    renderAt(`/${PHONE}/${USER}/declined`);
    expect((await screen.findByTestId('where')).textContent).toBe(`/${PHONE}/${USER}/download`);
  });
});
