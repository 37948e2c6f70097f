import { route } from './route.js';

// Where the registration steps and their corrections go (zod-free, one value per call).
export const registerUserRoute = route('POST', '/api/v2/users');
export const saveTaxIdRoute = route('POST', '/api/v1/users/:id/:type/tax_info');
export const saveAddressRoute = route('POST', '/api/v1/users/:id/:type/businesses/address');
export const saveBusinessRoute = route('POST', '/api/v1/users/:id/:type/businesses');
export const savedRegistrationRoute = route('GET', '/api/v1/users/:id/:type/registration');
export const amendPersonalDataRoute = route('PUT', '/api/v1/users/:id/:type/personal-data');
export const amendTaxIdRoute = route('PUT', '/api/v1/users/:id/:type/tax_info');
export const amendAddressRoute = route('PUT', '/api/v1/users/:id/:type/businesses/address');
