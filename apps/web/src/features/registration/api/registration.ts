import type {
  AddressPayload,
  AddressSuggestion,
  BusinessPayload,
  CreatedUser,
  Named,
  Neighborhood,
  PlaceDetail,
  RegisterUserPayload,
  SalesRange,
  StateCity,
  StepAnswer,
  TaxInfoPayload,
  ZipCodeItem,
} from '@provee/domain';
import { apiRequest } from '../../../shared/lib/api-client.js';
import { loadOnce } from '../../../shared/hooks/use-api-data.js';

export type { AddressPayload, BusinessPayload, CreatedUser, Named, RegisterUserPayload, StepAnswer };

export const createUser = (payload: RegisterUserPayload) => apiRequest<CreatedUser>('POST', '/api/v2/users', { body: payload });

export const saveTaxId = (userId: string, taxPayerId: string) =>
  apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/tax_info`, { body: { tax_payer_id: taxPayerId } satisfies TaxInfoPayload });

export const saveAddress = (userId: string, address: AddressPayload) =>
  apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/businesses/address`, { body: address });

export const saveBusiness = (userId: string, business: BusinessPayload) =>
  apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/businesses`, { body: business });

/** Catalogues: cached for the page's life (they change only when an operator imports). */
export const catalog = {
  states: () => loadOnce('/api/v1/states', () => apiRequest<{ data: Named[] }>('GET', '/api/v1/states')).then((r) => r.data),
  cities: (stateId: number) => loadOnce(`/api/v1/states/${stateId}/cities`, () => apiRequest<{ data: StateCity[] }>('GET', `/api/v1/states/${stateId}/cities`)).then((r) => r.data),
  neighborhoods: (cityId: number) =>
    loadOnce(`/api/v1/cities/${cityId}/neighborhoods`, () => apiRequest<{ data: Neighborhood[] }>('GET', `/api/v1/cities/${cityId}/neighborhoods`)).then(
      (r) => r.data,
    ),
  zipCode: (zip: string) =>
    apiRequest<{ data: ZipCodeItem[] }>('GET', `/api/v1/zip-codes/${zip}`).then(
      (r) => r.data,
    ),
  businessTypes: () => loadOnce('/api/v1/business-types', () => apiRequest<{ data: string[] }>('GET', '/api/v1/business-types')).then((r) => r.data),
  salesRanges: () =>
    loadOnce('/api/v1/sales-ranges', () => apiRequest<{ data: { ranges: SalesRange[] } }>('GET', '/api/v1/sales-ranges')).then(
      (r) => r.data.ranges,
    ),
};

export const searchAddresses = (query: string) =>
  apiRequest<{ data: AddressSuggestion[] }>('GET', `/api/v1/addresses/search?q=${encodeURIComponent(query)}`, { spinner: false }).then(
    (r) => r.data,
  );

export const placeDetails = (placeId: string) =>
  apiRequest<{ data: PlaceDetail }>(
    'GET',
    `/api/v1/addresses/${encodeURIComponent(placeId)}`,
  ).then((r) => r.data);
