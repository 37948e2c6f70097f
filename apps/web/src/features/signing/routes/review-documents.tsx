import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { Countdown } from '../../../shared/ui/countdown.js';
import { Page } from '../../../shared/ui/page.js';
import { getVerificationStatus } from '../api/signing.js';
import { s } from '../lib/copy.js';
import { REVIEW_COUNTDOWN_SECONDS, formatMinutes, isPollDue } from '../lib/review-schedule.js';
import { contractToken, reviewPrefix, useSigner, verificationTypeOf } from '../lib/signer-route.js';

/**
 * …/review-documents (SPEC §2.4, §4): a 5:00 countdown while the verifier answers. The answer is
 * asked only at 270, 240, … 30 s left; APPROVED, REJECTED and UNDER_REVIEW each have their screen,
 * and 0:00 without one goes to /something-happened.
 */
export function ReviewDocumentsRoute({ next }: NextProps) {
  const signer = useSigner();
  const [query] = useSearchParams();
  const verificationType = verificationTypeOf(query.get('verification_type'));
  const navigate = useNavigate();
  usePrefetch(next);
  const secondsLeft = useRef(REVIEW_COUNTDOWN_SECONDS);
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

  const poll = async () => {
    try {
      const { status } = await getVerificationStatus(
        signer,
        { verificationType, personType: signer.personType },
        contractToken.get(),
      );
      const prefix = reviewPrefix(signer);
      if (status === 'APPROVED') leave(`${prefix}/approved-documents`);
      else if (status === 'REJECTED') leave(`${prefix}/error-documents?verification_type=${verificationType}`);
      else if (status === 'UNDER_REVIEW') leave(`${prefix}/manual-verification`);
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
            seconds={REVIEW_COUNTDOWN_SECONDS}
            format={formatMinutes}
            onTick={onTick}
            onDone={() => leave('/something-happened')}
          />
        </p>
        <span className="spinner" aria-hidden="true" />
        <p className="page-subtitle">{s('review.text')}</p>
      </div>
    </Page>
  );
}
