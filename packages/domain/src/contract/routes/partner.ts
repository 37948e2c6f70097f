import { route } from './route.js';

// The API of the lender's own systems (issue 30), with a partner key as the bearer (zod-free).
const v1 = '/partner/v1';
const application = `${v1}/applications/:applicationId`;
export const partnerApplicationsRoute = route('GET', `${v1}/applications`);
export const partnerApplicationRoute = route('GET', application);
export const partnerExternalIdRoute = route('PUT', `${application}/external-id`);
export const partnerDecisionRoute = route('POST', `${application}/decision`);
export const partnerContractRoute = route('GET', `${application}/contract`);
export const partnerContractEvidenceRoute = route('GET', `${application}/contract/evidence`);
export const partnerEventsRoute = route('GET', `${v1}/events`);
