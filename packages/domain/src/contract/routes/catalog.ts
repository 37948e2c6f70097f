import { route } from './route.js';

// Where the catalogue and address-search calls go (zod-free, one value per call).
export const statesRoute = route('GET', '/api/v1/states');
export const stateCitiesRoute = route('GET', '/api/v1/states/:id/cities');
export const citiesRoute = route('GET', '/api/v1/cities');
export const neighborhoodsRoute = route('GET', '/api/v1/cities/:id/neighborhoods');
export const zipCodeRoute = route('GET', '/api/v1/zip-codes/:code');
export const businessTypesRoute = route('GET', '/api/v1/business-types');
export const salesRangesRoute = route('GET', '/api/v1/sales-ranges');
export const searchAddressesRoute = route('GET', '/api/v1/addresses/search');
export const placeRoute = route('GET', '/api/v1/addresses/:placeId');
