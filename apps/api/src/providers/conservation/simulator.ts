import { SIMULATED_SEAL_PROVIDER } from '@provee/domain';
import { randomUUID } from 'node:crypto';
import type { Credential } from '../../pki/p12.js';
import { issueTimestamp, timestampRequest, tokenFromResponse } from '../../pki/tsp.js';
import type { ConservationProvider } from './types.js';

/** The simulator's policy: under the documentation arc, never an accredited PSC's. */
export const SIMULATED_NOM151_POLICY = '1.3.6.1.4.1.58017.1.2';

/**
 * NOM-151 without a provider (development, tests): a constancia shaped like a PSC's (an RFC 3161
 * answer over the document's SHA-256), signed with the development authority's certificate.
 */
export function simulatedConservation(
  authority: () => Promise<Credential>,
  clock = () => new Date(),
): ConservationProvider {
  return {
    name: SIMULATED_SEAL_PROVIDER,
    async certify(document) {
      const request = timestampRequest(document);
      const record = await issueTimestamp(request.der, await authority(), {
        policy: SIMULATED_NOM151_POLICY,
        at: clock(),
      });
      const { genTime } = await tokenFromResponse(record, request);
      return { reference: `sim-${randomUUID()}`, record, issuedAt: genTime };
    },
  };
}
