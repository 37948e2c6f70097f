// What other modules use of privacy (issue 31).
export { retentionScheduleJob, RETENTION_JOB } from './retention-job.js';
export { retentionScheduleView } from './retention.view.js';
export {
  eraseApplication,
  ApplicationNotFoundError,
  LegalHoldError,
  type EraseDeps,
  type EraseOptions,
  type ErasureResult,
} from './erase-application.js';
export { exportApplicantData, type ApplicantExport, type ExportDeps, type ExportField } from './export-person.js';
export { DATA_MAP, CATEGORY_LABELS, LEGAL_BASIS_LABELS } from './data-map.js';
export {
  allLiveCiphers,
  destroyPersonKey,
  personCipher,
  PersonKeyDestroyedError,
  rewrapPersonKeys,
  type PersonKeyDeps,
} from './person-keys.js';
export { applicationNotErased, ERASED_EVENT } from './erase.store.js';
