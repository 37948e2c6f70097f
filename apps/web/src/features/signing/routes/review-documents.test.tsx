import { act, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN, USER_ID, envelope, json, renderRoutes, stubApi } from '../testing.js';
import { ReviewDocumentsRoute } from './review-documents.js';

const PREFIX = `/SK/${USER_ID}/${encodeURIComponent('Juana Gómez')}/collateral/${encodeURIComponent('Ramón Pérez')}`;
const STATUS_URL = `/api/v1/users/SK/${USER_ID}/mati-status`;
const where = () => screen.getByTestId('where').textContent;
const timer = () => screen.getByRole('timer').textContent;
/** Lets the fake clock run and the answers it released arrive. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

type Status = 'APPROVED' | 'REJECTED' | 'UNDER_REVIEW' | null;

/** mati-status answers from `answers` in turn (the last one repeats); a Response is sent as is. */
function stubStatus(...answers: (Status | Response)[]) {
  let polls = 0;
  return stubApi((call) => {
    if (!call.url.startsWith(STATUS_URL)) return undefined;
    const answer = answers[Math.min(polls, answers.length - 1)] ?? null;
    polls += 1;
    return answer instanceof Response
      ? answer
      : json(200, { data: { status: answer, verifications_left: 2, mati_identity_id: null } });
  });
}

function open(verificationType = 'VERIFICATION') {
  renderRoutes(
    `${PREFIX}/review-documents?verification_type=${verificationType}`,
    <Route
      path="/:userTypeId/:userId/:titularFullName/:personType/:collateralFullName/review-documents"
      element={<ReviewDocumentsRoute />}
    />,
  );
}

describe('…/review-documents (SPEC §2.4, §4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStorage.setItem('contract_token', TOKEN);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('counts down from 5:00 and asks exactly at 270, 240, … 30 s left; 0:00 without an answer is /something-happened', async () => {
    const calls = stubStatus(null);
    const polls = () => calls.filter((call) => call.url.startsWith(STATUS_URL)).length;
    open();
    expect(screen.getByRole('heading', { level: 1, name: 'Revisando tus documentos' })).toBeTruthy();
    expect(screen.getByText('Espera un momento, estamos revisando tus documentos')).toBeTruthy();
    expect(timer()).toBe('5:00');

    await advance(29_000);
    expect(timer()).toBe('4:31');
    expect(polls()).toBe(0);
    await advance(1_000);
    expect(timer()).toBe('4:30');
    expect(polls()).toBe(1);
    expect(calls[0]).toMatchObject({
      method: 'GET',
      url: `${STATUS_URL}?verification_type=VERIFICATION&person_type=collateral`,
      authorization: `Bearer ${TOKEN}`,
    });

    for (let poll = 2; poll <= 9; poll += 1) {
      await advance(29_750);
      expect(polls()).toBe(poll - 1);
      await advance(250);
      expect(polls()).toBe(poll);
    }
    expect(timer()).toBe('0:30');
    await advance(29_750);
    expect(where()).toBe(`${PREFIX}/review-documents?verification_type=VERIFICATION`);
    await advance(250);
    expect(where()).toBe('/something-happened');
    expect(polls()).toBe(9);
  });

  it('APPROVED: …/approved-documents', async () => {
    stubStatus('APPROVED');
    open();
    await advance(30_000);
    expect(where()).toBe(`${PREFIX}/approved-documents`);
  });

  it('REJECTED: …/error-documents, keeping the verification type', async () => {
    const calls = stubStatus(null, 'REJECTED');
    open('REVERIFICATION');
    await advance(60_000);
    expect(where()).toBe(`${PREFIX}/error-documents?verification_type=REVERIFICATION`);
    expect(calls.at(-1)!.url).toBe(`${STATUS_URL}?verification_type=REVERIFICATION&person_type=collateral`);
  });

  it('UNDER_REVIEW: …/manual-verification', async () => {
    stubStatus('UNDER_REVIEW');
    open();
    await advance(30_000);
    expect(where()).toBe(`${PREFIX}/manual-verification`);
  });

  it('a failed status fetch is no answer: the countdown goes on and the next poll counts', async () => {
    const calls = stubStatus(envelope(500, 'INTERNAL', 'boom', 'Algo salió mal.'), 'APPROVED');
    open();
    await advance(30_000);
    expect(where()).toBe(`${PREFIX}/review-documents?verification_type=VERIFICATION`);
    expect(timer()).toBe('4:30');
    await advance(30_000);
    expect(where()).toBe(`${PREFIX}/approved-documents`);
    expect(calls.filter((call) => call.url.startsWith(STATUS_URL))).toHaveLength(2);
  });

  it('a clock that jumps (a sleeping phone) asks once, not once per missed point', async () => {
    const calls = stubStatus(null);
    open();
    await act(async () => {
      vi.setSystemTime(Date.now() + 95_000);
      await vi.advanceTimersByTimeAsync(250);
    });
    expect(timer()).toBe('3:25');
    expect(calls.filter((call) => call.url.startsWith(STATUS_URL))).toHaveLength(1);
  });
});
