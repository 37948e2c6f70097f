import { DEFAULT_OTP_VENDOR, SESSION_KEYS } from '@provee/domain';
import { session } from '../../../shared/lib/session.js';

/** Entry query parameters kept for the whole flow (SPEC §2.1, §3). */
const TRACKED_PARAMS = [
  ['version', SESSION_KEYS.version],
  ['utm_source', SESSION_KEYS.utmSource],
  ['utm_medium', SESSION_KEYS.utmMedium],
  ['utm_campaign', SESSION_KEYS.utmCampaign],
  ['otp-vendor', SESSION_KEYS.otpVendor],
  ['sessionUuid', SESSION_KEYS.sessionUuid],
] as const;

export function storeEntryParams(params: URLSearchParams): void {
  for (const [param, key] of TRACKED_PARAMS) {
    const value = params.get(param);
    if (value) session.set(key, value);
  }
}

/** The reverse-OTP flow unless the link asked for another vendor. */
export function usesReverseOtp(): boolean {
  return (session.get(SESSION_KEYS.otpVendor) ?? DEFAULT_OTP_VENDOR) === DEFAULT_OTP_VENDOR;
}
