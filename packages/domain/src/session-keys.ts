/** Client sessionStorage keys of SPEC §3. The values are the exact key names. */
export const SESSION_KEYS = {
  clientToken: 'clientToken',
  phoneNumber: 'phone_number',
  anonymousId: 'anonymous_id',
  version: 'version',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  values: 'values',
} as const;

export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];
