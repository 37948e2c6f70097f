import type { Config } from '../../config.js';
import type { Credential } from '../../pki/p12.js';
import { createMifielConservation } from './mifiel.js';
import { simulatedConservation } from './simulator.js';
import type { ConservationProvider } from './types.js';

export { ConservationUnavailable, type ConservationCertificate, type ConservationProvider } from './types.js';
export { MifielUnavailable } from './mifiel.js';

/**
 * NOM151_PROVIDER's: Mifiel's PSC API, or the simulator (config.ts refuses it in production in
 * Mexico, and requires MIFIEL_APP_ID and MIFIEL_APP_SECRET with mifiel).
 */
export function createConservationProvider(
  config: Pick<Config, 'NOM151_PROVIDER' | 'MIFIEL_BASE_URL' | 'MIFIEL_APP_ID' | 'MIFIEL_APP_SECRET'>,
  developmentAuthority: () => Promise<Credential>,
): ConservationProvider {
  if (config.NOM151_PROVIDER === 'mifiel')
    return createMifielConservation({
      baseUrl: config.MIFIEL_BASE_URL,
      appId: config.MIFIEL_APP_ID!,
      appSecret: config.MIFIEL_APP_SECRET!,
    });
  return simulatedConservation(developmentAuthority);
}
