// What other modules use of the credit application.
import './decorations.js';
import defaultPolicy from './default-policy.json' with { type: 'json' };

export { processDueBureauQueries, queryBureauBriefly } from './bureau.js';
export { retryGivenUpBureauQuery } from './bureau-queries.store.js';
export { processDueConsentAudits } from './consent-audit.js';
export { consentFolio, currentConsentText, writeConsent } from './consent.js';
export { latestAvalConsent, latestTitularConsentFolio } from './consents.store.js';
export { latestApprovedDecision } from './decision.js';
export type { BureauDeps, CreditDeps, GuarantorBureau, GuarantorPerson } from './deps.js';
/** The credit policy shipped with the product (tests write variations of it). */
export { defaultPolicy };
export { createPasswordHasher, verifyPassword, type PasswordHasher } from './password.js';
export type { CreditPolicy } from './policy.js';
