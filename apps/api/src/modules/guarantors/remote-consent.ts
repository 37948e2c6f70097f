import { AVAL_STEPS, type AvalType } from '@provee/domain';
import { AppError } from '../../errors.js';
import { engineOf, StepConflict, stepAnswer } from '../application/index.js';
import type { JobKind } from '../jobs/index.js';
import {
  reverseOtpState,
  sessionKeyHash,
  startReverseOtp,
  VERIFIED_GUARANTOR_SESSION_JOB,
} from '../phone-proof/index.js';
import { findUserById } from '../users/index.js';
import { recordAvalConsent, type ConsentFrom } from './consent.js';
import type { ConsentDeps, ReverseOtpDeps } from './deps.js';
import { findAval, isConsentedThroughSession } from './guarantors.store.js';
import { assertBureauCanAsk } from './guarantor.js';
import { FORBIDDEN, invitedAval, type Invited } from './invitation.js';

/**
 * Remote consent: a reverse-OTP session for the guarantor's own number. The consent counts only
 * once the message arrives from that number (validateRemoteConsent).
 */
export async function startRemoteConsent(
  deps: ReverseOtpDeps & Pick<ConsentDeps, 'db' | 'clock' | 'config' | 'cipher' | 'bureau'>,
  invited: Invited,
  input: { account_id: string; collateral_id: string; ip_address?: string | undefined },
  observedIp: string,
) {
  const { aval, user } = await invitedAval(deps, invited);
  if (input.account_id !== user.id || input.collateral_id !== aval.id) throw FORBIDDEN;
  const steps = AVAL_STEPS[aval.avalType as AvalType];
  if (user.nextStep !== steps.nip || user.status !== 'IN_PROGRESS' || aval.status !== 'PENDING')
    throw new StepConflict(
      await stepAnswer(engineOf(deps), user),
      'AVAL_ALREADY_ANSWERED',
      'Ya registramos tu respuesta. ¡Gracias!',
    );
  await assertBureauCanAsk(deps, aval);
  const session = await startReverseOtp(deps, {
    phoneE164: aval.phoneE164!,
    anonymousId: `aval-${aval.id}`,
    clientIp: input.ip_address ?? '',
    observedIp,
    avalId: aval.id,
  });
  return { redirection_url: session.whatsapp_url, ...session };
}

/** Where a remote consent stands; once the guarantor's own message arrived, their consent is recorded. */
export async function validateRemoteConsent(
  deps: ReverseOtpDeps & ConsentDeps,
  session: { key: string } | { id: string },
  evidence: ConsentFrom,
): Promise<'pending' | 'success' | 'error'> {
  const state = await reverseOtpState(deps, session);
  if (state.status === 'PENDING') return 'pending';
  if (state.status === 'EXPIRED') return (await consentedThrough(deps, session)) ? 'success' : 'error';
  if (state.status !== 'VERIFIED' || !state.session.avalId) return 'error';
  const aval = await findAval(deps.db, state.session.avalId);
  const user = aval && (await findUserById(deps.db, aval.userId));
  if (!aval || !user || aval.phoneE164 !== state.session.phoneE164 || aval.status === 'REPLACED') return 'error';
  if (aval.status !== 'PENDING') return 'success'; // recorded already (a reload, a second tab)
  try {
    // The nonce their phone sent is the code they returned (Círculo's NIP audit sends it as numeroFirma).
    await recordAvalConsent(deps, user, aval, {
      ...evidence,
      pinVerified: false,
      pin: state.session.nonce,
      sessionId: state.session.id,
    });
  } catch (error) {
    if (!(error instanceof StepConflict)) throw error;
    // Recorded a moment ago by another request (a second tab): the same answer; otherwise too late.
    const now = await findAval(deps.db, aval.id);
    return now && now.status !== 'PENDING' && now.status !== 'REPLACED' ? 'success' : 'error';
  }
  return 'success';
}

/**
 * A session past its time whose message did come from the guarantor's phone, and whose consent is
 * recorded (by the page then, or by the background job): the guarantor who comes back to the page
 * long after sending it reads 'Excelente', not 'Lo sentimos' (issue 27).
 */
async function consentedThrough(deps: Pick<ConsentDeps, 'db'>, session: { key: string } | { id: string }) {
  return isConsentedThroughSession(deps.db, 'key' in session ? { keyHash: sessionKeyHash(session.key) } : session);
}

/**
 * A remote consent whose message arrived, recorded as the page would have (the IP the session was
 * started from) whether or not anyone is on the page to ask: a job of the message's transaction
 * (modules/phone-proof enqueues it). A consent recorded meanwhile by the page is the same answer;
 * one that cannot be recorded yet is tried again by the queue while the session is within its time.
 */
export function remoteConsentJob(deps: ReverseOtpDeps & ConsentDeps): JobKind<{ session_id: string }> {
  return {
    name: VERIFIED_GUARANTOR_SESSION_JOB,
    retryLimit: 5,
    // The consent waits for the bureau's first attempt as the page's request does.
    expireInSeconds: Math.ceil(deps.config.BUREAU_SYNC_WAIT_MS / 1000) + 60,
    async run({ session_id: id }) {
      const state = await reverseOtpState(deps, { id }).catch((error: unknown) => {
        if (error instanceof AppError && error.statusCode === 404) return undefined;
        throw error;
      });
      // Past its time (or gone): the page answers from the consent, if there is one.
      if (state?.status !== 'VERIFIED') return;
      await validateRemoteConsent(deps, { id }, { ip: state.session.observedIp, userAgent: undefined });
    },
  };
}
