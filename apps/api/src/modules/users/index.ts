// What other modules use of users: the application row, and the applicant read model over it.
export { ownedUser, stepAnswerSchema, userParams } from './owned-user.js';
export { taxIdSuggestion, userResponse } from './users.service.js';
export {
  applicantKeys,
  applicantPerson,
  applicantTaxId,
  birthDateColumn,
  describeApplicant,
  taxIdColumns,
  taxIdLookupHash,
  type Applicant,
  type ApplicantDeps,
  type ApplicantKeys,
  type ApplicantPerson,
  type TaxIdForms,
} from './applicant.js';
export {
  findOtherApplicationWithTaxId,
  findUserById,
  findUserByPhone,
  lockBusinessAddress,
  recordAddressReview,
  upsertBusiness,
  upsertBusinessAddress,
  setExternalId,
  applicationsChangedSince,
  type ChangeCursor,
  type BusinessAddressValues,
  type BusinessValues,
  type UserRow,
} from './users.store.js';
