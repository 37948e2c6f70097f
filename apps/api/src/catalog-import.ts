import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { prepareDatabase } from './prepare-database.js';
import { ImportFormatError, parseOneDo, parseSepomex } from './modules/catalog/import.js';
import { importUnits } from './modules/catalog/import.store.js';

const USAGE = 'Uso: npm run catalog:import -- --format one-do|sepomex <archivo>';

/** Reads a file as UTF-8, or as Latin-1 when it is not valid UTF-8 (SEPOMEX publishes both). */
function readText(path: string): string {
  const bytes = readFileSync(path);
  const utf8 = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return utf8.includes('\uFFFD') ? new TextDecoder('latin1').decode(bytes) : utf8;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const formatAt = args.indexOf('--format');
  const format = formatAt >= 0 ? args[formatAt + 1] : undefined;
  const file = args.find((arg, index) => !arg.startsWith('--') && index !== formatAt + 1);
  if ((format !== 'one-do' && format !== 'sepomex') || !file) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await prepareDatabase(database);
    const text = readText(file);
    const units = format === 'one-do' ? parseOneDo(text) : parseSepomex(text);
    const started = Date.now();
    const report = await importUnits(database.db, format === 'one-do' ? 'do' : 'mx', units);
    console.log(
      `Importado ${file} (${format}) en ${Date.now() - started} ms: ${report.read} filas leídas; ` +
        `estados ${report.states.total} (${report.states.added} nuevos), ` +
        `municipios ${report.municipalities.total} (${report.municipalities.added} nuevos), ` +
        `sectores/colonias ${report.neighborhoods.total} (${report.neighborhoods.added} nuevos).`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ImportFormatError) console.error(error.message);
  else console.error('No se pudo importar:', error);
  process.exit(1);
});
