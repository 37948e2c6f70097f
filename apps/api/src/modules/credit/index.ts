// What other modules use of the credit application.
import './decorations.js';
import defaultPolicy from './default-policy.json' with { type: 'json' };

export { bureauQueryJob, queryBureauBriefly } from './bureau.js';
export { consentPersonCipher, queryPersonCipher } from './bureau-person.js';
export { BUREAU_QUERY_JOB, bureauJobsSweep, CONSENT_AUDIT_JOB, retryGivenUpBureauQuery } from './bureau-schedule.js';
export { consentAuditJob } from './consent-audit.js';
export { consentFolio, currentConsentText, writeConsent } from './consent.js';
export { latestAvalConsent, latestTitularConsentFolio } from './consents.store.js';
export { latestApprovedDecision } from './decision.js';
export type { BureauDeps, CreditDeps, GuarantorBureau, GuarantorPerson } from './deps.js';
/** The credit policy shipped with the product (tests write variations of it). */
export { defaultPolicy };
export { createPasswordHasher, verifyPassword, type PasswordHasher } from './password.js';
export type { CreditPolicy } from './policy.js';
