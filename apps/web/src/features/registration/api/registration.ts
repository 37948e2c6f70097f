import { apiRequest } from '../../../shared/lib/api-client.js';
import { loadOnce } from '../../../shared/hooks/use-api-data.js';

export interface StepAnswer {
  data: { user_id: string; next_step: string; status: string };
}

export interface CreatedUser {
  data: StepAnswer['data'] & { user_type: 'SK'; authentication: { access_type: 'Bearer'; access_token: string } };
}

export const createUser = (payload: object) => apiRequest<CreatedUser>('POST', '/api/v2/users', { body: payload });

export const saveTaxId = (userId: string, taxPayerId: string) =>
  apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/tax_info`, { body: { tax_payer_id: taxPayerId } });

export const saveAddress = (userId: string, address: object) =>
  apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/businesses/address`, { body: address });

export const saveBusiness = (userId: string, business: object) =>
  apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/businesses`, { body: business });

export interface Named {
  id: number;
  name: string;
}

/** Catalogues: cached for the page's life (they change only when an operator imports). */
export const catalog = {
  states: () => loadOnce('/api/v1/states', () => apiRequest<{ data: Named[] }>('GET', '/api/v1/states')).then((r) => r.data),
  cities: (stateId: number) => loadOnce(`/api/v1/states/${stateId}/cities`, () => apiRequest<{ data: Named[] }>('GET', `/api/v1/states/${stateId}/cities`)).then((r) => r.data),
  neighborhoods: (cityId: number) =>
    loadOnce(`/api/v1/cities/${cityId}/neighborhoods`, () => apiRequest<{ data: (Named & { zip_code: string | null })[] }>('GET', `/api/v1/cities/${cityId}/neighborhoods`)).then(
      (r) => r.data,
    ),
  zipCode: (zip: string) =>
    apiRequest<{ data: { neighborhood: string; city: string; state: string; neighborhood_id: number; city_id: number; state_id: number }[] }>('GET', `/api/v1/zip-codes/${zip}`).then(
      (r) => r.data,
    ),
  businessTypes: () => loadOnce('/api/v1/business-types', () => apiRequest<{ data: string[] }>('GET', '/api/v1/business-types')).then((r) => r.data),
  salesRanges: () =>
    loadOnce('/api/v1/sales-ranges', () => apiRequest<{ data: { ranges: { id: number; range_description: string }[] } }>('GET', '/api/v1/sales-ranges')).then(
      (r) => r.data.ranges,
    ),
};

export const searchAddresses = (query: string) =>
  apiRequest<{ data: { place_id: string; description: string }[] }>('GET', `/api/v1/addresses/search?q=${encodeURIComponent(query)}`, { spinner: false }).then(
    (r) => r.data,
  );

export const placeDetails = (placeId: string) =>
  apiRequest<{ data: { zip_code: string; street_name: string; street_number: string; neighborhood: string; city: string; state: string } }>(
    'GET',
    `/api/v1/addresses/${encodeURIComponent(placeId)}`,
  ).then((r) => r.data);
