import { searchKey } from '@provee/domain';
import { count, eq, sql } from 'drizzle-orm';
import type { IndexColumn, PgInsertValue } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.js';
import { catalogMunicipalities, catalogNeighborhoods, catalogStates } from '../../db/schema.js';
import { takeFromExcluded } from '../../db/upsert.js';
import type { ImportedUnit, ImportReport } from './import.js';
import { neighborhoodSearchText } from './search-text.js';

// The importer's writes: an official file's units upserted into the catalogue's places.

type PlaceTable = typeof catalogStates | typeof catalogMunicipalities | typeof catalogNeighborhoods;

async function total(tx: Tx, table: PlaceTable): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

const BATCH = 1_000;

/** Inserts the rows `BATCH` at a time; a row already there by `target` gets the new values of `columns`. */
async function upsertInBatches<Table extends PlaceTable>(
  tx: Tx,
  table: Table,
  rows: PgInsertValue<Table>[],
  upsert: { target: IndexColumn[]; columns: (keyof Table['_']['columns'] & string)[] },
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx
      .insert(table)
      .values(rows.slice(i, i + BATCH))
      .onConflictDoUpdate({ target: upsert.target, set: takeFromExcluded(table, upsert.columns) });
  }
}

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
    await upsertInBatches(
      tx,
      catalogStates,
      [...states].map(([code, name]) => ({ country, code, name })),
      { target: [catalogStates.country, catalogStates.code], columns: ['name'] },
    );
    const stateIds = new Map(
      (await tx.select().from(catalogStates).where(eq(catalogStates.country, country))).map((row) => [row.code, row]),
    );

    const cities = new Map(units.map((unit) => [`${unit.stateCode}:${unit.cityCode}`, unit]));
    const cityRows = [...cities.values()].map((unit) => ({
      stateId: stateIds.get(unit.stateCode)!.id,
      code: unit.cityCode,
      name: unit.cityName,
    }));
    await upsertInBatches(tx, catalogMunicipalities, cityRows, {
      target: [catalogMunicipalities.stateId, catalogMunicipalities.code],
      columns: ['name'],
    });
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
    await upsertInBatches(tx, catalogNeighborhoods, neighborhoodRows, {
      target: [catalogNeighborhoods.municipalityId, catalogNeighborhoods.code],
      columns: ['name', 'zipCode', 'nameKey', 'searchText'],
    });

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
