// The lender's decision after PENDING_APPROVAL (issue 30).
export {
  lenderDecisionsOf,
  lenderDecisionView,
  lendingDeps,
  recordLenderDecision,
  SIGNING_INVITATION_JOB,
  type LendingDeps,
} from './lender-decision.js';
export { findLenderApproval } from './lending.store.js';
