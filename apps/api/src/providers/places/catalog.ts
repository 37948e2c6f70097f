import { searchKey, type CountryCode } from '@provee/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { catalogMunicipalities, catalogNeighborhoods, catalogStates } from '../../db/schema.js';
import type { AddressSearchProvider } from './index.js';

/**
 * Ranked, accent-insensitive search over the catalogue's neighbourhoods: every word of the query
 * must start a word of the neighbourhood, its municipality or its state. Exact names first, then
 * names that start with the query, then served municipalities, then shorter names.
 */
export function createCatalogPlaces(db: Db, country: CountryCode): AddressSearchProvider {
  return {
    name: 'catalog',
    async search(query, limit) {
      const key = searchKey(query);
      const words = key.split(' ').filter(Boolean).slice(0, 6);
      if (words.length === 0 || key.length < 2) return [];
      const rank = sql<number>`case when ${catalogNeighborhoods.nameKey} = ${key} then 0 when ${catalogNeighborhoods.nameKey} like ${`${key}%`} then 1 else 2 end`;
      const rows = await db
        .select({
          id: catalogNeighborhoods.id,
          name: catalogNeighborhoods.name,
          city: catalogMunicipalities.name,
          state: catalogStates.name,
        })
        .from(catalogNeighborhoods)
        .innerJoin(catalogMunicipalities, eq(catalogMunicipalities.id, catalogNeighborhoods.municipalityId))
        .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
        .where(
          and(
            eq(catalogStates.country, country),
            ...words.map((word) => sql`${catalogNeighborhoods.searchText} like ${`% ${word}%`}`),
          ),
        )
        .orderBy(
          rank,
          sql`${catalogMunicipalities.allowed} desc`,
          sql`length(${catalogNeighborhoods.name})`,
          catalogNeighborhoods.id,
        )
        .limit(limit);
      return rows.map((row) => ({
        place_id: `catalog:${row.id}`,
        description: `${row.name}, ${row.city}, ${row.state}`,
      }));
    },
    async resolve(placeId) {
      const id = /^catalog:(\d{1,10})$/.exec(placeId)?.[1];
      // Ten digits may exceed the integer column (2147483648 made the query fail): no such place.
      if (!id || Number(id) > 2_147_483_647) return null;
      const [row] = await db
        .select({
          name: catalogNeighborhoods.name,
          zip: catalogNeighborhoods.zipCode,
          city: catalogMunicipalities.name,
          state: catalogStates.name,
        })
        .from(catalogNeighborhoods)
        .innerJoin(catalogMunicipalities, eq(catalogMunicipalities.id, catalogNeighborhoods.municipalityId))
        .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
        .where(and(eq(catalogNeighborhoods.id, Number(id)), eq(catalogStates.country, country)))
        .limit(1);
      if (!row) return null;
      return {
        zip_code: row.zip ?? '',
        street_name: '',
        street_number: '',
        neighborhood: row.name,
        city: row.city,
        state: row.state,
      };
    },
  };
}
