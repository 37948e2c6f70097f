import { AVAL_STEPS, type AvalType } from '@provee/domain';
import { engineOf, StepConflict, stepAnswer } from '../application/index.js';
import { reverseOtpState, sessionKeyHash, startReverseOtp } from '../phone-proof/index.js';
import { findUserById } from '../users/index.js';
import { recordAvalConsent, type ConsentFrom } from './consent.js';
import type { ConsentDeps, ReverseOtpDeps } from './deps.js';
import { findAval, isConsentedThroughSession, listVerifiedSessionsOfPendingAvals } from './guarantors.store.js';
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
  assertBureauCanAsk(deps, aval);
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
 * Remote consents whose message arrived while nobody was on the page to ask: each verified
 * guarantor session of a guarantor still PENDING is recorded as the page would have (the IP the
 * session was started from). Run in the background with the bureau worker's interval.
 */
export async function processVerifiedRemoteConsents(deps: ReverseOtpDeps & ConsentDeps, limit = 20): Promise<number> {
  // Only sessions still within their time (reverseOtpState): one whose consent could not be recorded
  // (the application moved on) is not picked again every run, and never holds newer ones back.
  const since = new Date(deps.clock().getTime() - deps.config.REVERSE_OTP_TTL_SECONDS * 1000);
  const verified = await listVerifiedSessionsOfPendingAvals(deps.db, since, limit);
  for (const session of verified)
    await validateRemoteConsent(deps, { id: session.id }, { ip: session.ip, userAgent: undefined });
  return verified.length;
}
