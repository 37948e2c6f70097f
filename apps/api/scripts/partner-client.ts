// Writes the partner API's typed client types (apps/api/src/test/partner-client/partner-api.ts)
// from the OpenAPI document the app serves at /partner/v1/openapi.json: `npm run partner:client`.
import { writeFile } from 'node:fs/promises';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { prepareDatabase } from '../src/prepare-database.js';
import { PARTNER_TYPES_FILE, partnerApiTypes } from '../src/test/partner-client/generate.js';

// The document needs no data: an app on a fresh in-memory database (migrated, as the app's start
// does: building it reads the credit policy), never started.
const database = openDatabase({ dataDir: 'memory://' });
await prepareDatabase(database);
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
  WEB_DIST_DIR: '/nonexistent',
  JOB_POLL_INTERVAL_MS: '0',
});
const app = await buildApp(config, database);
try {
  const document = (await app.inject({ method: 'GET', url: '/partner/v1/openapi.json' })).json();
  await writeFile(PARTNER_TYPES_FILE, await partnerApiTypes(document));
  console.log(`wrote ${PARTNER_TYPES_FILE.pathname}`);
} finally {
  await app.close();
  await database.close();
}
