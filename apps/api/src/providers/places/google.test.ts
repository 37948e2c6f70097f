import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.js';
import { PlacesError } from './index.js';
import { createGooglePlaces } from './google.js';

/** A local stand-in for the Places API: answers from a table and records the calls. */
let server: Server;
let baseUrl = '';
const calls: URL[] = [];
let failing = false;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    calls.push(url);
    response.setHeader('content-type', 'application/json');
    if (failing) return response.end(JSON.stringify({ status: 'REQUEST_DENIED', error_message: 'bad key' }));
    if (url.pathname === '/maps/api/place/autocomplete/json') {
      return response.end(
        JSON.stringify({
          status: 'OK',
          predictions: [
            { place_id: 'ChIJabc', description: 'Calle El Conde 105, Santo Domingo, República Dominicana' },
          ],
        }),
      );
    }
    if (url.pathname === '/maps/api/place/details/json') {
      return response.end(
        JSON.stringify({
          status: 'OK',
          result: {
            address_components: [
              { long_name: '105', types: ['street_number'] },
              { long_name: 'Calle El Conde', types: ['route'] },
              { long_name: 'Ciudad Colonial', types: ['sublocality_level_1', 'sublocality'] },
              { long_name: 'Santo Domingo de Guzmán', types: ['administrative_area_level_2'] },
              { long_name: 'Distrito Nacional', types: ['administrative_area_level_1'] },
              { long_name: '10210', types: ['postal_code'] },
            ],
          },
        }),
      );
    }
    response.statusCode = 404;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('google places provider', () => {
  it('asks Autocomplete restricted to the country, in Spanish, with the key', async () => {
    failing = false;
    const places = createGooglePlaces({ apiUrl: baseUrl, apiKey: 'k-123', country: 'do' });
    expect(await places.search('el conde 105', 5)).toEqual([
      { place_id: 'google:ChIJabc', description: 'Calle El Conde 105, Santo Domingo, República Dominicana' },
    ]);
    const call = calls.at(-1)!;
    expect(Object.fromEntries(call.searchParams)).toMatchObject({
      input: 'el conde 105',
      components: 'country:do',
      language: 'es',
      key: 'k-123',
    });
  });

  it('reads the address components of the chosen place', async () => {
    failing = false;
    const places = createGooglePlaces({ apiUrl: baseUrl, apiKey: 'k-123', country: 'do' });
    expect(await places.resolve('google:ChIJabc')).toEqual({
      zip_code: '10210',
      street_name: 'Calle El Conde',
      street_number: '105',
      neighborhood: 'Ciudad Colonial',
      city: 'Santo Domingo de Guzmán',
      state: 'Distrito Nacional',
    });
    expect(calls.at(-1)!.searchParams.get('place_id')).toBe('ChIJabc');
    expect(await places.resolve('catalog:1')).toBeNull();
  });

  it('a refusal becomes PlacesError, and the API answers 503 in Spanish', async () => {
    failing = true;
    const places = createGooglePlaces({ apiUrl: baseUrl, apiKey: 'k-123', country: 'do' });
    await expect(places.search('x', 5)).rejects.toBeInstanceOf(PlacesError);
    const t = await createTestApp({
      ADDRESS_PROVIDER: 'google',
      GOOGLE_PLACES_API_KEY: 'k',
      GOOGLE_PLACES_API_URL: baseUrl,
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/addresses/search?q=conde' });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('ADDRESS_SEARCH_UNAVAILABLE');
    } finally {
      await t.close();
      failing = false;
    }
  });
});
