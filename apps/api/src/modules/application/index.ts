/** The application's state has one owner: every move goes through this module (docs/decisions/010). */
export {
  assertAt,
  claimStep,
  engineOf,
  createApplication,
  moveApplication,
  moveSigner,
  SignerConflict,
  type SignerRow,
  releaseClaim,
  stepAnswer,
  StepConflict,
  uniqueViolation,
  type ApplicationRow,
  type EngineDeps,
  type StepAnswer,
} from './application.service.js';
export { amendApplication, type AmendOptions } from './amend-application.js';
export { workUnderClaim } from './claimed-work.js';
export { ApplicationErasedError, ERASED_PHONE_PREFIX, isErasedPhone, notErased } from './erased.js';
export { MILESTONE_COLUMNS } from './milestones.js';
