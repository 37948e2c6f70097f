import { parseDelimited } from './csv.js';
import { neighborhoodCode } from './search-text.js';

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
