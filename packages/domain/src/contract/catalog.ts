import { z } from 'zod';
import { defineCall, refusals } from './call.js';
import {
  businessTypesRoute,
  citiesRoute,
  neighborhoodsRoute,
  placeRoute,
  salesRangesRoute,
  searchAddressesRoute,
  stateCitiesRoute,
  statesRoute,
  zipCodeRoute,
} from './routes/catalog.js';

/** A catalogue id in a path: a positive PostgreSQL integer. */
const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const catalogIdParams = z.object({ id });

const named = z.object({ id: z.number(), name: z.string() });
export type Named = z.infer<typeof named>;

/** GET /v1/states */
export const statesResponse = z.object({ data: z.array(named) });
export type State = Named;

/** GET /v1/states/:id/cities */
export const stateCitiesResponse = z.object({ data: z.array(named.extend({ allowed: z.boolean() })) });
export type StateCity = z.infer<typeof stateCitiesResponse>['data'][number];

/** GET /v1/cities */
export const citiesQuery = z.object({ 'only-allowed': z.enum(['true', 'false']).optional() });
export type CitiesQuery = z.input<typeof citiesQuery>;
export const citiesResponse = z.object({ data: z.array(named.extend({ state: z.string(), allowed: z.boolean() })) });

/** GET /v1/cities/:id/neighborhoods */
export const neighborhoodsResponse = z.object({ data: z.array(named.extend({ zip_code: z.string().nullable() })) });
export type Neighborhood = z.infer<typeof neighborhoodsResponse>['data'][number];

/** GET /v1/zip-codes/:code */
export const zipCodeParams = z.object({ code: z.string().regex(/^\d{5}$/, 'El código postal tiene 5 dígitos.') });
export const zipCodeResponse = z.object({
  data: z.array(
    z.object({
      neighborhood: z.string(),
      city: z.string(),
      state: z.string(),
      neighborhood_id: z.number(),
      city_id: z.number(),
      state_id: z.number(),
    }),
  ),
});
export type ZipCodeItem = z.infer<typeof zipCodeResponse>['data'][number];

/** GET /v1/business-types */
export const businessTypesResponse = z.object({ data: z.array(z.string()) });

/** GET /v1/sales-ranges */
export const salesRangesResponse = z.object({
  data: z.object({ ranges: z.array(z.object({ id: z.number(), range_description: z.string() })) }),
});
export type SalesRange = z.infer<typeof salesRangesResponse>['data']['ranges'][number];

/** GET /v1/addresses/search */
export const addressSearchQuery = z.object({ q: z.string().trim().min(1).max(100) });
export type AddressSearchQuery = z.input<typeof addressSearchQuery>;
export const addressSearchResponse = z.object({
  data: z.array(z.object({ place_id: z.string(), description: z.string() })),
});
export type AddressSuggestion = z.infer<typeof addressSearchResponse>['data'][number];

/** GET /v1/addresses/:placeId */
export const placeParams = z.object({ placeId: z.string().min(1).max(320) });
const catalogueId = (what: string) =>
  z.number().nullable().describe(`The ${what} in the catalogues (matched by name); null when it is not there.`);
export const placeResponse = z.object({
  data: z.object({
    zip_code: z.string(),
    street_name: z.string(),
    street_number: z.string(),
    neighborhood: z.string(),
    city: z.string(),
    state: z.string(),
    // Where the place is in the catalogues, and the lists the address form shows for it: the form
    // is ready with this one answer, no chain of catalogue calls (issue 14).
    state_id: catalogueId('state (province)'),
    city_id: catalogueId('city (municipality)'),
    neighborhood_id: catalogueId('neighbourhood (sector, colonia)'),
    cities: stateCitiesResponse.shape.data.describe(
      "The state's cities, as GET /v1/states/{state_id}/cities answers them; empty when state_id is null.",
    ),
    neighborhoods: neighborhoodsResponse.shape.data.describe(
      "The city's neighbourhoods, as GET /v1/cities/{city_id}/neighborhoods answers them; empty when city_id is null.",
    ),
  }),
});
export type PlaceDetail = z.infer<typeof placeResponse>['data'];

export const statesCall = defineCall(statesRoute, { responses: { 200: statesResponse } });

export const stateCitiesCall = defineCall(stateCitiesRoute, {
  params: catalogIdParams,
  responses: { 200: stateCitiesResponse },
});

export const citiesCall = defineCall(citiesRoute, { query: citiesQuery, responses: { 200: citiesResponse } });

export const neighborhoodsCall = defineCall(neighborhoodsRoute, {
  params: catalogIdParams,
  responses: { 200: neighborhoodsResponse },
});

export const zipCodeCall = defineCall(zipCodeRoute, {
  params: zipCodeParams,
  responses: { 200: zipCodeResponse, ...refusals(404) },
});

export const businessTypesCall = defineCall(businessTypesRoute, { responses: { 200: businessTypesResponse } });

export const salesRangesCall = defineCall(salesRangesRoute, { responses: { 200: salesRangesResponse } });

export const searchAddressesCall = defineCall(searchAddressesRoute, {
  query: addressSearchQuery,
  responses: { 200: addressSearchResponse },
});

export const placeCall = defineCall(placeRoute, {
  params: placeParams,
  responses: { 200: placeResponse, ...refusals(404) },
});
