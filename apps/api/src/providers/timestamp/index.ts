import type { Config } from '../../config.js';
import type { Credential } from '../../pki/p12.js';
import { httpAuthority } from './http.js';
import { simulatedAuthority } from './simulator.js';
import type { TimestampAuthority } from './types.js';

export { TimestampUnavailable, type Stamp, type TimestampAuthority } from './types.js';
export { SIMULATED_TSA_POLICY } from './simulator.js';

/** CONTRACT_TSA_URL's authority, or outside production (config.ts refuses it there) the simulator. */
export function createTimestampAuthority(
  config: Pick<Config, 'CONTRACT_TSA_URL' | 'CONTRACT_TSA_TIMEOUT_MS'>,
  simulator: () => Promise<Credential>,
): TimestampAuthority {
  if (!config.CONTRACT_TSA_URL) return simulatedAuthority(simulator);
  return httpAuthority(config.CONTRACT_TSA_URL, config.CONTRACT_TSA_TIMEOUT_MS);
}
