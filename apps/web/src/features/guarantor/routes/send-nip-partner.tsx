import { NIP_LENGTH, NIP_RESENT_MESSAGE_MS, RESEND_WAIT_SECONDS } from '@provee/domain';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useResend } from '../../../shared/hooks/use-resend.js';
import { ApiError } from '../../../shared/lib/api-client.js';
import { applicationState } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatPhone } from '../../../shared/lib/format.js';
import { provenPhone } from '../../../shared/lib/proven-phone.js';
import { rememberRejection } from '../../../shared/lib/rejection.js';
import { retryAfterSeconds } from '../../../shared/lib/retry-after.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { routeAfterConflict } from '../../../shared/lib/users-api.js';
import { Button } from '../../../shared/ui/button.js';
import { CodeForm } from '../../../shared/ui/code-form.js';
import { Page } from '../../../shared/ui/page.js';
import {
  changeAvalPhone,
  confirmAvalNip,
  consentText,
  getAvalInvitation,
  sendAvalNip,
  type AvalNipSent,
  type AvalOwner,
} from '../api/guarantor.js';
import { PhoneChangeModal } from '../components/phone-change-modal.js';
import { g } from '../lib/copy.js';

type AvalType = AvalNipSent['aval_type'];

/** What a phone change hands to the screen of the new number (the PIN already went there). */
interface HandedOver {
  sent?: AvalNipSent;
}

interface SendNipPartnerProps extends NextProps {
  /** The static routes say which guarantor; the others give it as :to or ?to=. */
  to?: 'partner' | 'collateral';
}

/**
 * The guarantor's PIN (SPEC §2.5): /send-nip-partner?to&user_id&user_type_id&phone_number, or the
 * same in the path (/{to}/{userTypeId}/{userId}/{phoneNumber}/send-nip-partner and the partner /
 * collateral routes of SPEC §2.2). The shopkeeper's session token, or ?token= (the guarantor's link).
 */
export function SendNipPartnerRoute({ to, next }: SendNipPartnerProps) {
  usePrefetch(next);
  const params = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const kind = to ?? params.to ?? query.get('to') ?? '';
  const owner: AvalOwner = {
    userId: params.userId ?? query.get('user_id') ?? '',
    userTypeId: params.userTypeId ?? query.get('user_type_id') ?? 'SK',
  };
  const phone = params.phoneNumber ?? query.get('phone_number') ?? '';
  const missing = !owner.userId || !phone;

  useEffect(() => {
    if (missing) navigate('/not-found', { replace: true });
  }, [missing, navigate]);

  if (missing) return null;
  // A new number (phone change) is a new screen: its own PIN, countdown and messages.
  return (
    <SendNipPartnerScreen
      key={`${owner.userId}/${phone}`}
      kind={kind}
      owner={owner}
      phone={phone}
      phoneInPath={params.phoneNumber !== undefined}
    />
  );
}

interface ScreenProps {
  kind: string;
  owner: AvalOwner;
  phone: string;
  phoneInPath: boolean;
}

