import { route } from './route.js';

// Where the privacy calls go (issue 31): the applicant's own ("Mis datos", bearer token) and the
// staff's queue of requests (staff session cookie). Zod-free, one value per call.
const mine = '/api/v1/users/:id/:type/privacy';
export const myDataRoute = route('GET', `${mine}/data`);
export const myDataPdfRoute = route('GET', `${mine}/data.pdf`);
export const myPrivacyRequestsRoute = route('GET', `${mine}/requests`);
export const filePrivacyRequestRoute = route('POST', `${mine}/requests`);

const request = '/api/backoffice/privacy-requests/:requestId';
export const privacyQueueRoute = route('GET', '/api/backoffice/privacy-requests');
export const privacyRequestDetailRoute = route('GET', request);
export const startPrivacyRequestRoute = route('POST', `${request}/start`);
export const rectifyPrivacyRequestRoute = route('POST', `${request}/rectify`);
export const erasePrivacyRequestRoute = route('POST', `${request}/erase`);
export const refusePrivacyRequestRoute = route('POST', `${request}/refuse`);
