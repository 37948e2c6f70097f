import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applicationState } from '../../../shared/lib/application-state.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { json, stubApi, Where } from '../../../test/fetch-stub.js';
import { createPublicConfig } from '../../../test/public-config.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import { ApprovedRoute } from './approved.js';

const PHONE = '8095551234';
const USER = 'u-7';
const approval = {
  amount: 45_000,
  currency: 'DOP',
  term_months: 12,
  annual_rate: 36.5,
  decided_at: '2025-03-02T15:00:00Z',
};
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u00a0/g, ' ');

/** The screen at `url`; any other path (where the step guard sends) shows the router's whereabouts. */
const renderAt = (url: string, config = createPublicConfig()) =>
  renderScreenAt(
    url,
    <>
      <Route path="/:phoneNumber/:userId/approved" element={<ApprovedRoute />} />
      <Route path="*" element={<Where />} />
    </>,
    config,
  );

const termOf = (name: string) => plain(screen.getByText(name).nextElementSibling?.textContent);

describe('/{phone}/{userId}/approved (issue 30: the lender approved)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
    applicationState.clear();
  });

  it('celebrates with the final amount, the term and the yearly rate, and says the signing SMS is on its way', async () => {
    const calls = stubApi(() => undefined);
    applicationState.set({
      user_id: USER,
      next_step: 'APPROVED',
      status: 'IN_PROGRESS',
      phone: PHONE,
      lender_approval: approval,
    });
    renderAt(`/${PHONE}/${USER}/approved`);

    expect(await screen.findByRole('heading', { level: 1, name: '¡Tu crédito fue aprobado!' })).toBeTruthy();
    expect(screen.getByText('Felicidades, ya revisamos tu solicitud. Tu crédito es de:')).toBeTruthy();
    expect(plain(document.querySelector('.amount')?.textContent)).toMatch(/^\D*45,000 DOP$/);
    expect(document.querySelector('dl')?.getAttribute('aria-label')).toBe('Condiciones de tu crédito');
    expect(termOf('Plazo')).toBe('12 meses');
    expect(termOf('Tasa de interés anual')).toMatch(/^36\.5\s?%$/);
    expect(plain(screen.getByText(/Te enviamos un SMS al/).textContent)).toBe(
      'Te enviamos un SMS al +1 809 555 1234 con el enlace para firmar tu contrato. Puede tardar unos minutos en llegar.',
    );
    expect(screen.getByText('Si no te llega, escríbele a un asesor y te ayudamos.')).toBeTruthy();
    const chat = screen.getByRole('link', { name: 'Escribir a un asesor' }) as HTMLAnchorElement;
    expect(new URL(chat.href).searchParams.get('text')).toBe(
      'Hola, mi crédito fue aprobado y no me llegó el SMS para firmar el contrato.',
    );
    // What the tab knew was enough: nothing asked.
    expect(calls).toEqual([]);
  });

  it('one month is "1 mes"; a Mexican approval is written in pesos', async () => {
    stubApi(() => undefined);
    applicationState.set({
      user_id: USER,
      next_step: 'APPROVED',
      status: 'IN_PROGRESS',
      phone: '5512345678',
      lender_approval: { ...approval, amount: 10_000, currency: 'MXN', term_months: 1 },
    });
    renderAt(`/5512345678/${USER}/approved`, createPublicConfig('mx'));
    await screen.findByText('Plazo');
    expect(termOf('Plazo')).toBe('1 mes');
    expect(plain(document.querySelector('.amount')?.textContent)).toBe('$10,000 MXN');
  });

  it('opened by its link (a cold tab with a session): the step guard’s one user fetch brings the amount', async () => {
    const body = btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    sessionStorage.setItem('clientToken', `Bearer ${body}.firma`);
    sessionStorage.setItem('proven_phone', PHONE);
    const calls = stubApi(({ url }) =>
      url === `/api/v1/users/${USER}/SK` ? json(200, { data: detail('APPROVED', approval) }) : undefined,
    );
    renderAt(`/${PHONE}/${USER}/approved`);
    expect(await screen.findByText('Plazo')).toBeTruthy();
    expect(plain(document.querySelector('.amount')?.textContent)).toMatch(/^\D*45,000 DOP$/);
    expect(calls.map((call) => call.url)).toEqual([`/api/v1/users/${USER}/SK`]);
  });

  it('reached from a lookup that carried no terms: asks for them once', async () => {
    const calls = stubApi(({ url }) =>
      url === `/api/v1/users/${USER}/SK` ? json(200, { data: detail('APPROVED', approval) }) : undefined,
    );
    applicationState.set({ user_id: USER, next_step: 'APPROVED', status: 'IN_PROGRESS', phone: PHONE });
    renderAt(`/${PHONE}/${USER}/approved`);
    expect(await screen.findByText('Plazo')).toBeTruthy();
    expect(calls).toHaveLength(1);
  });

  it('an application the lender has not decided on goes where it stands', async () => {
    stubApi(() => undefined);
    applicationState.set({ user_id: USER, next_step: 'PENDING_APPROVAL', status: 'IN_PROGRESS', phone: PHONE });
    renderAt(`/${PHONE}/${USER}/approved`);
    expect((await screen.findByTestId('where')).textContent).toBe(`/${PHONE}/${USER}/download`);
    expect(screen.queryByRole('heading', { name: '¡Tu crédito fue aprobado!' })).toBeNull();
  });
});

/** GET /users/:id/SK's answer at `next_step` (IN_PROGRESS). */
function detail(next_step: string, lender_approval: typeof approval | null) {
  return {
    user_id: USER,
    id: USER,
    user_type: 'SK',
    next_step,
    status: 'IN_PROGRESS',
    request: { next_step, status: 'IN_PROGRESS', welcome_screen_number: 1 },
    avals: [],
    phone_number: PHONE,
    tax_id_suggestion: null,
    pre_approval: { amount: 10_000, currency: 'DOP' },
    lender_approval,
  };
}
