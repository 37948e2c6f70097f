import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { placeInCatalog } from './place-names.js';

interface Named {
  id: number;
  name: string;
}

/** Issue 14: the chosen place answers with what the address form needs, so the form is ready in one round trip. */
describe('GET /v1/addresses/:placeId: the place, its catalogue ids and the form lists', () => {
  let t: TestApp;
  const get = async (url: string) => (await t.app.inject({ method: 'GET', url })).json();
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('carries the ids of its province, municipality and sector, and the lists the form shows for them', async () => {
    const [first] = (await get('/api/v1/addresses/search?q=mata%20hambre')).data;
    const place = (await get(`/api/v1/addresses/${first.place_id}`)).data;
    expect(place).toMatchObject({
      neighborhood: 'Mata Hambre',
      city: 'Santo Domingo de Guzmán',
      state: 'Distrito Nacional',
    });

    // The same ids and lists the catalogue calls the form used to chain would answer.
    const state = (await get('/api/v1/states')).data.find((row: Named) => row.name === 'Distrito Nacional');
    expect(place.state_id).toBe(state.id);
    const cities = (await get(`/api/v1/states/${state.id}/cities`)).data;
    expect(place.cities).toEqual(cities);
    const city = cities.find((row: Named) => row.name === 'Santo Domingo de Guzmán');
    expect(place.city_id).toBe(city.id);
    const neighborhoods = (await get(`/api/v1/cities/${city.id}/neighborhoods`)).data;
    expect(place.neighborhoods).toEqual(neighborhoods);
    expect(place.neighborhood_id).toBe(neighborhoods.find((row: Named) => row.name === 'Mata Hambre').id);
  });

  it('names not in the catalogues: null ids from there down, and no list for them', async () => {
    const db = t.app.db;
    expect(await placeInCatalog(db, 'do', { state: 'Atlántida', city: 'Poseidonia', neighborhood: 'Centro' })).toEqual({
      state_id: null,
      city_id: null,
      neighborhood_id: null,
      cities: [],
      neighborhoods: [],
    });
    // Matched as the form matches: without accents or case.
    const partial = await placeInCatalog(db, 'do', {
      state: 'distrito nacional',
      city: 'Ciudad Perdida',
      neighborhood: 'Naco',
    });
    expect(partial).toMatchObject({
      state_id: expect.any(Number),
      city_id: null,
      neighborhood_id: null,
      neighborhoods: [],
    });
    expect(partial.cities.map((row) => row.name)).toEqual(['Santo Domingo de Guzmán']);
    const sector = await placeInCatalog(db, 'do', {
      state: 'DISTRITO NACIONAL',
      city: 'santo domingo de guzman',
      neighborhood: 'ensanche naco',
    });
    expect(sector.neighborhoods.find((row) => row.id === sector.neighborhood_id)?.name).toBe('Ensanche Naco');
  });

  it('the OpenAPI document describes the new fields', async () => {
    const doc = await get('/api/openapi.json');
    const schema = doc.paths['/api/v1/addresses/{placeId}'].get.responses['200'].content['application/json'].schema;
    const fields = schema.properties.data.properties;
    for (const field of ['state_id', 'city_id', 'neighborhood_id', 'cities', 'neighborhoods']) {
      expect(fields[field]?.description, field).toMatch(/\w/);
      expect(schema.properties.data.required, field).toContain(field);
    }
    expect(fields.cities.items.properties).toHaveProperty('allowed');
    expect(fields.neighborhoods.items.properties).toHaveProperty('zip_code');
  });
});