function SendNipPartnerScreen({ kind, owner, phone, phoneInPath }: ScreenProps) {
  const [query] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const config = useConfig();
  const token = query.get('token');
  const alreadySent = query.has('already-sent');
  const [handedOver] = useState(() => (location.state as HandedOver | null)?.sent);
  const [names, setNames] = useState({
    collateralName: handedOver?.collateralName ?? '',
    shopkeeperName: handedOver?.shopkeeperName ?? '',
  });
  const [avalType, setAvalType] = useState<AvalType>(
    handedOver?.aval_type ?? (kind.toLowerCase() === 'collateral' ? 'COLLATERAL' : 'PARTNER'),
  );
  const [nip, setNip] = useState(handedOver?.default_nip ?? '');
  const [error, setError] = useState('');
  const [consent, setConsent] = useState<string>();
  const resend = useResend(() =>
    handedOver
      ? { seconds: handedOver.resend_after_seconds, waiting: handedOver.resend_after_seconds > 0 }
      : { seconds: alreadySent ? 0 : RESEND_WAIT_SECONDS, waiting: !alreadySent },
  );
  const [changing, setChanging] = useState(false);
  const arrived = useRef(false);

  /** A 409: the application is past this guarantor's PIN. */
  const goWhereItStands = (conflict: ApiError) => {
    // The guarantor's own link: their answer is in (or no longer asked), nothing else to show them.
    if (token) return navigate('/congratulations-partner', { replace: true });
    routeAfterConflict(provenPhone() ?? '', owner.userId, conflict).then(
      (target) => navigate(target, { replace: true }),
      uiState.showError,
    );
  };

  /** SPEC §8: 422 → /rejected, 409 → where it stands, anything else the error modal. */
  const onFailure = (failure: unknown) => {
    if (failure instanceof ApiError && failure.status === 422) {
      rememberRejection(failure);
      navigate('/rejected', { replace: true });
    } else if (failure instanceof ApiError && failure.status === 409) goWhereItStands(failure);
    else uiState.showError(failure);
  };

  /** A PIN went out: the names, the prefilled PIN when the server gives it, the countdown again. */
  const onSent = (sent: AvalNipSent) => {
    setNames({ collateralName: sent.collateralName, shopkeeperName: sent.shopkeeperName });
    setAvalType(sent.aval_type);
    if (sent.default_nip) setNip(sent.default_nip);
    resend.restart(sent.resend_after_seconds, sent.resend_after_seconds > 0);
  };

  const onSendFailed = (failure: unknown, isResend: boolean) => {
    const wait = retryAfterSeconds(failure);
    if (wait !== null) resend.restart(wait, wait > 0);
    // Too soon on arrival (a reload): the PIN sent a moment ago is still good, the countdown says when.
    if (failure instanceof ApiError && failure.status === 429 && wait !== null && !isResend) return;
    onFailure(failure);
  };

  const resendNip = () =>
    sendAvalNip(owner, phone, token).then(
      (sent) => {
        onSent(sent);
        // A new PIN makes the message about the previous wrong one stale.
        setError('');
        resend.showSent(NIP_RESENT_MESSAGE_MS);
      },
      (failure: unknown) => onSendFailed(failure, true),
    );

  useEffect(() => {
    consentText().then(
      (text) => setConsent(text.text),
      () => {
        // The text is a courtesy here; the PIN still works without it.
      },
    );
    if (handedOver || arrived.current) return;
    arrived.current = true;
    if (!alreadySent) sendAvalNip(owner, phone, token).then(onSent, (failure: unknown) => onSendFailed(failure, false));
    else if (token)
      // Already sent, from the guarantor's link: the invitation has the names.
      getAvalInvitation(token).then((invitation) => {
        setNames({ collateralName: invitation.collateralName, shopkeeperName: invitation.shopkeeperName });
        setAvalType(invitation.aval_type);
      }, uiState.showError);
    // Once on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = async () => {
    try {
      const answer = await confirmAvalNip(owner, phone, nip, token);
      // The shopkeeper's tab: the application moved on (the guarantor's bureau step).
      if (!token) applicationState.set({ user_id: answer.user_id, next_step: answer.next_step, status: answer.status });
      navigate('/congratulations-partner', { replace: true });
    } catch (failure) {
      setNip('');
      if (failure instanceof ApiError && failure.status === 400) setError(failure.readableMessage);
      else onFailure(failure);
    }
  };

  /** The same screen for the new number, replacing this one; the PIN already went there. */
  const pathFor = (digits: string) => {
    const search = new URLSearchParams(location.search);
    search.set('already-sent', 'true');
    let pathname = location.pathname;
    if (phoneInPath) pathname = pathname.replace(/\/[^/]+\/send-nip-partner\/?$/, `/${digits}/send-nip-partner`);
    else search.set('phone_number', digits);
    return `${pathname}?${search.toString()}`;
  };

  const changePhone = async (digits: string): Promise<string | undefined> => {
    try {
      const sent = await changeAvalPhone(
        owner,
        { aval_type: avalType, phone_number: phone, new_phone_number: `${config.country.phonePrefix}${digits}` },
        token,
      );
      setChanging(false);
      navigate(pathFor(digits), { replace: true, state: { sent } satisfies HandedOver });
      return undefined;
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) {
        const issue =
          failure.issues.find((item) => item.field.replace(/^body\./, '') === 'new_phone_number') ?? failure.issues[0];
        return issue?.message || failure.readableMessage || failure.message;
      }
      setChanging(false);
      onFailure(failure);
      return undefined;
    }
  };

  return (
    <Page
      title={g('nip.title')}
      heading={names.collateralName ? g('nip.greeting', { name: names.collateralName }) : g('nip.greetingUnnamed')}
    >
      <p className="page-subtitle">
        {names.shopkeeperName ? g('nip.named', { shopkeeper: names.shopkeeperName }) : g('nip.namedUnnamed')}
      </p>
      <p className="page-subtitle">{g('nip.sentTo', { phone: formatPhone(config.country, phone) })}</p>
      <CodeForm
        length={NIP_LENGTH}
        label={g('nip.label')}
        value={nip}
        onChange={(value) => {
          setNip(value);
          setError('');
        }}
        error={error}
        onSubmit={onSubmit}
        submitLabel={g('nip.accept')}
        resend={resend}
        onResend={() => void resendNip()}
        resendCopy={{ button: g('nip.resend'), waiting: g('nip.resendIn'), sent: t('nip.resent') }}
        resendExtra={
          <Button variant="link" onClick={() => setChanging(true)}>
            {g('nip.changePhone')}
          </Button>
        }
      >
        {consent && <p className="consent-text">{consent}</p>}
      </CodeForm>
      {changing && <PhoneChangeModal onClose={() => setChanging(false)} onConfirm={changePhone} />}
    </Page>
  );
}
