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
  draftTaxId: 'draft_tax_id',
  /** The number this tab proved (the token belongs to it). */
  provenPhone: 'proven_phone',
  /** The server's reason for the last refusal, shown once on /rejected. */
  rejectedReason: 'rejected_reason',
  /** The signing link's token (SPEC §2.4 /send-contract-sign), for the signing screens' calls. */
  contractToken: 'contract_token',
  /** The SHA-256 of the contract the signing page offered: the signature is for that document only. */
  contractDocument: 'contract_document',
} as const;

/** Keys of the entry link (campaign, flow version, proof vendor): they outlive a change of person. */
export const ENTRY_SESSION_KEYS: readonly SessionKey[] = [
  SESSION_KEYS.version,
  SESSION_KEYS.utmSource,
  SESSION_KEYS.utmMedium,
  SESSION_KEYS.utmCampaign,
  SESSION_KEYS.otpVendor,
];

/** Every other key belongs to the person of the proven number (values, drafts, tokens, lead…). */
export const PERSONAL_SESSION_KEYS: readonly SessionKey[] = Object.values(SESSION_KEYS).filter(
  (key) => !ENTRY_SESSION_KEYS.includes(key),
);

/** The default otp-vendor value (spelled as SPEC §2.1 spells it): the reverse-OTP flow. */
export const DEFAULT_OTP_VENDOR = 'veriphone';

export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];
