import { SIMULATED_SEAL_PROVIDER } from '@provee/domain';
import type { Credential } from '../../pki/p12.js';
import { issueTimestamp, timestampRequest, tokenFromResponse } from '../../pki/tsp.js';
import type { TimestampAuthority } from './types.js';

/** The simulator's policy: an OID under the documentation arc, never a real authority's. */
export const SIMULATED_TSA_POLICY = '1.3.6.1.4.1.58017.1.1';

/**
 * A time-stamping authority in the process, for development and tests without CONTRACT_TSA_URL:
 * the same request and the same checks as a real one, its tokens signed with a development
 * certificate (DATA_DIR) that says it is one. Never configured in production.
 */
export function simulatedAuthority(
  credential: () => Promise<Credential>,
  clock: () => Date = () => new Date(),
): TimestampAuthority {
  return {
    name: SIMULATED_SEAL_PROVIDER,
    async stamp(data) {
      const request = timestampRequest(data);
      const response = await issueTimestamp(request.der, await credential(), {
        policy: SIMULATED_TSA_POLICY,
        at: clock(),
      });
      return tokenFromResponse(response, request);
    },
  };
}
