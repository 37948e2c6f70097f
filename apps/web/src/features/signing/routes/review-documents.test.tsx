import { act, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubApi } from '../../../test/fetch-stub.js';
import { TOKEN, USER_ID, envelope, renderRoutes } from '../../../test/signing.js';
import { ReviewDocumentsRoute } from './review-documents.js';

const PREFIX = `/SK/${USER_ID}/${encodeURIComponent('Juana Gómez')}/collateral/${encodeURIComponent('Ramón Pérez')}`;
const STATUS_URL = `/api/v1/users/SK/${USER_ID}/mati-status`;
const where = () => screen.getByTestId('where').textContent;
const timer = () => screen.getByRole('timer').textContent;
/** Lets the fake clock run and the answers it released arrive. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

type Status = 'APPROVED' | 'REJECTED' | 'UNDER_REVIEW' | null;

const answer = (status: Status, extra: Record<string, unknown> = {}) =>
  json(200, {
    data: {
      status,
      verifications_left: 2,
      mati_identity_id: null,
      verification_id: 'check-2',
      review_seconds_left: 300,
      ...extra,
    },
  });
/** A request the server holds (…&wait=N with N > 0) rather than one of the SPEC's scheduled checks. */
const waits = (url: string) => /[?&]wait=[1-9]/.test(url);
const arrives = (url: string) => /[?&]wait=0/.test(url);

/**
 * mati-status: the SPEC §4 checks answered from `answers` in turn (the last one repeats; a
 * Response is sent as is); the check on arrival by `arrival`; the held requests by `held` (by
 * default the server holds them past the test).
 */
function stubStatus(...answers: (Status | Response)[]) {
  return stubServer({ scheduled: answers });
}
function stubServer({
  scheduled = [null],
  arrival = () => answer(null),
  held = () => new Promise<Response>(() => {}),
}: {
  scheduled?: (Status | Response)[];
  arrival?: () => Response;
  held?: () => Response | Promise<Response>;
}) {
  let polls = 0;
  return stubApi((call) => {
    if (!call.url.startsWith(STATUS_URL)) return undefined;
    if (arrives(call.url)) return arrival();
    if (waits(call.url)) return held();
    const next = scheduled[Math.min(polls, scheduled.length - 1)] ?? null;
    polls += 1;
    return next instanceof Response ? next : answer(next);
  });
}
/** The SPEC §4 checks among the calls (not the one on arrival, not the held ones). */
const scheduledOf = (calls: { url: string }[]) =>
  calls.filter((call) => call.url.startsWith(STATUS_URL) && !waits(call.url) && !arrives(call.url));

