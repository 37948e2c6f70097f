import type { IdentityWidget, PersonType } from '@provee/domain';
import type { Config } from '../../config.js';
import { metamapFlowId } from './metamap.js';

export { simulatedAnswer, IDENTITY_TEST_CASES } from './simulator.js';

/** Who the widget verifies, as the provider's metadata carries it back (SPEC §3 widget metadata). */
export interface WidgetSubject {
  userId: string;
  signerId: string;
  personType: PersonType;
  /** The provider's identity id from an earlier check (MetaMap: mati_identity_id). */
  identityId: string | null;
  /** The server's HMAC over the signer id (signerProof), returned by MetaMap with its answers. */
  proof: string;
}

/**
 * The verification widget the signing page shows. The built-in one captures the documents in
 * the page and uploads them (POST …/identity-documents) to the simulator; MetaMap's button sends
 * them to MetaMap, whose answers arrive at POST /v1/webhooks/identity/metamap.
 */
export function identityWidget(config: Config, subject: WidgetSubject): IdentityWidget {
  if (config.IDENTITY_PROVIDER !== 'metamap') return { provider: 'builtin' };
  return {
    provider: 'metamap',
    client_id: config.METAMAP_CLIENT_ID!,
    flow_id: metamapFlowId(
      { flowId: config.METAMAP_FLOW_ID!, reverificationFlowId: config.METAMAP_REVERIFICATION_FLOW_ID! },
      subject.identityId,
    ),
    metadata: {
      account_id: subject.userId,
      account_type_id: 'SK',
      person_type: subject.personType,
      signer_id: subject.signerId,
      signer_proof: subject.proof,
    },
  };
}
