import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentP12 } from '../pki/p12.js';

let file: string | undefined;

/**
 * What production needs for the contract's seal (issue 36): a lender's PKCS#12 (made once per test
 * process) and a time-stamping authority's address (nothing is sealed where this is used).
 */
export function productionSealEnv() {
  if (!file) {
    file = join(mkdtempSync(join(tmpdir(), 'provee-seal-')), 'lender.p12');
    developmentP12(file, 'clave', { commonName: 'Prestamos de Prueba sello', organization: 'Prestamos de Prueba' });
  }
  return {
    CONTRACT_SEAL_P12_FILE: file,
    CONTRACT_SEAL_P12_PASSWORD: 'clave',
    CONTRACT_TSA_URL: 'https://tsa.example.test/',
  };
}
