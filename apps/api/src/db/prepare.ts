import { seedCatalog } from '../modules/catalog/seed.js';
import type { Database } from './client.js';

/** Every start: pending migrations, then the catalogue the product ships with. */
export async function prepareDatabase(database: Database): Promise<void> {
  await database.migrate();
  await seedCatalog(database.db);
}
