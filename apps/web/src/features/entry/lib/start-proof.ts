import { SESSION_KEYS, anonymousId } from '@provee/domain';
import type { NavigateFunction } from 'react-router';
import { ApiError } from '../../../shared/lib/api-client.js';
import { session } from '../../../shared/lib/session.js';
import { lookupPublicIp, requestCode, startReverseOtp } from '../api/phone-proof.js';
import type { CodeRequestOutcome } from './code-state.js';
import { usesReverseOtp } from './entry-params.js';

/**
 * Starts the proof of `phone` (a code by SMS, or the reverse-OTP message) and goes to its screen.
 * `resume` (issue 27): the tab proves its number again; the proof screen takes the place of the
 * address that started it and says why. Out of the landing's first load: the landing warms it.
 */
export async function startProof(phone: string, ipLookupUrl: string, navigate: NavigateFunction, resume = false) {
  session.set(SESSION_KEYS.phoneNumber, phone);
  session.set(SESSION_KEYS.anonymousId, anonymousId(phone));
  try {
    if (usesReverseOtp()) {
      const { data } = await startReverseOtp(phone, await lookupPublicIp(ipLookupUrl));
      session.set(SESSION_KEYS.sessionUuid, data.session_id);
      navigate(`/home/${phone}?sessionUuid=${data.session_id}`, { replace: resume, state: { session: data, resume } });
    } else {
      const sent: CodeRequestOutcome = { at: Date.now(), sent: (await requestCode(phone)).data, resume };
      navigate(`/home/${phone}/code`, { replace: resume, state: sent });
    }
  } catch (error) {
    // No new code within the resend interval: the code screen says so, and whether the last one still works.
    if (!(error instanceof ApiError && error.code === 'CODE_RESEND_TOO_SOON')) throw error;
    const notSent: CodeRequestOutcome = { at: Date.now(), notSent: error.details, resume };
    navigate(`/home/${phone}/code`, { replace: resume, state: notSent });
  }
}
