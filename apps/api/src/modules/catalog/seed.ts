import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { catalogBusinessTypes, catalogMunicipalities, catalogNeighborhoods, catalogSalesRanges, catalogStates } from '../../db/schema.js';
import { neighborhoodCode, neighborhoodSearchText } from './search-text.js';
import { searchKey } from '@provee/domain';
import { BUSINESS_TYPES, SALES_RANGES } from './seed/business.js';
import { DO_PROVINCES } from './seed/do.js';
import { MX_STATES } from './seed/mx.js';

/**
 * The catalogue the product ships with, written at every start and idempotent: rows that exist
 * are left as they are (so an import or an operator's `allowed` change is never undone).
 */
export async function seedCatalog(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    for (const country of ['do', 'mx'] as const) {
      await tx
        .insert(catalogBusinessTypes)
        .values(BUSINESS_TYPES[country].map((name, position) => ({ country, name, position })))
        .onConflictDoNothing();
      await tx
        .insert(catalogSalesRanges)
        .values(SALES_RANGES[country].map((description, position) => ({ country, description, position })))
        .onConflictDoNothing();
    }
    const states = [
      ...DO_PROVINCES.map((state) => ({ country: 'do', ...state, municipalities: state.municipalities.map(([code, name, allowed]) => ({ code, name, allowed: allowed ?? false, neighborhoods: [] as [string, string][] })) })),
      ...MX_STATES.map((state) => ({ country: 'mx', ...state })),
    ];
    await tx
      .insert(catalogStates)
      .values(states.map(({ country, code, name }) => ({ country, code, name })))
      .onConflictDoNothing();
    const stateRows = await tx.select().from(catalogStates);
    const stateId = new Map(stateRows.map((row) => [`${row.country}:${row.code}`, row.id]));
    await tx
      .insert(catalogMunicipalities)
      .values(states.flatMap((state) => state.municipalities.map((m) => ({ stateId: stateId.get(`${state.country}:${state.code}`)!, code: m.code, name: m.name, allowed: m.allowed }))))
      .onConflictDoNothing();
    const withNeighborhoods = states.flatMap((state) => state.municipalities.filter((m) => m.neighborhoods.length > 0).map((m) => ({ state, m })));
    if (withNeighborhoods.length === 0) return;
    const municipalityRows = await tx.select().from(catalogMunicipalities);
    const municipalityId = new Map(municipalityRows.map((row) => [`${row.stateId}:${row.code}`, row.id]));
    await tx
      .insert(catalogNeighborhoods)
      .values(
        withNeighborhoods.flatMap(({ state, m }) =>
          m.neighborhoods.map(([zip, name]) => ({
            municipalityId: municipalityId.get(`${stateId.get(`${state.country}:${state.code}`)}:${m.code}`)!,
            code: neighborhoodCode(zip, name),
            name,
            zipCode: zip,
            nameKey: searchKey(name),
            searchText: neighborhoodSearchText(name, m.name, state.name),
          })),
        ),
      )
      .onConflictDoNothing();
  });
}
