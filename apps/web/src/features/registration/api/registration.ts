import type {
  AddressPayload,
  AddressSuggestion,
  BusinessPayload,
  CreatedUser,
  Named,
  Neighborhood,
  PersonalDataAmended,
  PersonalDataPayload,
  PlaceDetail,
  RegisterUserPayload,
  SalesRange,
  SavedRegistration,
  StateCity,
  StepAnswer,
  TaxInfoPayload,
  ZipCodeItem,
} from '@provee/domain';
import { apiRequest } from '../../../shared/lib/api-client.js';
import { loadOnce, remember } from '../../../shared/hooks/use-api-data.js';

export type {
  AddressPayload,
  BusinessPayload,
  CreatedUser,
  Named,
  PersonalDataPayload,
  RegisterUserPayload,
  SavedRegistration,
  StepAnswer,
};

/** What the steps saved, read once per change (issue 27: going back shows a step with its data). */
let saved: { userId: string; answer: Promise<SavedRegistration> } | null = null;

export function savedRegistration(userId: string): Promise<SavedRegistration> {
  if (saved?.userId !== userId) {
    const answer = apiRequest<{ data: SavedRegistration }>('GET', `/api/v1/users/${userId}/SK/registration`).then(
      (r) => r.data,
    );
    saved = { userId, answer };
    answer.catch(() => {
      if (saved?.answer === answer) saved = null;
    });
  }
  return saved.answer;
}

/** Every save or correction changes what was saved. */
const saving = <T>(request: Promise<T>) =>
  request.then((answer) => {
    saved = null;
    return answer;
  });

export const createUser = (payload: RegisterUserPayload) =>
  saving(apiRequest<CreatedUser>('POST', '/api/v2/users', { body: payload }));

export const saveTaxId = (userId: string, taxPayerId: string) =>
  saving(
    apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/tax_info`, {
      body: { tax_payer_id: taxPayerId } satisfies TaxInfoPayload,
    }),
  );

export const saveAddress = (userId: string, address: AddressPayload) =>
  saving(apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/businesses/address`, { body: address }));

export const saveBusiness = (userId: string, business: BusinessPayload) =>
  saving(apiRequest<StepAnswer>('POST', `/api/v1/users/${userId}/SK/businesses`, { body: business }));

/** Corrections of saved steps, while the step engine allows them (409 with where it stands after). */
export const amendPersonalData = (userId: string, payload: PersonalDataPayload) =>
  saving(apiRequest<PersonalDataAmended>('PUT', `/api/v1/users/${userId}/SK/personal-data`, { body: payload }));

export const amendTaxId = (userId: string, taxPayerId: string) =>
  saving(
    apiRequest<StepAnswer>('PUT', `/api/v1/users/${userId}/SK/tax_info`, {
      body: { tax_payer_id: taxPayerId } satisfies TaxInfoPayload,
    }),
  );

export const amendAddress = (userId: string, address: AddressPayload) =>
  saving(apiRequest<StepAnswer>('PUT', `/api/v1/users/${userId}/SK/businesses/address`, { body: address }));

/** `spinner: false` for a load the user did not ask for (app/prefetch.ts warms the next screen). */
type Quiet = { spinner?: boolean };

/** Catalogues: cached for the page's life (they change only when an operator imports). */
export const catalog = {
  states: (options: Quiet = {}) =>
    loadOnce('/api/v1/states', () => apiRequest<{ data: Named[] }>('GET', '/api/v1/states', options)).then(
      (r) => r.data,
    ),
  cities: (stateId: number, options: Quiet = {}) =>
    loadOnce(`/api/v1/states/${stateId}/cities`, () =>
      apiRequest<{ data: StateCity[] }>('GET', `/api/v1/states/${stateId}/cities`, options),
    ).then((r) => r.data),
  neighborhoods: (cityId: number, options: Quiet = {}) =>
    loadOnce(`/api/v1/cities/${cityId}/neighborhoods`, () =>
      apiRequest<{ data: Neighborhood[] }>('GET', `/api/v1/cities/${cityId}/neighborhoods`, options),
    ).then((r) => r.data),
  zipCode: (zip: string) => apiRequest<{ data: ZipCodeItem[] }>('GET', `/api/v1/zip-codes/${zip}`).then((r) => r.data),
  businessTypes: (options: Quiet = {}) =>
    loadOnce('/api/v1/business-types', () =>
      apiRequest<{ data: string[] }>('GET', '/api/v1/business-types', options),
    ).then((r) => r.data),
  salesRanges: (options: Quiet = {}) =>
    loadOnce('/api/v1/sales-ranges', () =>
      apiRequest<{ data: { ranges: SalesRange[] } }>('GET', '/api/v1/sales-ranges', options),
    ).then((r) => r.data.ranges),
};

export const searchAddresses = (query: string) =>
  apiRequest<{ data: AddressSuggestion[] }>('GET', `/api/v1/addresses/search?q=${encodeURIComponent(query)}`, {
    spinner: false,
  }).then((r) => r.data);

/** One place's details, fetched once per page: the search warms them, the address form reuses them. */
export const placeDetails = (placeId: string, options: Quiet = {}) =>
  loadOnce(`/api/v1/addresses/${placeId}`, () =>
    apiRequest<{ data: PlaceDetail }>('GET', `/api/v1/addresses/${encodeURIComponent(placeId)}`, options),
  ).then((r) => r.data);

/**
 * The address form's prefill from a chosen place: one call. Its answer has the place's province,
 * municipality and sector ids in the catalogues and the form's lists for them (the province's
 * municipalities, the municipality's sectors), kept as those calls' answers: the form asks for none
 * of them. (The provinces come with the search screen's warm-up, app/prefetch.ts.)
 */
export async function prefillFromPlace(placeId: string, options: Quiet = {}) {
  const place = await placeDetails(placeId, options);
  // `?? null`: an answer without the ids (a replica not yet updated) prefills only the street.
  const stateId = place.state_id ?? null;
  const cityId = place.city_id ?? null;
  if (stateId !== null) remember(`/api/v1/states/${stateId}/cities`, { data: place.cities });
  if (cityId !== null) remember(`/api/v1/cities/${cityId}/neighborhoods`, { data: place.neighborhoods });
  return { place, stateId, cityId, neighborhoodId: place.neighborhood_id ?? null };
}
