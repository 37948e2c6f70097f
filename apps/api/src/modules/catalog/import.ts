import { searchKey } from '@provee/domain';
import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { catalogMunicipalities, catalogNeighborhoods, catalogStates } from '../../db/schema.js';
import { parseDelimited } from './csv.js';
import { neighborhoodCode, neighborhoodSearchText } from './search-text.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface ImportedUnit {
  stateCode: string;
  stateName: string;
  cityCode: string;
  cityName: string;
  code: string;
  name: string;
  zipCode: string | null;
}

export interface ImportReport {
  read: number;
  states: { total: number; added: number };
  municipalities: { total: number; added: number };
  neighborhoods: { total: number; added: number };
}

export class ImportFormatError extends Error {}

/** ONE territorial division CSV (SPEC data README): the neighbourhood rows and the levels above. */
export function parseOneDo(text: string): ImportedUnit[] {
  const [header, ...rows] = parseDelimited(text.replace(/^\uFEFF/, ''));
  const columns = [
    'province',
    'municipality',
    'municipal_district',
    'section',
    'neighborhood',
    'sub_neighborhood',
    'name',
    'geo_code',
  ];
  const at = Object.fromEntries(columns.map((name) => [name, header?.indexOf(name) ?? -1]));
  if (Object.values(at).some((index) => index < 0))
    throw new ImportFormatError(`not the ONE format: the header must name ${columns.join(', ')}`);
  const cell = (row: string[], name: string) => row[at[name]!] ?? '';
  const provinces = new Map<string, string>();
  const municipalities = new Map<string, string>();
  for (const row of rows) {
    if (cell(row, 'province') === '00') continue;
    if (cell(row, 'municipality') === '00') provinces.set(cell(row, 'province'), cell(row, 'name'));
    else if (cell(row, 'municipal_district') === '00')
      municipalities.set(`${cell(row, 'province')}:${cell(row, 'municipality')}`, cell(row, 'name'));
  }
  const units: ImportedUnit[] = [];
  for (const row of rows) {
    const isNeighborhood =
      cell(row, 'neighborhood') !== '000' && cell(row, 'sub_neighborhood') === '00' && cell(row, 'province') !== '00';
    if (!isNeighborhood) continue;
    const stateCode = cell(row, 'province');
    const cityCode = cell(row, 'municipality');
    units.push({
      stateCode,
      stateName: provinces.get(stateCode) ?? stateCode,
      cityCode,
      cityName: municipalities.get(`${stateCode}:${cityCode}`) ?? cityCode,
      code: cell(row, 'geo_code'),
      name: cell(row, 'name'),
      zipCode: null,
    });
  }
  return units;
}

/** SEPOMEX's pipe-delimited file: a notice line, the header, one row per settlement ('asentamiento'). */
export function parseSepomex(text: string): ImportedUnit[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const headerAt = lines.findIndex((line) => line.startsWith('d_codigo|'));
  if (headerAt < 0) throw new ImportFormatError('not the SEPOMEX format: no header line starting with d_codigo|');
  const header = lines[headerAt]!.split('|');
  const at = (name: string) => header.indexOf(name);
  const need = ['d_codigo', 'd_asenta', 'D_mnpio', 'd_estado', 'c_estado', 'c_mnpio'];
  if (need.some((name) => at(name) < 0))
    throw new ImportFormatError(`not the SEPOMEX format: the header must name ${need.join(', ')}`);
  return lines
    .slice(headerAt + 1)
    .filter((line) => line.includes('|'))
    .map((line) => line.split('|'))
    .map((cells) => ({
      stateCode: cells[at('c_estado')]!,
      stateName: cells[at('d_estado')]!,
      cityCode: cells[at('c_mnpio')]!,
      cityName: cells[at('D_mnpio')]!,
      code: neighborhoodCode(cells[at('d_codigo')]!, cells[at('d_asenta')]!),
      name: cells[at('d_asenta')]!,
      zipCode: cells[at('d_codigo')]!,
    }));
}

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
