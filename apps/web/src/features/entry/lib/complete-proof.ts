import { SESSION_KEYS } from '@provee/domain';
import { session } from '../../../shared/lib/session.js';
import { routeForPhone } from '../../../shared/lib/users-api.js';
import { assignLead } from '../api/phone-proof.js';

/** One lead id per browser session, so a second proof in the same session is the same lead. */
function leadId(): string {
  let id = session.get(SESSION_KEYS.leadId);
  if (!id) {
    id = crypto.randomUUID();
    session.set(SESSION_KEYS.leadId, id);
  }
  return id;
}

/**
 * SPEC §4 after the phone is proven: keep the token, look the user up, hand the lead to sales
 * (without making the user wait for it) and answer where the app goes (SPEC §2.2).
 */
export async function completeProof(accessToken: string, phone: string, leadApiKey: string): Promise<string> {
  session.set(SESSION_KEYS.clientToken, `Bearer ${accessToken}`);
  session.set(SESSION_KEYS.phoneNumber, phone);
  const target = await routeForPhone(phone);
  assignLead(leadApiKey, {
    leadId: leadId(),
    phone,
    utmSource: session.get(SESSION_KEYS.utmSource),
    utmMedium: session.get(SESSION_KEYS.utmMedium),
    utmCampaign: session.get(SESSION_KEYS.utmCampaign),
  }).catch(() => {
    // Reported by the API client; the shopkeeper carries on regardless.
  });
  return target;
}
