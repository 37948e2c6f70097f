import {
  amendAddressRoute,
  amendPersonalDataRoute,
  amendTaxIdRoute,
  businessTypesRoute,
  neighborhoodsRoute,
  placeRoute,
  registerUserRoute,
  saveAddressRoute,
  saveBusinessRoute,
  savedRegistrationRoute,
  saveTaxIdRoute,
  salesRangesRoute,
  searchAddressesRoute,
  stateCitiesRoute,
  statesRoute,
  zipCodeRoute,
} from '@provee/domain';
import type {
  AddressPayload,
  BusinessPayload,
  Named,
  PersonalDataPayload,
  RegisterUserPayload,
  SavedRegistration,
} from '@provee/domain';
import { apiRequest, urlOf } from '../../../shared/lib/api-request.js';
import { shopkeeper } from '../../../shared/lib/users-api.js';
import { loadOnce, remember } from '../../../shared/hooks/use-api-data.js';

export type { Named, SavedRegistration };

/** What the steps saved, read once per change (issue 27: going back shows a step with its data). */
let saved: { userId: string; answer: Promise<SavedRegistration> } | null = null;

export function savedRegistration(userId: string): Promise<SavedRegistration> {
  if (saved?.userId !== userId) {
    const answer = apiRequest(savedRegistrationRoute, shopkeeper(userId)).then((r) => r.data);
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

export const createUser = (payload: RegisterUserPayload) => saving(apiRequest(registerUserRoute, { body: payload }));

export const saveTaxId = (userId: string, taxPayerId: string) =>
  saving(apiRequest(saveTaxIdRoute, { ...shopkeeper(userId), body: { tax_payer_id: taxPayerId } }));

export const saveAddress = (userId: string, address: AddressPayload) =>
  saving(apiRequest(saveAddressRoute, { ...shopkeeper(userId), body: address }));

export const saveBusiness = (userId: string, business: BusinessPayload) =>
  saving(apiRequest(saveBusinessRoute, { ...shopkeeper(userId), body: business }));

/** Corrections of saved steps, while the step engine allows them (409 with where it stands after). */
export const amendPersonalData = (userId: string, payload: PersonalDataPayload) =>
  saving(apiRequest(amendPersonalDataRoute, { ...shopkeeper(userId), body: payload }));

export const amendTaxId = (userId: string, taxPayerId: string) =>
  saving(apiRequest(amendTaxIdRoute, { ...shopkeeper(userId), body: { tax_payer_id: taxPayerId } }));

export const amendAddress = (userId: string, address: AddressPayload) =>
  saving(apiRequest(amendAddressRoute, { ...shopkeeper(userId), body: address }));

/** `spinner: false` for a load the user did not ask for (app/prefetch.ts warms the next screen). */
type Quiet = { spinner?: boolean };

/** Catalogues: cached for the page's life (they change only when an operator imports). */
export const catalog = {
  states: (options: Quiet = {}) =>
    loadOnce(urlOf(statesRoute), () => apiRequest(statesRoute, options)).then((r) => r.data),
  cities: (stateId: number, options: Quiet = {}) => {
    const call = { params: { id: stateId }, ...options };
    return loadOnce(urlOf(stateCitiesRoute, call), () => apiRequest(stateCitiesRoute, call)).then((r) => r.data);
  },
  neighborhoods: (cityId: number, options: Quiet = {}) => {
    const call = { params: { id: cityId }, ...options };
    return loadOnce(urlOf(neighborhoodsRoute, call), () => apiRequest(neighborhoodsRoute, call)).then((r) => r.data);
  },
  zipCode: (zip: string) => apiRequest(zipCodeRoute, { params: { code: zip } }).then((r) => r.data),
  businessTypes: (options: Quiet = {}) =>
    loadOnce(urlOf(businessTypesRoute), () => apiRequest(businessTypesRoute, options)).then((r) => r.data),
  salesRanges: (options: Quiet = {}) =>
    loadOnce(urlOf(salesRangesRoute), () => apiRequest(salesRangesRoute, options)).then((r) => r.data.ranges),
};

export const searchAddresses = (query: string) =>
  apiRequest(searchAddressesRoute, { query: { q: query }, spinner: false }).then((r) => r.data);

/** One place's details, fetched once per page: the search warms them, the address form reuses them. */
export const placeDetails = (placeId: string, options: Quiet = {}) => {
  const call = { params: { placeId }, ...options };
  return loadOnce(urlOf(placeRoute, call), () => apiRequest(placeRoute, call)).then((r) => r.data);
};

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
  if (stateId !== null) remember(urlOf(stateCitiesRoute, { params: { id: stateId } }), { data: place.cities });
  if (cityId !== null) remember(urlOf(neighborhoodsRoute, { params: { id: cityId } }), { data: place.neighborhoods });
  return { place, stateId, cityId, neighborhoodId: place.neighborhood_id ?? null };
}
