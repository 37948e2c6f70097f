import { seedCatalog } from '../modules/catalog/seed.js';
import type { Database } from './client.js';

/**
 * Every start: pending migrations, then the catalogue the product ships with. Answers whether the
 * catalogue's large file was loaded (a first start, or a newer shipped catalogue).
 */
export async function prepareDatabase(database: Database): Promise<{ seeded: boolean }> {
  await database.migrate();
  return { seeded: await seedCatalog(database.db) };
}