function open(verificationType = 'VERIFICATION', state?: unknown) {
  return renderRoutes(
    { pathname: `${PREFIX}/review-documents`, search: `?verification_type=${verificationType}`, state },
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

  it('counts down from 5:00 and asks exactly at 270, 240, … 30 s left; 0:00 without an answer is /something-happened (a guarantor’s)', async () => {
    const calls = stubStatus(null);
    const polls = () => scheduledOf(calls).length;
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
    expect(scheduledOf(calls)[0]).toMatchObject({
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
    // A guarantor's (this signer's) /something-happened tells them to contact the person they guarantee.
    expect(where()).toBe('/something-happened?person_type=collateral');
    expect(polls()).toBe(9);
  });

  it.each([
    ['APPROVED', 'approved-documents'],
    ['UNDER_REVIEW', 'manual-verification'],
  ] as const)('%s: …/%s', async (status, page) => {
    stubStatus(status);
    open();
    await advance(30_000);
    expect(where()).toBe(`${PREFIX}/${page}`);
  });

  it('REJECTED: …/error-documents, keeping the verification type', async () => {
    const calls = stubStatus(null, 'REJECTED');
    open('REVERIFICATION');
    await advance(60_000);
    expect(where()).toBe(`${PREFIX}/error-documents?verification_type=REVERIFICATION`);
    expect(scheduledOf(calls).at(-1)!.url).toBe(
      `${STATUS_URL}?verification_type=REVERIFICATION&person_type=collateral`,
    );
  });

  it('a failed status fetch is no answer: the countdown goes on and the next poll counts', async () => {
    const calls = stubStatus(envelope(500, 'INTERNAL', 'boom', 'Algo salió mal.'), 'APPROVED');
    open();
    await advance(30_000);
    expect(where()).toBe(`${PREFIX}/review-documents?verification_type=VERIFICATION`);
    expect(timer()).toBe('4:30');
    await advance(30_000);
    expect(where()).toBe(`${PREFIX}/approved-documents`);
    expect(scheduledOf(calls)).toHaveLength(2);
  });

  it('a clock that jumps (a sleeping phone) asks once, not once per missed point', async () => {
    const calls = stubStatus(null);
    open();
    await act(async () => {
      vi.setSystemTime(Date.now() + 95_000);
      await vi.advanceTimersByTimeAsync(250);
    });
    expect(timer()).toBe('3:25');
    expect(scheduledOf(calls)).toHaveLength(1);
  });

  it('issue 27: the answer shows as soon as the server has it, through the request it holds', async () => {
    let release: (response: Response) => void = () => {};
    const calls = stubServer({ held: () => new Promise<Response>((resolve) => (release = resolve)) });
    open();
    await advance(0);
    const held = calls.filter((call) => waits(call.url));
    expect(held).toHaveLength(1);
    expect(held[0]!.url).toBe(`${STATUS_URL}?verification_type=VERIFICATION&person_type=collateral&wait=20`);
    await advance(3_000);
    expect(where()).toBe(`${PREFIX}/review-documents?verification_type=VERIFICATION`);
    await act(async () => release(answer('APPROVED')));
    expect(where()).toBe(`${PREFIX}/approved-documents`);
    expect(scheduledOf(calls)).toHaveLength(0);
  });

  it('issue 27: leaving the screen lets go of the request it holds', async () => {
    const calls = stubServer({});
    const screenShown = open();
    await advance(0);
    const held = calls.filter((call) => waits(call.url));
    expect(held).toHaveLength(1);
    expect(held[0]!.signal?.aborted).toBe(false);
    screenShown.unmount();
    expect(held[0]!.signal?.aborted).toBe(true);
  });

  it('issue 27: the answer of the check before this one does not count; the held requests go on', async () => {
    let held = 0;
    const calls = stubServer({
      arrival: () => answer('REJECTED', { verification_id: 'check-1', review_seconds_left: 0 }),
      held: () => (++held === 1 ? answer('REJECTED', { verification_id: 'check-1' }) : answer('APPROVED')),
    });
    open('VERIFICATION', { review: { deadline: Date.now() + 300_000, previous: 'check-1' } });
    await advance(0);
    expect(where()).toBe(`${PREFIX}/review-documents?verification_type=VERIFICATION`);
    expect(timer()).toBe('5:00');
    // Held again after a pause (an answer that came back at once must not make a loop of requests).
    await advance(2_000);
    expect(where()).toBe(`${PREFIX}/approved-documents`);
    expect(calls.filter((call) => waits(call.url)).every((call) => call.url.endsWith('&previous=check-1'))).toBe(true);
  });

  it('issue 27: the countdown is the server’s (a reload goes on where it was)', async () => {
    stubServer({ arrival: () => answer(null, { review_seconds_left: 200 }) });
    // A reload: the history entry keeps the deadline the screen had.
    open('VERIFICATION', { review: { deadline: Date.now() + 201_000, previous: null } });
    expect(timer()).toBe('3:21');
    await advance(0);
    expect(timer()).toBe('3:21');
    await advance(2_000);
    expect(timer()).toBe('3:19');
  });

  it('issue 27: opened without a deadline, the server’s replaces the 5:00', async () => {
    stubServer({ arrival: () => answer(null, { review_seconds_left: 120 }) });
    open();
    expect(timer()).toBe('5:00');
    await advance(0);
    expect(timer()).toBe('2:00');
  });
});
