import { searchKey } from '@provee/domain';
import { count, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { catalogMunicipalities, catalogNeighborhoods, catalogStates } from '../../db/schema.js';
import type { ImportedUnit, ImportReport } from './import.js';
import { neighborhoodSearchText } from './search-text.js';

// The importer's writes: an official file's units upserted into the catalogue's places.

async function total(
  tx: Tx,
  table: typeof catalogStates | typeof catalogMunicipalities | typeof catalogNeighborhoods,
): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

const BATCH = 1_000;

/**
 * Loads the units in one transaction; upserts by code, so running it again changes nothing and a
 * corrected file fixes names. Which municipalities are served (`allowed`) is never touched.
 */
export async function importUnits(db: Db, country: 'do' | 'mx', units: ImportedUnit[]): Promise<ImportReport> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
    const before = {
      states: await total(tx, catalogStates),
      municipalities: await total(tx, catalogMunicipalities),
      neighborhoods: await total(tx, catalogNeighborhoods),
    };

    const states = new Map(units.map((unit) => [unit.stateCode, unit.stateName]));
    if (states.size > 0) {
      await tx
        .insert(catalogStates)
        .values([...states].map(([code, name]) => ({ country, code, name })))
        .onConflictDoUpdate({ target: [catalogStates.country, catalogStates.code], set: { name: sql`excluded.name` } });
    }
    const stateIds = new Map(
      (await tx.select().from(catalogStates).where(eq(catalogStates.country, country))).map((row) => [row.code, row]),
    );

    const cities = new Map(units.map((unit) => [`${unit.stateCode}:${unit.cityCode}`, unit]));
    const cityRows = [...cities.values()].map((unit) => ({
      stateId: stateIds.get(unit.stateCode)!.id,
      code: unit.cityCode,
      name: unit.cityName,
    }));
    for (let i = 0; i < cityRows.length; i += BATCH) {
      await tx
        .insert(catalogMunicipalities)
        .values(cityRows.slice(i, i + BATCH))
        .onConflictDoUpdate({
          target: [catalogMunicipalities.stateId, catalogMunicipalities.code],
          set: { name: sql`excluded.name` },
        });
    }
    const cityIds = new Map(
      (await tx.select().from(catalogMunicipalities)).map((row) => [`${row.stateId}:${row.code}`, row.id]),
    );

    const seen = new Set<string>();
    const neighborhoodRows = [];
    for (const unit of units) {
      const state = stateIds.get(unit.stateCode)!;
      const municipalityId = cityIds.get(`${state.id}:${unit.cityCode}`)!;
      const key = `${municipalityId}:${unit.code}`;
      if (seen.has(key)) continue;
      seen.add(key);
      neighborhoodRows.push({
        municipalityId,
        code: unit.code,
        name: unit.name,
        zipCode: unit.zipCode,
        nameKey: searchKey(unit.name),
        searchText: neighborhoodSearchText(unit.name, unit.cityName, state.name),
      });
    }
    for (let i = 0; i < neighborhoodRows.length; i += BATCH) {
      await tx
        .insert(catalogNeighborhoods)
        .values(neighborhoodRows.slice(i, i + BATCH))
        .onConflictDoUpdate({
          target: [catalogNeighborhoods.municipalityId, catalogNeighborhoods.code],
          set: {
            name: sql`excluded.name`,
            zipCode: sql`excluded.zip_code`,
            nameKey: sql`excluded.name_key`,
            searchText: sql`excluded.search_text`,
          },
        });
    }

    const after = {
      states: await total(tx, catalogStates),
      municipalities: await total(tx, catalogMunicipalities),
      neighborhoods: await total(tx, catalogNeighborhoods),
    };
    return {
      read: units.length,
      states: { total: states.size, added: after.states - before.states },
      municipalities: { total: cities.size, added: after.municipalities - before.municipalities },
      neighborhoods: { total: neighborhoodRows.length, added: after.neighborhoods - before.neighborhoods },
    };
  });
}
