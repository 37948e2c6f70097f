import type { Executor } from '../../db/client.js';
import { appendAuditEvent } from '../audit/index.js';
import { findActiveStaffByEmail, type StaffRow } from './accounts.store.js';
import { providerGaveSecondFactor, type SsoIdentity } from './sso.js';
import { staffChain } from './staff.service.js';

/**
 * The identity provider vouched for an e-mail (sso.ts): its active account, if any, and whether the
 * provider's own second factor counts — only when accepted (OIDC_ACCEPT_IDP_MFA), reported (amr) and
 * dated (auth_time), from when it was given. The acceptance is audited on the account's chain.
 */
export async function ssoLogin(
  deps: { db: Executor; clock: () => Date; acceptProviderSecondFactor: boolean },
  identity: SsoIdentity,
  from: { ip: string },
): Promise<{ member: StaffRow; providerFactorAt?: Date } | null> {
  const member = await findActiveStaffByEmail(deps.db, identity.email);
  if (!member) return null;
  const trusted = deps.acceptProviderSecondFactor && providerGaveSecondFactor(identity) && identity.authTime !== null;
  await appendAuditEvent(deps.db, {
    applicationId: staffChain(member.id),
    actor: staffChain(member.id),
    type: 'staff.sso_accepted',
    payload: { ip: from.ip, amr: identity.amr, provider_second_factor: trusted },
    at: deps.clock(),
  });
  return { member, ...(trusted ? { providerFactorAt: identity.authTime! } : {}) };
}
