// The applicant's requests over their data (issue 31): "Mis datos" and "Solicitudes de privacidad".
// Above modules/privacy (the data map, keys and erasure that users and others sit on), since it
// reads the applicant through users and the staff through staff.
export { privacyRoutes } from './privacy.routes.js';
export { privacyBackofficeRoutes } from './backoffice-privacy.routes.js';
