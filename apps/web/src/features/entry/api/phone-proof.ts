import {
  FALLBACK_IP,
  anonymousId,
  assignLeadRoute,
  confirmCodeRoute,
  pollReverseOtpRoute,
  sendCodeRoute,
  startReverseOtpRoute,
} from '@provee/domain';
import type { PhoneAuthentication, ReverseOtpSession } from '@provee/domain';
import { apiRequest } from '../../../shared/lib/api-request.js';

export type Authentication = PhoneAuthentication;
export type { ReverseOtpSession };

export const requestCode = (phone: string) =>
  apiRequest(sendCodeRoute, { body: { anonymous_id: anonymousId(phone), phone_number: phone } });

export const confirmCode = (phone: string, code: string) =>
  apiRequest(confirmCodeRoute, { body: { code, phone_number: phone, anonymous_id: anonymousId(phone) } });

export const startReverseOtp = (phone: string, ip: string) =>
  apiRequest(startReverseOtpRoute, {
    body: { phone_number: phone, anonymous_id: anonymousId(phone), ip_address: ip },
  });

/** 202 pending (with the session), 200 verified; 401, 404 and 410 are outcomes the screen shows. */
export const pollReverseOtp = (sessionId: string) =>
  apiRequest(pollReverseOtpRoute, { body: { session_id: sessionId }, spinner: false, report: false });

/** SPEC §4: the client's public IP, as the configured lookup sees it; '{ip}' when it cannot tell. */
export async function lookupPublicIp(url: string): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    const body = (await response.json()) as { ip?: unknown };
    return typeof body.ip === 'string' && body.ip ? body.ip : FALLBACK_IP;
  } catch {
    return FALLBACK_IP;
  }
}

export interface LeadInput {
  leadId: string;
  phone: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

export const assignLead = (apiKey: string, lead: LeadInput) => {
  const now = new Date().toISOString();
  return apiRequest(assignLeadRoute, {
    headers: { 'x-api-key': apiKey },
    spinner: false,
    body: {
      lead_id: lead.leadId,
      lead_type: 'INTERNAL',
      shopkeeper_phone: lead.phone,
      utm_source: lead.utmSource,
      utm_medium: lead.utmMedium,
      utm_campaign: lead.utmCampaign,
      created_at: now,
      updated_at: now,
    },
  });
};
