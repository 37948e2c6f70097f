import { SESSION_KEYS, anonymousId, routeAfterLookup, type PhoneAuthentication } from '@provee/domain';
import { forgetPerson } from '../../../shared/lib/forget-person.js';
import { session } from '../../../shared/lib/session.js';
import { applicationState } from '../../../shared/lib/application-state.js';
import { lendSessionToOtherTabs } from '../../../shared/lib/session-share.js';
import { assignLead } from '../api/phone-proof.js';

/** One lead id per number, stored with it: a second proof of the same number is the same lead. */
function leadId(phone: string): string {
  const [storedPhone, storedId] = (session.get(SESSION_KEYS.leadId) ?? '').split(':');
  if (storedPhone === phone && storedId) return storedId;
  const id = crypto.randomUUID();
  session.set(SESSION_KEYS.leadId, `${phone}:${id}`);
  return id;
}

/**
 * SPEC §4 after the phone is proven: keep the token, hand the lead to sales (without making the
 * user wait for it) and answer where the app goes (SPEC §2.2), from the application the proof's
 * answer carries (the lookup's answer, null for a new number: no second round trip). A number
 * other than the one this tab proved before: everything of the previous person is forgotten.
 */
export function completeProof(proof: PhoneAuthentication['data'], phone: string, leadApiKey: string): string {
  if (session.get(SESSION_KEYS.provenPhone) !== phone) forgetPerson();
  session.set(SESSION_KEYS.clientToken, `Bearer ${proof.authentication.access_token}`);
  session.set(SESSION_KEYS.phoneNumber, phone);
  session.set(SESSION_KEYS.anonymousId, anonymousId(phone));
  session.set(SESSION_KEYS.provenPhone, phone);
  // A second tab of this person continues with this tab's session (issue 27).
  lendSessionToOtherTabs();
  const { user } = proof;
  if (user) applicationState.fromUser(user);
  // About-you then knows there is nothing saved to show (no lookup).
  else applicationState.markNew(phone);
  const target = routeAfterLookup(user ? { kind: 'user', phone, user } : { kind: 'new-user', phone });
  assignLead(leadApiKey, {
    leadId: leadId(phone),
    phone,
    utmSource: session.get(SESSION_KEYS.utmSource),
    utmMedium: session.get(SESSION_KEYS.utmMedium),
    utmCampaign: session.get(SESSION_KEYS.utmCampaign),
  }).catch(() => {
    // Reported by the API client; the shopkeeper carries on regardless.
  });
  return target;
}
