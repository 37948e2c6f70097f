import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { API_ROOT } from '../src/paths.js';

const run = promisify(execFile);
const cli = join(API_ROOT, 'dist/catalog-import.js');
const ONE_FILE = join(API_ROOT, '../../../shared/data/do-territorial-division-2020.csv');

// `npm run catalog:import` runs this built script; here against a throw-away embedded database.
describe('catalog:import command', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'provee-import-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH, DATA_DIR: dataDir };

  it('loads the shared ONE file and reports the counts; the product ships that file, so nothing is new', async () => {
    const first = await run(process.execPath, [cli, '--format', 'one-do', ONE_FILE], { env });
    expect(first.stdout).toMatch(
      /12675 filas leídas; estados 32 \(0 nuevos\), municipios 158 \(0 nuevos\), sectores\/colonias 12675 \(0 nuevos\)/,
    );
    const second = await run(process.execPath, [cli, '--format', 'one-do', ONE_FILE], { env });
    expect(second.stdout).toMatch(/sectores\/colonias 12675 \(0 nuevos\)/);
  }, 120_000);

  it('loads a SEPOMEX file written in Latin-1', async () => {
    const file = join(dataDir, 'CPdescarga.txt');
    const text = [
      'El Catálogo Nacional de Códigos Postales',
      'd_codigo|d_asenta|d_tipo_asenta|D_mnpio|d_estado|d_ciudad|d_CP|c_estado|c_oficina|c_CP|c_tipo_asenta|c_mnpio|id_asenta_cpcons|d_zona|c_cve_ciudad',
      '57100|Ampliación Las Águilas|Colonia|Nezahualcóyotl|México|Ciudad Nezahualcóyotl|57001|15|57001||09|058|0101|Urbano|11',
    ].join('\n');
    writeFileSync(file, Buffer.from(text, 'latin1'));
    const result = await run(process.execPath, [cli, '--format', 'sepomex', file], { env });
    expect(result.stdout).toMatch(/1 filas leídas.*sectores\/colonias 1 \(1 nuevos\)/);
  }, 60_000);

  it('says how to use it when the arguments are wrong', async () => {
    const error = await run(process.execPath, [cli, '--format', 'xml', 'file'], { env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(error).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Uso: npm run catalog:import -- --format one-do|sepomex <archivo>'),
    });
  });
});
