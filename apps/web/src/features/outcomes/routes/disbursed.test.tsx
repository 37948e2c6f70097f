import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applicationState } from '../../../shared/lib/application-state.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { stubApi, Where } from '../../../test/fetch-stub.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import { DisbursedRoute } from './disbursed.js';

const PHONE = '8095551234';
const USER = 'u-9';
const approval = {
  amount: 45_000,
  currency: 'DOP',
  term_months: 12,
  annual_rate: 36,
  decided_at: '2025-03-02T15:00:00Z',
};

const renderAt = (url: string) =>
  renderScreenAt(
    url,
    <>
      <Route path="/:phoneNumber/:userId/disbursed" element={<DisbursedRoute />} />
      <Route path="*" element={<Where />} />
    </>,
  );

describe('/{phone}/{userId}/disbursed (issue 30: the money went out)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
    applicationState.clear();
  });

  it('says the credit was disbursed, with its amount, and points to the app', async () => {
    stubApi(() => undefined);
    applicationState.set({
      user_id: USER,
      next_step: 'DISBURSED',
      status: 'IN_PROGRESS',
      phone: PHONE,
      lender_approval: approval,
    });
    renderAt(`/${PHONE}/${USER}/disbursed`);

    expect(await screen.findByRole('heading', { level: 1, name: '¡Ya tienes tu crédito!' })).toBeTruthy();
    expect(screen.getByText('Ya desembolsamos tu crédito de:')).toBeTruthy();
    expect((document.querySelector('.amount')?.textContent ?? '').replace(/\u00a0/g, ' ')).toMatch(/^\D*45,000 DOP$/);
    expect(screen.getByText('Descarga la app para ver tu crédito, surtir tu colmado y hacer tus pagos.')).toBeTruthy();
    const store = screen.getByRole('link', { name: 'Descargar la app' }) as HTMLAnchorElement;
    expect(store.href).toBe('https://store.example/');
    expect(store.target).toBe('_blank');
  });

  it('without the terms on record it still says so, with no amount', async () => {
    stubApi(() => undefined);
    applicationState.set({
      user_id: USER,
      next_step: 'DISBURSED',
      status: 'IN_PROGRESS',
      phone: PHONE,
      lender_approval: null,
    });
    renderAt(`/${PHONE}/${USER}/disbursed`);
    expect(await screen.findByText('Ya desembolsamos tu crédito.')).toBeTruthy();
    expect(document.querySelector('.amount')).toBeNull();
  });

  it('an approved credit not yet disbursed goes where it stands', async () => {
    stubApi(() => undefined);
    applicationState.set({ user_id: USER, next_step: 'APPROVED', status: 'IN_PROGRESS', phone: PHONE });
    renderAt(`/${PHONE}/${USER}/disbursed`);
    expect((await screen.findByTestId('where')).textContent).toBe(`/${PHONE}/${USER}/approved`);
  });
});
