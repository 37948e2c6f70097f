import type { Config } from '../../config.js';
import { createCirculoBureau } from './circulo/index.js';
import { createBureauSimulator } from './simulator.js';
import type { BureauProvider } from './types.js';

export type { BureauAddress, BureauProvider, BureauReport, BureauSubject, ConsentEvidence } from './types.js';
export { BureauError, BureauIntegrityError, BureauRefusedError } from './bureau-error.js';

export function createBureau(config: Config): BureauProvider {
  if (config.BUREAU_PROVIDER === 'circulo') return createCirculoBureau(config);
  return createBureauSimulator({ latencyMs: config.BUREAU_LATENCY_MS, slowMs: config.BUREAU_SLOW_MS });
}
