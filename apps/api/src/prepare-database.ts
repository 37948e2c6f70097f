import type { Database } from './db/client.js';
import { seedCatalog } from './modules/catalog/index.js';

/**
 * Every start (server, build, scripts, tests): pending migrations, then the catalogue the product
 * ships with. It stands above db/ and the modules, so the database never reaches up into one.
 * Answers whether the catalogue's large file was loaded (a first start, or a newer shipped catalogue).
 */
export async function prepareDatabase(database: Database): Promise<{ seeded: boolean }> {
  await database.migrate();
  return { seeded: await seedCatalog(database.db) };
}
