import type { Route } from '../call.js';

// Where the catalogue and address-search calls go (zod-free, one value per call).
export const statesRoute = { method: 'GET', path: '/api/v1/states' } as const satisfies Route;
export const stateCitiesRoute = { method: 'GET', path: '/api/v1/states/:id/cities' } as const satisfies Route;
export const citiesRoute = { method: 'GET', path: '/api/v1/cities' } as const satisfies Route;
export const neighborhoodsRoute = { method: 'GET', path: '/api/v1/cities/:id/neighborhoods' } as const satisfies Route;
export const zipCodeRoute = { method: 'GET', path: '/api/v1/zip-codes/:code' } as const satisfies Route;
export const businessTypesRoute = { method: 'GET', path: '/api/v1/business-types' } as const satisfies Route;
export const salesRangesRoute = { method: 'GET', path: '/api/v1/sales-ranges' } as const satisfies Route;
export const searchAddressesRoute = { method: 'GET', path: '/api/v1/addresses/search' } as const satisfies Route;
export const placeRoute = { method: 'GET', path: '/api/v1/addresses/:placeId' } as const satisfies Route;
