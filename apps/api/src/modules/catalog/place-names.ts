import { searchKey, type CountryCode } from '@provee/domain';
import type { Db } from '../../db/client.js';
import { findNeighborhoodByKey, listCities, listNeighborhoods, listStates } from './catalog.store.js';

/**
 * Where a chosen place's names are in the catalogues (matched without accents or case, as the
 * address form matches them), with the lists the form shows for them: its state's cities, its
 * city's neighbourhoods. One answer makes the form ready (GET /v1/addresses/:placeId).
 */
export async function placeInCatalog(
  db: Db,
  country: CountryCode,
  names: { state: string; city: string; neighborhood: string },
) {
  const byName = (name: string) => (row: { name: string }) => searchKey(row.name) === searchKey(name);
  const state = (await listStates(db, country)).find(byName(names.state));
  const cities = state
    ? (await listCities(db, country, { stateId: state.id })).map(({ id, name, allowed }) => ({ id, name, allowed }))
    : [];
  const city = cities.find(byName(names.city));
  const neighborhoods = city ? await listNeighborhoods(db, country, city.id) : [];
  const neighborhood = neighborhoods.find(byName(names.neighborhood));
  return {
    state_id: state?.id ?? null,
    city_id: city?.id ?? null,
    neighborhood_id: neighborhood?.id ?? null,
    cities,
    neighborhoods,
  };
}

export interface ResolvedAddress {
  state?: { id: number; name: string };
  city?: { id: number; name: string; allowed: boolean };
  neighborhood?: { id: number; name: string; zipCode: string | null };
}

/**
 * The catalogue rows behind the names an address was sent with (matched without accents or case),
 * as far as they go: a missing level means the name is not in the catalogue.
 */
export async function resolveAddressNames(
  db: Db,
  country: CountryCode,
  names: { state: string; city: string; neighborhood: string },
): Promise<ResolvedAddress> {
  const states = await listStates(db, country);
  const state = states.find((row) => searchKey(row.name) === searchKey(names.state));
  if (!state) return {};
  const cities = await listCities(db, country, { stateId: state.id });
  const city = cities.find((row) => searchKey(row.name) === searchKey(names.city));
  if (!city) return { state };
  const neighborhood = await findNeighborhoodByKey(db, city.id, searchKey(names.neighborhood));
  return { state, city, ...(neighborhood ? { neighborhood } : {}) };
}
