import type { Route } from '../call.js';

// Where the registration steps and their corrections go (zod-free, one value per call).
export const registerUserRoute = { method: 'POST', path: '/api/v2/users' } as const satisfies Route;
export const saveTaxIdRoute = { method: 'POST', path: '/api/v1/users/:id/:type/tax_info' } as const satisfies Route;
export const saveAddressRoute = {
  method: 'POST',
  path: '/api/v1/users/:id/:type/businesses/address',
} as const satisfies Route;
export const saveBusinessRoute = {
  method: 'POST',
  path: '/api/v1/users/:id/:type/businesses',
} as const satisfies Route;
export const savedRegistrationRoute = {
  method: 'GET',
  path: '/api/v1/users/:id/:type/registration',
} as const satisfies Route;
export const amendPersonalDataRoute = {
  method: 'PUT',
  path: '/api/v1/users/:id/:type/personal-data',
} as const satisfies Route;
export const amendTaxIdRoute = { method: 'PUT', path: '/api/v1/users/:id/:type/tax_info' } as const satisfies Route;
export const amendAddressRoute = {
  method: 'PUT',
  path: '/api/v1/users/:id/:type/businesses/address',
} as const satisfies Route;
