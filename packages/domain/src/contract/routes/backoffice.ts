import { route } from './route.js';

// Where the back office's calls go (staff session cookie): applications, their actions, the
// advisors' queue and the reports (zod-free, one value per call).
const application = '/api/backoffice/applications/:applicationId';

export const listApplicationsRoute = route('GET', '/api/backoffice/applications');
export const applicationDetailRoute = route('GET', application);
export const identityDocumentImageRoute = route('GET', `${application}/identity-documents/:documentId`);
export const applicationContractRoute = route('GET', `${application}/contract`);
export const applicationContractEvidenceRoute = route('GET', `${application}/contract/evidence`);
export const checkContractRoute = route('POST', `${application}/contract/check`);
export const bureauQueryRawRoute = route('GET', `${application}/bureau-queries/:queryId/raw`);
export const applicationTimelineRoute = route('GET', `${application}/timeline`);

export const registerGuarantorRoute = route('POST', `${application}/guarantors`);
export const resendInvitationRoute = route('POST', `${application}/guarantors/:avalId/invitation`);
export const retryBureauRoute = route('POST', `${application}/bureau-retry`);
export const reviewAddressRoute = route('POST', `${application}/address`);
export const issueContractLinkRoute = route('POST', `${application}/contract-links`);
export const decideVerificationRoute = route('POST', `${application}/verifications/:verificationId/decision`);
export const recordLenderDecisionRoute = route('POST', `${application}/lender-decision`);
export const grantExtraAttemptRoute = route('POST', `${application}/signers/:signerId/extra-attempt`);

export const advisorQueueRoute = route('GET', '/api/backoffice/advisor-queue');
export const claimAdvisorTaskRoute = route('POST', '/api/backoffice/advisor-queue/:source/:sourceId/claim');
export const finishAdvisorTaskRoute = route('POST', '/api/backoffice/advisor-queue/:source/:sourceId/done');

export const funnelRoute = route('GET', '/api/backoffice/funnel');
export const exportApplicationsRoute = route('GET', '/api/backoffice/exports/applications.csv');
export const exportConsentsRoute = route('GET', '/api/backoffice/exports/consents.csv');
