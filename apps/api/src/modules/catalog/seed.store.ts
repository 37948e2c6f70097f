import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  catalogBusinessTypes,
  catalogMunicipalities,
  catalogNeighborhoods,
  catalogSalesRanges,
  catalogSeeds,
  catalogStates,
} from '../../db/schema.js';
import { neighborhoodCode, neighborhoodSearchText } from './search-text.js';
import { searchKey } from '@provee/domain';
import { loadDoCatalog } from './do-catalog.js';
import { BUSINESS_TYPES, SALES_RANGES } from './seed/business.js';
import { DO_SERVED_MUNICIPALITIES } from './seed/do.js';
import { MX_STATES } from './seed/mx.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

interface SeedState {
  country: 'do' | 'mx';
  code: string;
  name: string;
  municipalities: {
    code: string;
    name: string;
    allowed: boolean;
    neighborhoods: { code: string; name: string; zipCode: string | null }[];
  }[];
}

/**
 * The catalogue the product ships with, written at every start and idempotent: rows that exist
 * are left as they are (so an import or an operator's `allowed` change is never undone). The
 * Dominican file (12,675 neighbourhoods) is loaded once per version: `catalog_seeds` remembers it,
 * so later starts skip it. The advisory lock (shared with the importer) makes concurrent starts
 * of several replicas wait for each other instead of inserting twice. Answers whether it loaded the
 * Dominican file.
 */
export async function seedCatalog(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
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
    const mx: SeedState[] = MX_STATES.map((state) => ({
      country: 'mx',
      code: state.code,
      name: state.name,
      municipalities: state.municipalities.map((m) => ({
        ...m,
        neighborhoods: m.neighborhoods.map(([zip, name]) => ({
          code: neighborhoodCode(zip, name),
          name,
          zipCode: zip,
        })),
      })),
    }));
    await seedStates(tx, mx);

    const doCatalog = loadDoCatalog();
    const [loaded] = await tx
      .select({ version: catalogSeeds.version })
      .from(catalogSeeds)
      .where(eq(catalogSeeds.name, 'do'));
    if (loaded?.version === doCatalog.version) return false;
    const served = new Set(DO_SERVED_MUNICIPALITIES.map(([province, municipality]) => `${province}:${municipality}`));
    await seedStates(
      tx,
      doCatalog.provinces.map((province) => ({
        country: 'do',
        code: province.code,
        name: province.name,
        municipalities: province.municipalities.map((m) => ({
          ...m,
          allowed: served.has(`${province.code}:${m.code}`),
          neighborhoods: m.neighborhoods.map((n) => ({ ...n, zipCode: null })),
        })),
      })),
    );
    await tx
      .insert(catalogSeeds)
      .values({ name: 'do', version: doCatalog.version })
      .onConflictDoUpdate({ target: catalogSeeds.name, set: { version: doCatalog.version, loadedAt: sql`now()` } });
    return true;
  });
}

/** Inserts what is missing; never updates a row that exists. */
async function seedStates(tx: Tx, states: SeedState[]): Promise<void> {
  await tx
    .insert(catalogStates)
    .values(states.map(({ country, code, name }) => ({ country, code, name })))
    .onConflictDoNothing();
  const stateRows = await tx.select().from(catalogStates);
  const stateId = new Map(stateRows.map((row) => [`${row.country}:${row.code}`, row.id]));
  await tx
    .insert(catalogMunicipalities)
    .values(
      states.flatMap((state) =>
        state.municipalities.map((m) => ({
          stateId: stateId.get(`${state.country}:${state.code}`)!,
          code: m.code,
          name: m.name,
          allowed: m.allowed,
        })),
      ),
    )
    .onConflictDoNothing();
  if (!states.some((state) => state.municipalities.some((m) => m.neighborhoods.length > 0))) return;
  const municipalityRows = await tx.select().from(catalogMunicipalities);
  const municipalityId = new Map(municipalityRows.map((row) => [`${row.stateId}:${row.code}`, row.id]));
  const rows = states.flatMap((state) =>
    state.municipalities.flatMap((m) => {
      const id = municipalityId.get(`${stateId.get(`${state.country}:${state.code}`)}:${m.code}`)!;
      return m.neighborhoods.map((n) => ({
        municipality_id: id,
        code: n.code,
        name: n.name,
        zip_code: n.zipCode,
        name_key: searchKey(n.name),
        search_text: neighborhoodSearchText(n.name, m.name, state.name),
      }));
    }),
  );
  // One statement with the rows as one JSON parameter: about 3 times faster than batched VALUES on PGlite.
  await tx.execute(sql`
    insert into ${catalogNeighborhoods} (municipality_id, code, name, zip_code, name_key, search_text)
    select municipality_id, code, name, zip_code, name_key, search_text
    from json_to_recordset(${JSON.stringify(rows)}::json) as x(municipality_id integer, code text, name text, zip_code text, name_key text, search_text text)
    on conflict do nothing`);
}
