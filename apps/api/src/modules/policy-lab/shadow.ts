import { getCountry, type PolicyShadowView } from '@provee/domain';
import { shadowAgreementByDay } from './versions.store.js';
import { listVersions, setShadow, type PolicyDeps } from './versions.service.js';

/** The days of agreement the back office shows. */
const SHADOW_DAYS = 30;

/** The live version, the shadow one, and per day of the last 30 how often the shadow agreed. */
export async function shadowView(deps: PolicyDeps): Promise<PolicyShadowView> {
  const { versions } = await listVersions(deps);
  const live = versions.find((version) => version.live)!;
  const shadow = versions.find((version) => version.shadow) ?? null;
  const since = new Date(deps.clock().getTime() - SHADOW_DAYS * 86_400_000);
  const days = shadow
    ? await shadowAgreementByDay(deps.db, shadow.id, getCountry(deps.policies.country).timeZone, since)
    : [];
  return {
    live,
    shadow,
    days: days.map((day) => ({
      ...day,
      agreement_rate: day.decisions === 0 ? 0 : Math.round((day.agreed / day.decisions) * 10_000) / 10_000,
    })),
  };
}

export async function setShadowAndView(
  deps: PolicyDeps,
  member: Parameters<typeof setShadow>[1],
  policyId: string | null,
): Promise<PolicyShadowView> {
  await setShadow(deps, member, policyId);
  return shadowView(deps);
}
