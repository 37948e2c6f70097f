// Regenerates apps/api/src/modules/catalog/seed/do-catalog.json.gz from the ONE territorial
// division (default ../shared/data/do-territorial-division-2020.csv, or the path given).
// Run: npm run catalog:generate-do [-- <file.csv>]
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { decodeDoCatalog, encodeDoCatalog } from '../src/modules/catalog/do-catalog.js';
import { parseOneDo } from '../src/modules/catalog/import.js';
import { API_ROOT, DO_CATALOG_FILE } from '../src/paths.js';

const source = resolve(process.argv[2] ?? resolve(API_ROOT, '../../../shared/data/do-territorial-division-2020.csv'));
const units = parseOneDo(readFileSync(source, 'utf8'));
const json = JSON.stringify(encodeDoCatalog(units));
const read = new Map(units.map((unit) => [unit.code, `${unit.stateName}|${unit.cityName}|${unit.name}`]));
const back = decodeDoCatalog(json).provinces.flatMap((p) =>
  p.municipalities.flatMap((m) => m.neighborhoods.map((n) => [n.code, `${p.name}|${m.name}|${n.name}`] as const)),
);
if (back.length !== read.size || back.some(([code, names]) => read.get(code) !== names))
  throw new Error('the compact file does not give back the units read');
const gz = gzipSync(json, { level: 9 });
writeFileSync(DO_CATALOG_FILE, gz);
console.log(`${DO_CATALOG_FILE}: ${units.length} sectores, ${json.length} bytes JSON, ${gz.length} bytes gzip`);
