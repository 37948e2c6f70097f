/**
 * What a partner key may do (issue 30): read applications (masked as an advisor sees them), read
 * their personal data unmasked (tax id, birth date), record the lender's decisions and the
 * lender's own id, read the contract and its evidence (the lender's own documents: they name every
 * party with their tax id and hold the signing evidence).
 */
export const PARTNER_SCOPES = ['applications:read', 'personal_data:read', 'decisions:write', 'documents:read'] as const;
export type PartnerScope = (typeof PARTNER_SCOPES)[number];

/** Spanish names of the scopes, as admins read them. */
export const PARTNER_SCOPE_NAMES: Record<PartnerScope, string> = {
  'applications:read': 'Leer solicitudes',
  'personal_data:read': 'Ver datos personales sin ocultar',
  'decisions:write': 'Registrar decisiones',
  'documents:read': 'Leer contratos y evidencias (con datos personales)',
};
