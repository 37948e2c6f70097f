import { POLICY_RULES, type PolicyRuleSpec, type PolicyVersionView } from '@provee/domain';

type Tone = 'approved' | 'warn' | 'rejected' | 'neutral';

/** What a version is now, as badges: 'Vigente', 'En sombra', 'Publicada', 'Borrador' or 'Descartada'. */
export function versionBadges(version: Pick<PolicyVersionView, 'status' | 'live' | 'shadow'>): [string, Tone][] {
  if (version.status === 'DRAFT') return [['Borrador', 'warn']];
  if (version.status === 'DISCARDED') return [['Descartada', 'neutral']];
  if (version.live) return [['Vigente', 'approved']];
  if (version.shadow) return [['En sombra', 'warn']];
  return [['Publicada', 'neutral']];
}

/** The name a rule's threshold is read by: 'Antigüedad del negocio ≥'; a yes/no or a choice by its input alone. */
export const ruleName = (spec: PolicyRuleSpec) =>
  spec.kind === 'number' ? `${spec.input} ${spec.operator}` : spec.input;

/** The editor's groups: the applicant's rules, then the guarantor's. */
export const RULE_GROUPS = [
  { title: 'Solicitante', rules: POLICY_RULES.filter((spec) => spec.section === 'eligibility') },
  { title: 'Aval', rules: POLICY_RULES.filter((spec) => spec.section === 'guarantor') },
] as const;

export const outcomeName = (outcome: 'APPROVED' | 'REJECTED') => (outcome === 'APPROVED' ? 'Aprobada' : 'Rechazada');
