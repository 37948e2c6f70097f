/**
 * Client sessionStorage keys: those of SPEC §3 by their exact names, then the entry's own
 * (OTP vendor, reverse-OTP session and lead id, which SPEC §3 does not name).
 */
export const SESSION_KEYS = {
  clientToken: 'clientToken',
  phoneNumber: 'phone_number',
  anonymousId: 'anonymous_id',
  version: 'version',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  values: 'values',
  otpVendor: 'otp_vendor',
  sessionUuid: 'session_uuid',
  leadId: 'lead_id',
  draftAddress: 'draft_address',
  draftBusiness: 'draft_business',
} as const;

/** The default otp-vendor value (spelled as SPEC §2.1 spells it): the reverse-OTP flow. */
export const DEFAULT_OTP_VENDOR = 'veriphone';

export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];
