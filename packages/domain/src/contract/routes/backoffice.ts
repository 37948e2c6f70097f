import type { Route } from '../call.js';

// Where the back office's calls go (staff session cookie): applications, their actions, the
// advisors' queue and the reports (zod-free, one value per call).
const application = '/api/backoffice/applications/:applicationId';

export const listApplicationsRoute = { method: 'GET', path: '/api/backoffice/applications' } as const satisfies Route;
export const applicationDetailRoute = { method: 'GET', path: application } as const satisfies Route;
export const identityDocumentImageRoute = {
  method: 'GET',
  path: `${application}/identity-documents/:documentId`,
} as const satisfies Route;
export const applicationContractRoute = { method: 'GET', path: `${application}/contract` } as const satisfies Route;
export const applicationContractEvidenceRoute = {
  method: 'GET',
  path: `${application}/contract/evidence`,
} as const satisfies Route;

export const registerGuarantorRoute = { method: 'POST', path: `${application}/guarantors` } as const satisfies Route;
export const resendInvitationRoute = {
  method: 'POST',
  path: `${application}/guarantors/:avalId/invitation`,
} as const satisfies Route;
export const retryBureauRoute = { method: 'POST', path: `${application}/bureau-retry` } as const satisfies Route;
export const reviewAddressRoute = { method: 'POST', path: `${application}/address` } as const satisfies Route;
export const issueContractLinkRoute = {
  method: 'POST',
  path: `${application}/contract-links`,
} as const satisfies Route;
export const decideVerificationRoute = {
  method: 'POST',
  path: `${application}/verifications/:verificationId/decision`,
} as const satisfies Route;
export const grantExtraAttemptRoute = {
  method: 'POST',
  path: `${application}/signers/:signerId/extra-attempt`,
} as const satisfies Route;

export const advisorQueueRoute = { method: 'GET', path: '/api/backoffice/advisor-queue' } as const satisfies Route;
export const claimAdvisorTaskRoute = {
  method: 'POST',
  path: '/api/backoffice/advisor-queue/:source/:sourceId/claim',
} as const satisfies Route;
export const finishAdvisorTaskRoute = {
  method: 'POST',
  path: '/api/backoffice/advisor-queue/:source/:sourceId/done',
} as const satisfies Route;

export const funnelRoute = { method: 'GET', path: '/api/backoffice/funnel' } as const satisfies Route;
export const exportApplicationsRoute = {
  method: 'GET',
  path: '/api/backoffice/exports/applications.csv',
} as const satisfies Route;
export const exportConsentsRoute = {
  method: 'GET',
  path: '/api/backoffice/exports/consents.csv',
} as const satisfies Route;
