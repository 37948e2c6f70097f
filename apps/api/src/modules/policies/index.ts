// What other modules use of the credit policy and its versions (issue 33).
import './decorations.js';
import defaultPolicy from './default-policy.json' with { type: 'json' };

/** The credit policy shipped with the product (tests write variations of it). */
export { defaultPolicy };
export { createPolicyBook, policyChain, type LivePolicy, type PolicyBook } from './policy-book.js';
export {
  evaluate,
  evaluateGuarantor,
  loadPolicy,
  PolicyError,
  type CreditPolicy,
  type DecisionInputs,
  type Evaluation,
} from './policy.js';
export { recordShadowDecision } from './shadow-record.js';
