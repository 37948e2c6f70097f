import { searchKey, type CountryCode } from '@provee/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  catalogBusinessTypes,
  catalogMunicipalities,
  catalogNeighborhoods,
  catalogSalesRanges,
  catalogStates,
} from '../../db/schema.js';

export const listStates = (db: Db, country: CountryCode) =>
  db
    .select({ id: catalogStates.id, name: catalogStates.name })
    .from(catalogStates)
    .where(eq(catalogStates.country, country))
    .orderBy(asc(catalogStates.name));

export const listCities = (db: Db, country: CountryCode, filter: { stateId?: number; onlyAllowed?: boolean }) =>
  db
    .select({
      id: catalogMunicipalities.id,
      name: catalogMunicipalities.name,
      state: catalogStates.name,
      allowed: catalogMunicipalities.allowed,
    })
    .from(catalogMunicipalities)
    .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
    .where(
      and(
        eq(catalogStates.country, country),
        filter.stateId === undefined ? undefined : eq(catalogMunicipalities.stateId, filter.stateId),
        filter.onlyAllowed ? eq(catalogMunicipalities.allowed, true) : undefined,
      ),
    )
    .orderBy(asc(catalogMunicipalities.name));

export const listNeighborhoods = (db: Db, country: CountryCode, cityId: number) =>
  db
    .select({ id: catalogNeighborhoods.id, name: catalogNeighborhoods.name, zip_code: catalogNeighborhoods.zipCode })
    .from(catalogNeighborhoods)
    .innerJoin(catalogMunicipalities, eq(catalogMunicipalities.id, catalogNeighborhoods.municipalityId))
    .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
    .where(and(eq(catalogNeighborhoods.municipalityId, cityId), eq(catalogStates.country, country)))
    .orderBy(asc(catalogNeighborhoods.name));

export const zipCodeItems = (db: Db, country: CountryCode, zip: string) =>
  db
    .select({
      neighborhood: catalogNeighborhoods.name,
      city: catalogMunicipalities.name,
      state: catalogStates.name,
      neighborhood_id: catalogNeighborhoods.id,
      city_id: catalogMunicipalities.id,
      state_id: catalogStates.id,
    })
    .from(catalogNeighborhoods)
    .innerJoin(catalogMunicipalities, eq(catalogMunicipalities.id, catalogNeighborhoods.municipalityId))
    .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
    .where(and(eq(catalogNeighborhoods.zipCode, zip), eq(catalogStates.country, country)))
    .orderBy(asc(catalogNeighborhoods.name));

export const listBusinessTypes = async (db: Db, country: CountryCode) =>
  (
    await db
      .select({ name: catalogBusinessTypes.name })
      .from(catalogBusinessTypes)
      .where(eq(catalogBusinessTypes.country, country))
      .orderBy(asc(catalogBusinessTypes.position))
  ).map((row) => row.name);

export const listSalesRanges = (db: Db, country: CountryCode) =>
  db
    .select({
      id: catalogSalesRanges.id,
      range_description: catalogSalesRanges.description,
      position: catalogSalesRanges.position,
    })
    .from(catalogSalesRanges)
    .where(eq(catalogSalesRanges.country, country))
    .orderBy(asc(catalogSalesRanges.position));

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
  const [neighborhood] = await db
    .select({ id: catalogNeighborhoods.id, name: catalogNeighborhoods.name, zipCode: catalogNeighborhoods.zipCode })
    .from(catalogNeighborhoods)
    .where(
      and(
        eq(catalogNeighborhoods.municipalityId, city.id),
        eq(catalogNeighborhoods.nameKey, searchKey(names.neighborhood)),
      ),
    )
    .limit(1);
  return { state, city, ...(neighborhood ? { neighborhood } : {}) };
}
