import { countryToday, getCountry, type PolicyShadowView } from '@provee/domain';
import { zonedMidnight } from './country-days.js';
import { shadowAgreementByDay } from './versions.store.js';
import { listVersions, setShadow, type PolicyDeps } from './versions.service.js';

/** The days of agreement the back office shows. */
const SHADOW_DAYS = 30;

/**
 * The live version, the shadow one, and per day of the last 30 how often the shadow agreed with the
 * version that decided that day (the live one then, which a later change may have replaced).
 */
export async function shadowView(deps: PolicyDeps): Promise<PolicyShadowView> {
  const { versions } = await listVersions(deps);
  const live = versions.find((version) => version.live)!;
  const shadow = versions.find((version) => version.shadow) ?? null;
  // From the country's midnight 29 days before today: 30 whole days, today's so far the last.
  const country = getCountry(deps.policies.country);
  const today = countryToday(country, deps.clock());
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - (SHADOW_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const since = zonedMidnight(first, country.timeZone);
  const days = shadow ? await shadowAgreementByDay(deps.db, shadow.id, country.timeZone, since) : [];
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
