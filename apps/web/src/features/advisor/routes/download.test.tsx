import { act, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applicationState } from '../../../shared/lib/application-state.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { json, stubApi, Where } from '../../../test/fetch-stub.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import { DownloadRoute } from './download.js';

const PHONE = '8095551234';
const USER = 'u-3';
const DETAIL = `/api/v1/users/${USER}/SK`;
const approval = {
  amount: 45_000,
  currency: 'DOP',
  term_months: 12,
  annual_rate: 36,
  decided_at: '2025-03-02T15:00:00Z',
};

/** GET /users/:id/SK's answer at `next_step`/`status`. */
const detail = (next_step: string, status = 'IN_PROGRESS') =>
  json(200, {
    data: {
      user_id: USER,
      id: USER,
      user_type: 'SK',
      next_step,
      status,
      request: { next_step, status, welcome_screen_number: 1 },
      avals: [],
      phone_number: PHONE,
      tax_id_suggestion: null,
      pre_approval: { amount: 10_000, currency: 'DOP' },
      lender_approval: next_step === 'APPROVED' ? approval : null,
    },
  });

/** Lets the fake clock run and the answers it released arrive. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

let visibility: DocumentVisibilityState = 'visible';
const setVisibility = (state: DocumentVisibilityState) => {
  visibility = state;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
};

/** The download screen of an application at `next_step` (this tab knows it); elsewhere, where the router is. */
function openAt(next_step: 'PENDING_APPROVAL' | 'INVENTORY', answer: (poll: number) => Response | undefined) {
  let polls = 0;
  const calls = stubApi((call) => {
    if (call.url !== DETAIL) return undefined;
    polls += 1;
    return answer(polls);
  });
  applicationState.set({ user_id: USER, next_step, status: 'IN_PROGRESS', phone: PHONE });
  renderScreenAt(
    `/${PHONE}/${USER}/download`,
    <>
      <Route path="/:phoneNumber/:userId/download" element={<DownloadRoute />} />
      <Route path="*" element={<Where />} />
    </>,
  );
  return { polls: () => polls, calls };
}

describe('/{phone}/{userId}/download while the lender decides (issue 30)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    uiState.reset();
    applicationState.clear();
    delete (document as { visibilityState?: unknown }).visibilityState;
  });

  it('says the application is in review and the screen updates by itself, and keeps the app link', async () => {
    openAt('PENDING_APPROVAL', () => detail('PENDING_APPROVAL'));
    await advance(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Tu solicitud está en revisión' })).toBeTruthy();
    expect(
      screen.getByText(
        'Nuestro equipo de crédito está revisando tu solicitud. Cuando tengamos una respuesta, esta pantalla se actualizará sola: no tienes que hacer nada.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Esperando la respuesta…');
    expect((screen.getByRole('link', { name: 'Descargar la app' }) as HTMLAnchorElement).href).toBe(
      'https://store.example/',
    );
  });

  it('asks every 15 s and, once the lender approved, replaces itself with /approved', async () => {
    let answer = 'PENDING_APPROVAL';
    const { polls } = openAt('PENDING_APPROVAL', () => detail(answer));
    await advance(0);
    expect(polls()).toBe(0);
    await advance(14_999);
    expect(polls()).toBe(0);
    await advance(1);
    expect(polls()).toBe(1);
    await advance(15_000 * 3);
    expect(polls()).toBe(4);
    expect(screen.getByRole('heading', { name: 'Tu solicitud está en revisión' })).toBeTruthy();

    answer = 'APPROVED';
    await advance(15_000);
    expect(polls()).toBe(5);
    expect(screen.getByTestId('where').textContent).toBe(`/${PHONE}/${USER}/approved`);
    // The answer is the tab's state: the approved screen has the terms without asking again.
    expect(applicationState.get(USER)).toMatchObject({ next_step: 'APPROVED', lender_approval: approval });
    await advance(60_000);
    expect(polls()).toBe(5);
  });

  it('a decline goes to /declined (routing of SPEC §2.2, replace)', async () => {
    openAt('PENDING_APPROVAL', () => detail('PENDING_APPROVAL', 'REJECTED'));
    await advance(15_000);
    expect(screen.getByTestId('where').textContent).toBe(`/${PHONE}/${USER}/declined`);
  });

  it('asks nothing while the page is hidden; coming back asks at once', async () => {
    const { polls } = openAt('PENDING_APPROVAL', () => detail('PENDING_APPROVAL'));
    await advance(0);
    setVisibility('hidden');
    await advance(10 * 60_000);
    expect(polls()).toBe(0);

    setVisibility('visible');
    await advance(0);
    expect(polls()).toBe(1);
    await advance(15_000);
    expect(polls()).toBe(2);
  });

  it('asks nothing when the application is not with the lender', async () => {
    const { calls } = openAt('INVENTORY', () => detail('INVENTORY'));
    await advance(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Descarga la app' })).toBeTruthy();
    expect(screen.queryByText(/esta pantalla se actualizará sola/)).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    await advance(10 * 60_000);
    expect(calls).toEqual([]);
  });

  it('an ended session stops the questions and says so (its modal proves the number again)', async () => {
    const body = btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    sessionStorage.setItem('clientToken', `Bearer ${body}.firma`);
    sessionStorage.setItem('proven_phone', PHONE);
    const { polls } = openAt('PENDING_APPROVAL', () =>
      json(401, { code: 'UNAUTHENTICATED', message: 'x', readable_message: 'Tu sesión terminó.' }),
    );
    await advance(15_000);
    expect(uiState.get().error).toMatchObject({ message: 'Tu sesión terminó.', goTo: `/home/${PHONE}/verify` });
    await advance(10 * 60_000);
    expect(polls()).toBe(1);
  });

  it("waits out a 429's Retry-After, and stops after 30 questions in a row without an answer", async () => {
    const { polls } = openAt('PENDING_APPROVAL', (poll) => {
      if (poll === 1)
        return json(429, { code: 'RATE_LIMITED', message: 'x', readable_message: 'x', retry_after_seconds: 60 });
      throw new TypeError('Failed to fetch');
    });
    await advance(15_000);
    expect(polls()).toBe(1);
    await advance(59_000);
    expect(polls()).toBe(1);
    await advance(1_000);
    expect(polls()).toBe(2);
    await advance(60 * 60_000);
    expect(polls()).toBe(30);
    // Nothing of it is the shopkeeper's to handle: no modal.
    expect(uiState.get().error).toBeNull();
  });
});
