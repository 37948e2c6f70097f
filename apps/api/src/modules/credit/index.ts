// What other modules use of the credit application.
import defaultPolicy from './default-policy.json' with { type: 'json' };

export {
  consentFolio,
  currentConsentText,
  latestApprovedDecision,
  processDueBureauQueries,
  queryBureauBriefly,
  writeConsent,
} from './credit.service.js';
/** The credit policy shipped with the product (tests write variations of it). */
export { defaultPolicy };
export { createPasswordHasher, verifyPassword, type PasswordHasher } from './password.js';
