// What other modules use of the credit application.
import './decorations.js';

export { bureauQueryJob, queryBureauBriefly } from './bureau.js';
export { consentPersonCipher, queryPersonCipher } from './bureau-person.js';
export { BUREAU_QUERY_JOB, bureauJobsSweep, CONSENT_AUDIT_JOB, retryGivenUpBureauQuery } from './bureau-schedule.js';
export { consentAuditJob } from './consent-audit.js';
export { consentFolio, currentConsentText, writeConsent } from './consent.js';
export { latestAvalConsent, latestTitularConsentFolio } from './consents.store.js';
export { latestApprovedDecision } from './decision.js';
export type { BureauDeps, CreditDeps, GuarantorBureau, GuarantorPerson } from './deps.js';
export { createPasswordHasher, verifyPassword, type PasswordHasher } from './password.js';
