import { hasAttemptsLeft, verificationTypeAfter } from '@provee/domain';
import { startTransition, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import {
  contractDocumentUrl,
  getSigningLink,
  isAlreadySigned,
  isLinkRefused,
  isLinkRefusedOnLoad,
  isOutOfAttempts,
  type SigningLink,
} from '../api/signing.js';
import { missingPhotos, submitIdentityCheck } from '../api/identity-photos.js';
import { IdentityCapture } from '../components/identity-capture.js';
import { MetamapButton } from '../components/metamap-button.js';
import { SigningNoticeModal, SigningSupportLink, type SigningNotice } from '../components/support.js';
import { s } from '../lib/copy.js';
import type { Hashes } from '../lib/photo-queue.js';
import { reviewArrival } from '../lib/review-schedule.js';
import {
  contractDocument,
  contractToken,
  reviewDocumentsPath,
  reviewPrefix,
  signingPath,
  type Signer,
} from '../lib/signer-route.js';

/** 'signed': the server answers a signed signer's link with 'user not in progress'. */
type Load =
  | { kind: 'loading' }
  | { kind: 'refused' }
  | { kind: 'signed' }
  | { kind: 'failed' }
  | { kind: 'ready'; link: SigningLink };

const signerOf = (link: SigningLink): Signer => ({
  userTypeId: link.user_type_id,
  userId: link.user_id,
  titularFullName: link.titular_full_name,
  personType: link.person_type,
  collateralFullName: link.collateral_full_name,
});

/**
 * /send-contract-sign (SPEC §2.4), opened from the signing link's SMS: the contract to read and
 * the identity check that comes before the signature. The link's token is kept in this tab's
 * session and taken out of the address, so it stays out of the history (a reload still works).
 */
export function SendContractSignRoute({ next }: NextProps) {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  usePrefetch(next);
  const [arrival] = useState(() => ({
    token: query.get('token') ?? contractToken.get(),
    userTypeId: query.get('user_type_id') ?? '',
    userId: query.get('user_id') ?? '',
  }));
  const { token, userTypeId, userId } = arrival;
  const [load, setLoad] = useState<Load>(() =>
    token && userTypeId && userId ? { kind: 'loading' } : { kind: 'refused' },
  );
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<SigningNotice | null>(() => (load.kind === 'refused' ? 'refused' : null));
  const [verifyAgain, setVerifyAgain] = useState(false);

  useEffect(() => {
    const fromLink = query.get('token');
    if (!fromLink) return;
    contractToken.set(fromLink);
    const rest = new URLSearchParams(query);
    rest.delete('token');
    navigate({ search: `?${rest.toString()}` }, { replace: true });
  }, [query, navigate]);

  useEffect(() => {
    if (!token || !userTypeId || !userId) return;
    let live = true;
    getSigningLink({ userTypeId, userId }, token).then(
      (link) => {
        if (!live) return;
        if (link.document_sha256) contractDocument.set(link.document_sha256);
        // The widget's first render in slices (a transition): no long task on a slow phone (issue 27's TBT).
        startTransition(() => {
          setLoad({ kind: 'ready', link });
          if (link.state === 'SIGNED') setNotice('signed');
        });
      },
      (error: unknown) => {
        if (!live) return;
        if (isAlreadySigned(error)) {
          setLoad({ kind: 'signed' });
          setNotice('signed');
        } else if (isLinkRefusedOnLoad(error)) {
          setLoad({ kind: 'refused' });
          setNotice('refused');
        } else {
          setLoad({ kind: 'failed' });
          uiState.showError(error);
        }
      },
    );
    return () => {
      live = false;
    };
  }, [token, userTypeId, userId, attempt]);

  // Documents with a person at the lender: nothing to send now, the review screen says so.
  const underReview = load.kind === 'ready' && load.link.state === 'UNDER_REVIEW' ? load.link : null;
  useEffect(() => {
    if (underReview) navigate(`${reviewPrefix(signerOf(underReview))}/manual-verification`, { replace: true });
  }, [underReview, navigate]);

  const modals = <SigningNoticeModal notice={notice} onClose={() => setNotice(null)} />;

  if (load.kind !== 'ready') {
    return (
      <Page title={s('sign.title')} heading={s('sign.title')}>
        <p className="page-subtitle">{s('sign.text')}</p>
        {load.kind === 'refused' && (
          <>
            <p className="notice">{s('link.text')}</p>
            <SigningSupportLink text={s('link.chat')} />
          </>
        )}
        {load.kind === 'signed' && (
          <>
            {/* The signed contract stays readable with a used link. */}
            <a
              className="btn btn-secondary"
              href={contractDocumentUrl({ userTypeId, userId }, token)}
              target="_blank"
              rel="noopener"
            >
              {s('sign.viewContract')}
            </a>
            <p className="notice">{s('signed.text')}</p>
          </>
        )}
        {load.kind === 'failed' && (
          <Button
            variant="secondary"
            onClick={() => {
              setLoad({ kind: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            {s('sign.retryLoad')}
          </Button>
        )}
        {modals}
      </Page>
    );
  }

  const { link } = load;
  const signer = signerOf(link);
  const ref = { userTypeId: link.user_type_id, userId: link.user_id };
  // SPEC §5: a new check after an approval is a re-verification.
  const verificationType = verificationTypeAfter(link.verification.status);
  const attemptsLeft = hasAttemptsLeft(link.verification.verifications_left);
  // The review screen waits for a newer check than the one the link showed (issue 27), its
  // countdown from now unless the server says otherwise.
  const toReview = () =>
    navigate(reviewDocumentsPath(signer, verificationType), {
      replace: true,
      state: reviewArrival(link.verification.verification_id),
    });

  const refused = (error: unknown) => {
    if (isAlreadySigned(error)) setNotice('signed');
    else if (isLinkRefused(error)) setNotice('refused');
    else if (isOutOfAttempts(error)) setNotice('attempts');
    else uiState.showError(error);
  };

  const submit = async (photos: Hashes) => {
    try {
      await submitIdentityCheck(
        ref,
        { person_type: link.person_type, verification_type: verificationType, photos },
        token,
      );
      toReview();
    } catch (error) {
      // The server lacks a photo: the widget sends it again and asks once more.
      if (missingPhotos(error)) throw error;
      refused(error);
    }
  };

  let body = null;
  if (link.state === 'UNDER_REVIEW') {
    // On the way to …/manual-verification: no widget (nor a camera prompt) meanwhile.
  } else if (link.state === 'SIGNED') {
    body = <p className="notice">{s('signed.text')}</p>;
  } else if (link.state === 'VERIFIED' && !verifyAgain) {
    body = (
      <>
        <p className="notice notice-ok">{s('sign.verified')}</p>
        <Button onClick={() => navigate(signingPath(signer), { replace: true })}>{s('sign.toSigning')}</Button>
        {attemptsLeft && (
          <Button variant="link" onClick={() => setVerifyAgain(true)}>
            {s('sign.verifyAgain')}
          </Button>
        )}
      </>
    );
  } else if (!attemptsLeft) {
    body = (
      <section className="stack" aria-labelledby="attempts-title">
        <h2 id="attempts-title" className="section-title">
          {s('attempts.title')}
        </h2>
        <p className="page-subtitle">{s('attempts.text')}</p>
        <SigningSupportLink text={s('attempts.chat')} />
      </section>
    );
  } else if (link.widget.provider === 'metamap') {
    body = <MetamapButton settings={link.widget} onFinished={toReview} />;
  } else {
    body = <IdentityCapture signer={ref} token={token} onSubmit={submit} onRefused={refused} />;
  }

  return (
    <Page title={s('sign.title')} heading={s('sign.title')}>
      <p className="page-subtitle">
        {link.signer_name && `${s('sign.greeting', { name: link.signer_name })} `}
        {s('sign.text')}
      </p>
      <a className="btn btn-secondary" href={contractDocumentUrl(ref, token)} target="_blank" rel="noopener">
        {s('sign.viewContract')}
      </a>
      {body}
      {modals}
    </Page>
  );
}
