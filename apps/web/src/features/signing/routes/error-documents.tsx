import { hasAttemptsLeft } from '@provee/domain';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { getVerificationStatus } from '../api/signing.js';
import { SigningNoticeModal } from '../components/support.js';
import { s } from '../lib/copy.js';
import { contractToken, sendContractSignPath, useSigner, verificationTypeOf } from '../lib/signer-route.js';

const TIPS = ['rejected.tip.match', 'rejected.tip.photos', 'rejected.tip.light', 'rejected.tip.sides'] as const;

/**
 * …/error-documents (SPEC §2.4): the documents were refused. Tips, then 'Reiniciar evaluación'
 * back to the start, unless no attempt is left ('Intentos no disponibles').
 */
export function ErrorDocumentsRoute() {
  const signer = useSigner();
  const [query] = useSearchParams();
  const verificationType = verificationTypeOf(query.get('verification_type'));
  const navigate = useNavigate();
  const [attemptsLeft, setAttemptsLeft] = useState<number | null>(null);
  const [noAttempts, setNoAttempts] = useState(false);
  const { userTypeId, userId, personType } = signer;

  useEffect(() => {
    let live = true;
    getVerificationStatus({ userTypeId, userId }, { verificationType, personType }, contractToken.get()).then(
      (answer) => live && setAttemptsLeft(answer.verifications_left),
      // Not knowing is not a refusal: the start screen asks again.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [userTypeId, userId, personType, verificationType]);

  const restart = () => {
    if (!hasAttemptsLeft(attemptsLeft)) setNoAttempts(true);
    else navigate(sendContractSignPath(signer), { replace: true });
  };

  return (
    <Page title={s('rejected.title')} heading={s('rejected.title')}>
      <p className="page-subtitle">{s('rejected.intro')}</p>
      <ul className="tips">
        {TIPS.map((tip) => (
          <li key={tip}>{s(tip)}</li>
        ))}
      </ul>
      <Button onClick={restart}>{s('rejected.restart')}</Button>
      <SigningNoticeModal notice={noAttempts ? 'attempts' : null} onClose={() => setNoAttempts(false)} />
    </Page>
  );
}
