import {
  addressSearchQuery,
  addressSearchResponse,
  businessTypesResponse,
  catalogIdParams,
  citiesQuery,
  citiesResponse,
  neighborhoodsResponse,
  placeParams,
  placeResponse,
  salesRangesResponse,
  stateCitiesResponse,
  statesResponse,
  zipCodeParams,
  zipCodeResponse,
} from '@provee/domain';
import { AppError, errorResponseSchema } from '../../errors.js';
import { PlacesError } from '../../providers/places/index.js';
import type { App } from '../../types.js';
import { createAnswerCache } from './answer-cache.js';
import { catalogEtag } from './catalog-cache.js';
import {
  listBusinessTypes,
  listCities,
  listNeighborhoods,
  listSalesRanges,
  listStates,
  placeInCatalog,
  zipCodeItems,
} from './catalog.service.js';

/** Catalogues for the registration forms (public: nothing personal here). */
export async function catalogRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;
  app.addHook('onSend', catalogEtag);
  // Every list below is kept, serialised, until the catalogue's revision moves on.
  const { answer, send, sendList } = createAnswerCache(app.catalogRevision);

  app.get(
    '/v1/states',
    { schema: { summary: 'Provincias o estados del país', response: { 200: statesResponse } } },
    async (_request, reply) =>
      sendList(reply, 'states', statesResponse, async () => ({ data: await listStates(app.db, country) })),
  );

  app.get(
    '/v1/states/:id/cities',
    {
      schema: {
        summary: 'Municipios de una provincia o estado',
        params: catalogIdParams,
        response: { 200: stateCitiesResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendList(reply, `state-cities:${id}`, stateCitiesResponse, async () => {
        const rows = await listCities(app.db, country, { stateId: id });
        return { data: rows.map(({ id: cityId, name, allowed }) => ({ id: cityId, name, allowed })) };
      });
    },
  );

  app.get(
    '/v1/cities',
    {
      schema: {
        summary: 'Municipios; con only-allowed=true, solo los que el servicio atiende',
        querystring: citiesQuery,
        response: { 200: citiesResponse },
      },
    },
    async (request, reply) => {
      const onlyAllowed = request.query['only-allowed'] === 'true';
      return sendList(reply, `cities:${onlyAllowed}`, citiesResponse, async () => ({
        data: await listCities(app.db, country, { onlyAllowed }),
      }));
    },
  );

  app.get(
    '/v1/cities/:id/neighborhoods',
    {
      schema: {
        summary: 'Sectores o colonias de un municipio',
        params: catalogIdParams,
        response: { 200: neighborhoodsResponse },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return sendList(reply, `city-neighborhoods:${id}`, neighborhoodsResponse, async () => ({
        data: await listNeighborhoods(app.db, country, id),
      }));
    },
  );

  app.get(
    '/v1/zip-codes/:code',
    {
      schema: {
        summary: 'Colonias, municipio y estado de un código postal',
        params: zipCodeParams,
        response: {
          200: zipCodeResponse,
          404: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { code } = request.params;
      const found = await answer(`zip-code:${code}`, zipCodeResponse, async () => {
        const items = await zipCodeItems(app.db, country, code);
        return items.length > 0 ? { data: items } : null;
      });
      if (!found)
        throw new AppError(
          404,
          'ZIP_CODE_NOT_FOUND',
          'zip code not found',
          'No encontramos ese código postal. Revísalo.',
        );
      return send(reply, found);
    },
  );

  app.get(
    '/v1/business-types',
    { schema: { summary: 'Giros de negocio', response: { 200: businessTypesResponse } } },
    async (_request, reply) =>
      sendList(reply, 'business-types', businessTypesResponse, async () => ({
        data: await listBusinessTypes(app.db, country),
      })),
  );

  app.get(
    '/v1/sales-ranges',
    {
      schema: {
        summary: 'Rangos de ventas semanales',
        response: { 200: salesRangesResponse },
      },
    },
    async (_request, reply) => {
      return sendList(reply, 'sales-ranges', salesRangesResponse, async () => {
        const rows = await listSalesRanges(app.db, country);
        return {
          data: { ranges: rows.map(({ id: rangeId, range_description }) => ({ id: rangeId, range_description })) },
        };
      });
    },
  );

  const unavailable = (error: unknown) => {
    if (error instanceof PlacesError) {
      app.log.error({ err: error }, 'address search provider failed');
      return new AppError(
        503,
        'ADDRESS_SEARCH_UNAVAILABLE',
        'address search failed',
        'La búsqueda de direcciones no está disponible. Usa "No encontre mi domicilio".',
      );
    }
    return error;
  };

  app.get(
    '/v1/addresses/search',
    {
      schema: {
        summary: 'Autocompletado de direcciones del país',
        querystring: addressSearchQuery,
        response: { 200: addressSearchResponse },
      },
    },
    async (request) => {
      try {
        return { data: await app.places.search(request.query.q, 8) };
      } catch (error) {
        throw unavailable(error);
      }
    },
  );

  app.get(
    '/v1/addresses/:placeId',
    {
      schema: {
        summary: 'Detalle de una dirección elegida, con su lugar en los catálogos y las listas del formulario',
        params: placeParams,
        response: {
          200: placeResponse,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      let place;
      try {
        place = await app.places.resolve(request.params.placeId);
      } catch (error) {
        throw unavailable(error);
      }
      if (!place) throw new AppError(404, 'PLACE_NOT_FOUND', 'place not found', 'No encontramos esa dirección.');
      // The ids and lists the address form needs, in this answer: the form is ready in one round trip.
      return { data: { ...place, ...(await placeInCatalog(app.db, country, place)) } };
    },
  );
}
