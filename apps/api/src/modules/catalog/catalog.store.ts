// The catalogue's reads: states, cities, neighbourhoods, business types and sales ranges of a country.
import type { CountryCode } from '@provee/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { firstRow } from '../../db/rows.js';
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

/** The city's neighbourhood whose name matches (without accents or case), if any. */
export async function findNeighborhoodByKey(db: Db, cityId: number, nameKey: string) {
  return firstRow(
    db
      .select({ id: catalogNeighborhoods.id, name: catalogNeighborhoods.name, zipCode: catalogNeighborhoods.zipCode })
      .from(catalogNeighborhoods)
      .where(and(eq(catalogNeighborhoods.municipalityId, cityId), eq(catalogNeighborhoods.nameKey, nameKey))),
  );
}

/** A neighbourhood by id, with its city and state (a staff member's correction of a typed one). */
export async function findNeighborhoodPlace(db: Db, id: number) {
  return firstRow(
    db
      .select({
        name: catalogNeighborhoods.name,
        zipCode: catalogNeighborhoods.zipCode,
        municipalityId: catalogNeighborhoods.municipalityId,
        city: catalogMunicipalities.name,
        state: catalogStates.name,
      })
      .from(catalogNeighborhoods)
      .innerJoin(catalogMunicipalities, eq(catalogMunicipalities.id, catalogNeighborhoods.municipalityId))
      .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
      .where(eq(catalogNeighborhoods.id, id)),
  );
}

/**
 * Where a municipality lies (its state's code, INEGI's for Mexico) and whether the postcode is one of
 * the catalogue's for that state: what a bureau that files people by address is sent.
 */
export async function findMunicipalityState(db: Db, municipalityId: number, zipCode: string) {
  const place = await firstRow(
    db
      .select({ municipality: catalogMunicipalities.name, stateId: catalogStates.id, stateCode: catalogStates.code })
      .from(catalogMunicipalities)
      .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
      .where(eq(catalogMunicipalities.id, municipalityId)),
  );
  if (!place) return undefined;
  const inState = await firstRow(
    db
      .select({ id: catalogNeighborhoods.id })
      .from(catalogNeighborhoods)
      .innerJoin(catalogMunicipalities, eq(catalogMunicipalities.id, catalogNeighborhoods.municipalityId))
      .where(and(eq(catalogNeighborhoods.zipCode, zipCode), eq(catalogMunicipalities.stateId, place.stateId))),
  );
  return { municipality: place.municipality, stateCode: place.stateCode, postcodeInState: inState !== undefined };
}
