import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DO_CATALOG_FILE } from '../../paths.js';
import type { ImportedUnit } from './import.js';

/**
 * The Dominican catalogue the product ships with (`seed/do-catalog.json.gz`), generated from the
 * ONE file by `npm run catalog:generate-do` with the importer's own parser, so importing that file
 * later changes nothing. Neighbourhoods are nested under their municipality (municipal districts
 * and sections are not levels of the address form; their digits stay inside the ONE code).
 *
 * Shape: `[[provinceCode, provinceName, regionPrefix, [[municipalityCode, name, [suffix, name, suffix, name, ...]]]]]`
 * where a neighbourhood's ONE code is `regionPrefix + provinceCode + municipalityCode + suffix + '00'`.
 */
export type DoCatalogFile = [
  code: string,
  name: string,
  prefix: string,
  municipalities: [code: string, name: string, neighborhoods: string[]][],
][];

export interface DoCatalog {
  /** SHA-256 of the file's content: the seed loads a version once. */
  version: string;
  provinces: {
    code: string;
    name: string;
    municipalities: { code: string; name: string; neighborhoods: { code: string; name: string }[] }[];
  }[];
}

/** Units of `parseOneDo` → the compact file (the generator's half). */
export function encodeDoCatalog(units: ImportedUnit[]): DoCatalogFile {
  const provinces = new Map<string, DoCatalogFile[number]>();
  for (const unit of units) {
    const match = /^(\d{4})(\d{2})(\d{2})(\d{7})00$/.exec(unit.code);
    if (!match || match[2] !== unit.stateCode || match[3] !== unit.cityCode)
      throw new Error(`unexpected ONE code ${unit.code} for ${unit.stateCode}/${unit.cityCode}`);
    const prefix = match[1]!;
    let province = provinces.get(unit.stateCode);
    if (!province) provinces.set(unit.stateCode, (province = [unit.stateCode, unit.stateName, prefix, []]));
    if (province[2] !== prefix) throw new Error(`province ${unit.stateCode} has two region prefixes`);
    let municipality = province[3].find(([code]) => code === unit.cityCode);
    if (!municipality) province[3].push((municipality = [unit.cityCode, unit.cityName, []]));
    municipality[2].push(match[4]!, unit.name);
  }
  return [...provinces.values()].sort((a, b) => a[0].localeCompare(b[0]));
}

export function decodeDoCatalog(json: string): DoCatalog {
  const file = JSON.parse(json) as DoCatalogFile;
  return {
    version: createHash('sha256').update(json).digest('hex'),
    provinces: file.map(([code, name, prefix, municipalities]) => ({
      code,
      name,
      municipalities: municipalities.map(([cityCode, cityName, flat]) => {
        const neighborhoods = [];
        for (let i = 0; i < flat.length; i += 2)
          neighborhoods.push({ code: `${prefix}${code}${cityCode}${flat[i]}00`, name: flat[i + 1]! });
        return { code: cityCode, name: cityName, neighborhoods };
      }),
    })),
  };
}

let loaded: DoCatalog | undefined;

/** Read once per process (about 100 KB gzip'd). */
export function loadDoCatalog(): DoCatalog {
  loaded ??= decodeDoCatalog(gunzipSync(readFileSync(DO_CATALOG_FILE)).toString('utf8'));
  return loaded;
}
