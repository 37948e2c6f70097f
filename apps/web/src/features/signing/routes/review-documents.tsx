import { STATUS_WAIT_MAX_SECONDS, type VerificationStatusAnswer } from '@provee/domain';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { Countdown } from '../../../shared/ui/countdown.js';
import { Page } from '../../../shared/ui/page.js';
import { getVerificationStatus } from '../api/signing.js';
import { s } from '../lib/copy.js';
import {
  REVIEW_COUNTDOWN_SECONDS,
  arrivalOf,
  formatMinutes,
  isPollDue,
  secondsUntil,
  type ReviewArrival,
} from '../lib/review-schedule.js';
import { contractToken, isCollateral, reviewPrefix, useSigner, verificationTypeOf } from '../lib/signer-route.js';

/** Pause before asking again after a failed request: 2, 4, 8… 30 s. */
const pauseAfter = (failures: number) => Math.min(30_000, 1000 * 2 ** failures);
/** A held request that came back at once without an answer (a server stopping, a proxy): a pause before the next. */
const QUICK_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * …/review-documents (SPEC §2.4, §4): a 5:00 countdown while the verifier answers. APPROVED,
 * REJECTED and UNDER_REVIEW each have their screen, and 0:00 without one goes to
 * /something-happened (which tells a guarantor to contact the person they guarantee:
 * ?person_type=collateral). The answer is asked at 270, 240, … 30 s left (SPEC §4), and, since
 * issue 27, also by a request the server holds until it has the answer: the screen moves on as
 * soon as the server knows. The countdown is the server's (300 s from the check's start), so a
 * reload goes on where it was; an answer of the check before this one does not count.
 */
export function ReviewDocumentsRoute({ next }: NextProps) {
  const signer = useSigner();
  const [query] = useSearchParams();
  const location = useLocation();
  const verificationType = verificationTypeOf(query.get('verification_type'));
  const navigate = useNavigate();
  usePrefetch(next);
  const [arrival] = useState<ReviewArrival | null>(() => arrivalOf(location.state));
  const previous = arrival?.previous ?? null;
  // Re-keyed when the server's deadline differs from the one this screen started with.
  const [countdown, setCountdown] = useState(() => ({
    seconds: arrival ? secondsUntil(arrival.deadline) : REVIEW_COUNTDOWN_SECONDS,
    key: 0,
  }));
  const secondsLeft = useRef(countdown.seconds);
  const active = useRef(false);
  /** SPEC §8: the status fetch's errors are kept (for a look in the debugger), the countdown goes on. */
  const lastError = useRef<unknown>(null);

  useEffect(() => {
    active.current = true;
    return () => {
      active.current = false;
    };
  }, []);

  /** Leaves once: a late answer after the move (or after leaving) is ignored. */
  const leave = (to: string) => {
    if (!active.current) return;
    active.current = false;
    navigate(to, { replace: true });
  };

  /** The answer's screen, if it is an answer of the check this screen waits for. */
  const settle = (answer: VerificationStatusAnswer) => {
    if (answer.status === null || (previous !== null && answer.verification_id === previous)) return false;
    const prefix = reviewPrefix(signer);
    if (answer.status === 'APPROVED') leave(`${prefix}/approved-documents`);
    else if (answer.status === 'REJECTED') leave(`${prefix}/error-documents?verification_type=${verificationType}`);
    else leave(`${prefix}/manual-verification`);
    return true;
  };

  const ask = (wait?: number, signal?: AbortSignal) =>
    getVerificationStatus(
      signer,
      { verificationType, personType: signer.personType, wait, previous },
      contractToken.get(),
      signal,
    );

  /** The server's countdown, kept in this history entry for a reload. */
  const adoptDeadline = (answer: VerificationStatusAnswer) => {
    const left = answer.review_seconds_left;
    if (typeof left !== 'number' || (previous !== null && answer.verification_id === previous)) return;
    const review: ReviewArrival = { deadline: Date.now() + left * 1000, previous };
    navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: { review } });
    if (Math.abs(left - secondsLeft.current) < 2) return;
    secondsLeft.current = left;
    setCountdown((current) => ({ seconds: left, key: current.key + 1 }));
  };

  const watch = useEffectEvent(async (isLive: () => boolean, signal: AbortSignal) => {
    let failures = 0;
    for (let first = true; isLive() && active.current;) {
      const asked = Date.now();
      try {
        const answer = await ask(first ? 0 : STATUS_WAIT_MAX_SECONDS, signal);
        if (!isLive()) return;
        if (first) adoptDeadline(answer);
        failures = 0;
        if (settle(answer)) return;
        if (!first && Date.now() - asked < QUICK_MS) await sleep(2 * QUICK_MS);
        first = false;
      } catch (error) {
        lastError.current = error;
        failures += 1;
        await sleep(pauseAfter(failures));
      }
    }
  });

  useEffect(() => {
    let live = true;
    // Leaving the screen lets go of the held request (no connection kept open for nothing).
    const gone = new AbortController();
    void watch(() => live, gone.signal);
    return () => {
      live = false;
      gone.abort();
    };
  }, []);

  const poll = async () => {
    try {
      settle(await ask());
    } catch (error) {
      lastError.current = error;
    }
  };

  const onTick = (left: number) => {
    const before = secondsLeft.current;
    secondsLeft.current = left;
    if (active.current && isPollDue(before, left)) void poll();
  };

  return (
    <Page title={s('review.title')} heading={s('review.title')}>
      <div className="review" role="status">
        <p className="review-timer">
          <span className="visually-hidden">{s('review.timer')}: </span>
          <Countdown
            key={countdown.key}
            seconds={countdown.seconds}
            format={formatMinutes}
            onTick={onTick}
            onDone={() =>
              leave(
                isCollateral(signer.personType) ? '/something-happened?person_type=collateral' : '/something-happened',
              )
            }
          />
        </p>
        <span className="spinner" aria-hidden="true" />
        <p className="page-subtitle">{s('review.text')}</p>
      </div>
    </Page>
  );
}
