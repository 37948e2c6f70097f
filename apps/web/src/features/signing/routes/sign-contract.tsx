import { SIGNATURE_CANVAS, type PersonType } from '@provee/domain';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Checkbox } from '../../../shared/ui/checkbox.js';
import { Modal } from '../../../shared/ui/modal.js';
import { Page } from '../../../shared/ui/page.js';
import { contractDocumentUrl, isAlreadySigned, isLinkRefused, signContract } from '../api/signing.js';
import { SignatureBox, type SignatureBoxHandle } from '../components/signature-box.js';
import { SigningNoticeModal, type SigningNotice } from '../components/support.js';
import { s } from '../lib/copy.js';
import { locationMetadata } from '../lib/geolocation.js';
import { isTooSmall } from '../lib/signature.js';
import { useSignatureFit } from '../lib/use-signature-fit.js';
import { contractDocument, contractToken, useSigner } from '../lib/signer-route.js';

/**
 * /{user_type_id}/{user_id}/{person_type}/singning (SPEC §2.4): the handwritten signature, then
 * the terms, then PUT …/contract. The drawing stays on any failure, so trying again costs a tap.
 */
export function SignContractRoute({ next }: NextProps) {
  const signer = useSigner();
  const navigate = useNavigate();
  usePrefetch(next);
  const pad = useRef<SignatureBoxHandle>(null);
  const screen = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLDivElement>(null);
  const below = useRef<HTMLDivElement>(null);
  const [tooSmall, setTooSmall] = useState(false);
  // The box and its buttons on one screen, upright and sideways (issue 27).
  const scale = useSignatureFit(screen, area, below);
  const [termsOpen, setTermsOpen] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const [notice, setNotice] = useState<SigningNotice | null>(null);
  const ref = { userTypeId: signer.userTypeId, userId: signer.userId };

  const clear = () => {
    pad.current?.clear();
    setTooSmall(false);
  };

  const save = () => {
    if (isTooSmall(pad.current?.strokes() ?? [])) {
      setTooSmall(true);
      return;
    }
    setTooSmall(false);
    setAccepted(false);
    setTermsOpen(true);
  };

  const sign = async () => {
    const signature = pad.current?.png();
    setTermsOpen(false);
    if (!signature) return;
    // The wait for the position is part of signing: the spinner shows from the tap.
    uiState.startLoading();
    try {
      const metadata = await locationMetadata();
      await signContract(
        ref,
        {
          person_type: signer.personType as PersonType,
          signature,
          metadata,
          ...(contractDocument.get() ? { document_sha256: contractDocument.get()! } : {}),
        },
        contractToken.get(),
      );
      contractToken.clear();
      contractDocument.clear();
      navigate('/singning-success', { replace: true });
    } catch (error) {
      if (isAlreadySigned(error)) setNotice('signed');
      else if (isLinkRefused(error)) setNotice('refused');
      else uiState.showError(error);
    } finally {
      uiState.stopLoading();
    }
  };

  return (
    <Page title={s('signature.title')}>
      {/* The heading inside the screen's own layout: sideways it goes beside the box (styles.css). */}
      <div className="signing" ref={screen}>
        <h1 className="page-title">{s('signature.title')}</h1>
        <p className="page-subtitle">{s('signature.prompt')}</p>
        <div className="signature-area" ref={area}>
          <SignatureBox ref={pad} label={s('signature.canvas')} onBegin={() => setTooSmall(false)} scale={scale} />
          {/* Over the top of the box, not under it: the box keeps its size and the buttons their place. */}
          {tooSmall && (
            <p
              className="field-error signature-message"
              role="alert"
              style={{ maxWidth: `${SIGNATURE_CANVAS.width * scale - 16}px` }}
            >
              {s('signature.tooSmall')}
            </p>
          )}
        </div>
        <div className="signature-actions" ref={below}>
          <Button onClick={save}>{s('signature.save')}</Button>
          <Button variant="secondary" onClick={clear}>
            {s('signature.clear')}
          </Button>
        </div>
      </div>
      <Modal open={termsOpen} title={s('terms.title')} onClose={() => setTermsOpen(false)}>
        <p className="modal-text">{s('terms.text')}</p>
        <a className="inline-link" href={contractDocumentUrl(ref, contractToken.get())} target="_blank" rel="noopener">
          {s('sign.viewContract')}
        </a>
        <Checkbox checked={accepted} onChange={setAccepted}>
          {s('terms.accept')}
        </Checkbox>
        <Button onClick={() => void sign()} disabled={!accepted}>
          {t('common.continue')}
        </Button>
        <Button variant="secondary" onClick={() => setTermsOpen(false)}>
          {s('terms.cancel')}
        </Button>
      </Modal>
      <SigningNoticeModal notice={notice} onClose={() => setNotice(null)} />
    </Page>
  );
}
