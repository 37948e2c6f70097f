import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { PersonType } from '@provee/domain';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { MetamapEvent } from '../../providers/identity/metamap.js';
import { engineOf, moveSigner, uniqueViolation, type SignerRow } from '../application/index.js';
import { answerCheck } from './answers.js';
import { attemptLeft, findCheckIdByProviderId, findSigner, insertCheck, oneMoreAttempt } from './checks.store.js';
import type { IdentityDeps } from './deps.js';
import { refuseCheck } from './identity-check.js';

/**
 * Checks an external provider runs (MetaMap: its button on the signing page, its webhook here).
 * The signer reaches the provider through their browser, so what the provider says of them counts
 * only with the server's proof over the signer id.
 */

type ExternalDeps = Pick<IdentityDeps, 'db' | 'clock' | 'config' | 'secrets'>;

/** The server's HMAC over a signer id, given to MetaMap's button and checked on its answers. */
export function signerProof(deps: Pick<IdentityDeps, 'secrets'>, signerId: string): string {
  return createHmac('sha256', deps.secrets.key('identity-metadata')).update(signerId).digest('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The signer a provider's webhook names. The metadata went through the signer's browser, so it
 * counts only with the server's proof over the signer id (a page cannot name another signer).
 */
export async function signerFromMetadata(
  deps: Pick<IdentityDeps, 'db' | 'secrets'>,
  metadata: {
    account_id: string;
    person_type: PersonType;
    signer_id?: string | undefined;
    signer_proof?: string | undefined;
  },
): Promise<SignerRow | null> {
  const { signer_id: signerId, signer_proof: proof } = metadata;
  if (!signerId || !proof || !UUID.test(signerId)) return null;
  const expected = Buffer.from(signerProof(deps, signerId));
  const given = Buffer.from(proof);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const signer = await findSigner(deps.db, signerId);
  return signer && signer.userId === metadata.account_id && signer.personType === metadata.person_type ? signer : null;
}

/**
 * A check started by an external provider (MetaMap's webhook), idempotent on the provider's id:
 * the same start delivered twice counts once. `within` runs in the start's transaction (the
 * webhook records its delivery there).
 */
export async function startExternalCheck(
  deps: Pick<IdentityDeps, 'db' | 'clock' | 'config'>,
  signer: SignerRow,
  provider: string,
  providerVerificationId: string,
  identityId: string | null,
  payload: Record<string, unknown>,
  within?: (tx: Tx) => Promise<void>,
): Promise<'started' | 'duplicate' | 'refused'> {
  if (await findCheckIdByProviderId(deps.db, providerVerificationId)) return 'duplicate';
  const reverification = signer.state === 'VERIFIED';
  const verificationId = randomUUID();
  const now = deps.clock();
  try {
    await moveSigner(engineOf(deps), {
      signerId: signer.id,
      transition: reverification ? 'reverification-started' : 'verification-started',
      to: 'VERIFYING',
      actor: `provider:${provider}`,
      guard: attemptLeft(deps.config.IDENTITY_MAX_ATTEMPTS),
      set: {
        verificationAttempts: oneMoreAttempt(),
        currentVerificationId: verificationId,
        ...(identityId ? { identityId } : {}),
      },
      conflict: (current) => refuseCheck(deps, current),
      write: async (tx) => {
        await insertCheck(tx, {
          id: verificationId,
          signerId: signer.id,
          provider,
          verificationType: reverification ? 'REVERIFICATION' : 'VERIFICATION',
          status: 'PENDING',
          providerVerificationId,
          identityId,
          answer: payload,
          createdAt: now,
        });
        await within?.(tx);
      },
      event: {
        type: 'identity.check_started',
        payload: { verification_id: verificationId, provider, provider_verification_id: providerVerificationId },
      },
    });
    return 'started';
  } catch (error) {
    if (error instanceof AppError) return 'refused';
    // The same start delivered twice at once: the other delivery recorded it.
    if (uniqueViolation(error) !== null) return 'duplicate';
    throw error;
  }
}

/**
 * What one MetaMap delivery does: a start opens a check for the signer its metadata names; an
 * answer moves the signer. `within` runs in the transaction of whatever it changes (the delivery's
 * record).
 */
export async function handleMetamapEvent(
  deps: ExternalDeps,
  event: MetamapEvent | null,
  within: (tx: Tx) => Promise<void>,
): Promise<string> {
  if (!event?.verificationId) return 'ignored';
  let checkId = await findCheckIdByProviderId(deps.db, event.verificationId);
  let outcome = 'recorded';
  if (!checkId) {
    const signer = event.metadata ? await signerFromMetadata(deps, event.metadata) : null;
    if (!signer) return 'unknown-signer';
    outcome = await startExternalCheck(
      deps,
      signer,
      'metamap',
      event.verificationId,
      event.identityId,
      { event: event.eventName },
      within,
    );
    checkId = await findCheckIdByProviderId(deps.db, event.verificationId);
  }
  if (checkId && event.status) {
    outcome = await answerCheck(
      deps,
      checkId,
      event.status,
      'provider:metamap',
      { event: event.eventName, flow_id: event.flowId },
      event.identityId,
      within,
    );
  }
  return outcome;
}
