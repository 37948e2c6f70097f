import type { CountryCode } from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { catalogMunicipalities, catalogNeighborhoods, catalogStates } from '../../db/schema.js';

// What the catalogue's address search reads of the catalogue's places (read only: the catalogue
// module writes them).

const placesOf = (db: Db) =>
  db
    .select({
      id: catalogNeighborhoods.id,
      name: catalogNeighborhoods.name,
      nameKey: catalogNeighborhoods.nameKey,
      searchText: catalogNeighborhoods.searchText,
      zip: catalogNeighborhoods.zipCode,
      city: catalogMunicipalities.name,
      allowed: catalogMunicipalities.allowed,
      state: catalogStates.name,
    })
    .from(catalogNeighborhoods)
    .innerJoin(catalogMunicipalities, eq(catalogMunicipalities.id, catalogNeighborhoods.municipalityId))
    .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId));

/** Every neighbourhood of the country, with its city and state, for the in-memory index. */
export const listCountryPlaces = (db: Db, country: CountryCode) =>
  placesOf(db).where(eq(catalogStates.country, country));

export async function findCountryPlace(db: Db, country: CountryCode, id: number) {
  const [row] = await placesOf(db)
    .where(and(eq(catalogNeighborhoods.id, id), eq(catalogStates.country, country)))
    .limit(1);
  return row;
}
