import {
  businessTypesCall,
  citiesCall,
  neighborhoodsCall,
  placeCall,
  salesRangesCall,
  searchAddressesCall,
  stateCitiesCall,
  statesCall,
  zipCodeCall,
} from '@provee/domain';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
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
  zipCodeItems,
} from './catalog.store.js';
import { placeInCatalog } from './place-names.js';

/** Catalogues for the registration forms (public: nothing personal here). */
export async function catalogRoutes(app: App): Promise<void> {
  const country = app.config.COUNTRY;
  app.addHook('onSend', catalogEtag);
  // Every list below is kept, serialised, until the catalogue's revision moves on.
  const { answer, send, sendList } = createAnswerCache(app.catalogRevision);

  register(app, statesCall, { summary: 'Provincias o estados del país' }, async (_request, reply) =>
    sendList(reply, 'states', statesCall.responses[200], async () => ({ data: await listStates(app.db, country) })),
  );

  register(app, stateCitiesCall, { summary: 'Municipios de una provincia o estado' }, async (request, reply) => {
    const { id } = request.params;
    return sendList(reply, `state-cities:${id}`, stateCitiesCall.responses[200], async () => {
      const rows = await listCities(app.db, country, { stateId: id });
      return { data: rows.map(({ id: cityId, name, allowed }) => ({ id: cityId, name, allowed })) };
    });
  });

  register(
    app,
    citiesCall,
    { summary: 'Municipios; con only-allowed=true, solo los que el servicio atiende' },
    async (request, reply) => {
      const onlyAllowed = request.query['only-allowed'] === 'true';
      return sendList(reply, `cities:${onlyAllowed}`, citiesCall.responses[200], async () => ({
        data: await listCities(app.db, country, { onlyAllowed }),
      }));
    },
  );

  register(app, neighborhoodsCall, { summary: 'Sectores o colonias de un municipio' }, async (request, reply) => {
    const { id } = request.params;
    return sendList(reply, `city-neighborhoods:${id}`, neighborhoodsCall.responses[200], async () => ({
      data: await listNeighborhoods(app.db, country, id),
    }));
  });

  register(
    app,
    zipCodeCall,
    { summary: 'Colonias, municipio y estado de un código postal' },
    async (request, reply) => {
      const { code } = request.params;
      const found = await answer(`zip-code:${code}`, zipCodeCall.responses[200], async () => {
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

  register(app, businessTypesCall, { summary: 'Giros de negocio' }, async (_request, reply) =>
    sendList(reply, 'business-types', businessTypesCall.responses[200], async () => ({
      data: await listBusinessTypes(app.db, country),
    })),
  );

  register(app, salesRangesCall, { summary: 'Rangos de ventas semanales' }, async (_request, reply) => {
    return sendList(reply, 'sales-ranges', salesRangesCall.responses[200], async () => {
      const rows = await listSalesRanges(app.db, country);
      return {
        data: { ranges: rows.map(({ id: rangeId, range_description }) => ({ id: rangeId, range_description })) },
      };
    });
  });

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

  register(app, searchAddressesCall, { summary: 'Autocompletado de direcciones del país' }, async (request) => {
    try {
      return { data: await app.places.search(request.query.q, 8) };
    } catch (error) {
      throw unavailable(error);
    }
  });

  register(
    app,
    placeCall,
    { summary: 'Detalle de una dirección elegida, con su lugar en los catálogos y las listas del formulario' },
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
