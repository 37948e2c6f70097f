import type { ContractEvidence, PersonType, SignerState } from '@provee/domain';
import type { ClientAddress } from '../../client-address.js';
import type { Executor } from '../../db/client.js';
import { invalidFields } from '../../errors.js';
import type { SignerRow } from '../application/index.js';
import { lastEventAt, phoneAuditId } from '../audit/index.js';
import { latestAvalConsent, latestTitularConsentFolio } from '../credit/index.js';
import { findCheck, findChecks, type CheckRow } from '../identity/index.js';
import { CONTRACT_NOT_FOUND } from './contract.js';
import type { SigningDeps } from './deps.js';
import type { SignatureEvidence } from './document/index.js';
import { findSeal } from './seal/seal.store.js';
import { sealView } from './seal/seal-view.js';
import { findContract, signedSha256Of, signersOf, type ContractRow } from './signing.store.js';

/**
 * The evidence of a signature (SPEC §4): what was recorded when the signer signed (stored as JSON
 * with the signature, printed on the signer's evidence page), and the contract's evidence as the
 * signer's link and the back office read it.
 */

/** What a signer's evidence records. */
export interface StoredEvidence {
  contract_id: string;
  link_id: string;
  template_version: string;
  signed_at: string;
  /** The client's address as trusted; the connection's own and X-Forwarded-For as received (issue 26). */
  ip: string;
  peer_ip?: string | null;
  forwarded_for?: string | null;
  user_agent: string | null;
  geolocation: Record<string, unknown> | null;
  phone_verified_at: string | null;
  consent_folio: string | null;
  verification: { id: string; provider: string; status: string; identity_id: string | null } | null;
  unsigned_sha256: string;
  signature_sha256: string;
  /** The application's audit chain's last hash when the signature was made (issue 36). */
  audit_chain_head?: string | null;
}

/** What a browser's position holds (GeolocationCoordinates and its timestamp): numbers only. */
const GEOLOCATION_KEYS = [
  'latitude',
  'longitude',
  'accuracy',
  'altitude',
  'altitudeAccuracy',
  'heading',
  'speed',
  'timestamp',
];

/** The position the signing page sent (JSON, or nothing), or a 400 on `metadata`. */
export function geolocationOf(metadata: string): Record<string, number | null> | null {
  if (!metadata.trim()) return null;
  const refused = invalidFields({ metadata: 'La ubicación enviada no es válida.' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    throw refused;
  }
  if (parsed === null) return null;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw refused;
  const position: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!GEOLOCATION_KEYS.includes(key)) throw refused;
    if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) throw refused;
    position[key] = value;
  }
  return position;
}

/** When the signer's phone was proven: the shopkeeper's code, or the guarantor's PIN or message. */
export async function phoneProof(deps: Pick<SigningDeps, 'secrets'>, db: Executor, signer: SignerRow) {
  if (signer.avalId) {
    const consent = await latestAvalConsent(db, signer.avalId);
    return { phoneVerifiedAt: consent?.at ?? null, consentFolio: consent?.folio ?? null };
  }
  return {
    phoneVerifiedAt: await lastEventAt(db, phoneAuditId(deps, signer.phoneE164), 'phone.proven'),
    consentFolio: await latestTitularConsentFolio(db, signer.userId),
  };
}
export type PhoneProof = Awaited<ReturnType<typeof phoneProof>>;

/** Where a signature came from: the client's address and its browser. */
export type SignedFrom = ClientAddress & { userAgent: string | undefined };

/** What one signature records, before the contract, the check and the phone proof are read. */
export interface SignatureFacts {
  linkId: string;
  signedAt: Date;
  from: SignedFrom;
  geolocation: Record<string, number | null> | null;
  signatureSha256: string;
  /** The application's audit chain's last hash, read before the document was built. */
  auditChainHead: string | null;
}

/** This signature's record, from the contract, the identity check and the phone proof as read. */
export const evidenceRecord = (
  facts: SignatureFacts,
  contract: ContractRow,
  check: CheckRow | undefined,
  proof: PhoneProof,
): StoredEvidence => ({
  contract_id: contract.id,
  link_id: facts.linkId,
  template_version: contract.templateVersion,
  signed_at: facts.signedAt.toISOString(),
  ip: facts.from.ip,
  peer_ip: facts.from.peerIp,
  forwarded_for: facts.from.forwardedFor,
  user_agent: facts.from.userAgent?.slice(0, 512) ?? null,
  geolocation: facts.geolocation,
  phone_verified_at: proof.phoneVerifiedAt?.toISOString() ?? null,
  consent_folio: proof.consentFolio,
  verification: check ? checkSummary(check) : null,
  unsigned_sha256: contract.unsignedSha256,
  signature_sha256: facts.signatureSha256,
  audit_chain_head: facts.auditChainHead,
});

/** The record of this signature as the database stands now (read again inside the signing transaction). */
export async function evidenceAsItStands(
  deps: Pick<SigningDeps, 'secrets'>,
  db: Executor,
  signer: SignerRow,
  contract: ContractRow,
  facts: SignatureFacts,
): Promise<StoredEvidence> {
  const check = signer.currentVerificationId ? await findCheck(db, signer.currentVerificationId) : undefined;
  return evidenceRecord(facts, contract, check, await phoneProof(deps, db, signer));
}

const checkSummary = (check: CheckRow) => ({
  id: check.id,
  provider: check.provider,
  status: check.status,
  identity_id: check.identityId,
});

/** The record as the evidence page prints it. */
export function documentEvidence(evidence: StoredEvidence): SignatureEvidence {
  return {
    signedAt: new Date(evidence.signed_at),
    ip: evidence.ip,
    peerIp: evidence.peer_ip ?? null,
    forwardedFor: evidence.forwarded_for ?? null,
    userAgent: evidence.user_agent,
    geolocation: evidence.geolocation,
    phoneVerifiedAt: evidence.phone_verified_at ? new Date(evidence.phone_verified_at) : null,
    consentFolio: evidence.consent_folio,
    verification: evidence.verification
      ? {
          id: evidence.verification.id,
          provider: evidence.verification.provider,
          status: evidence.verification.status,
          identityId: evidence.verification.identity_id,
        }
      : null,
    unsignedSha256: evidence.unsigned_sha256,
    signatureSha256: evidence.signature_sha256,
    auditChainHead: evidence.audit_chain_head ?? null,
  };
}

/**
 * The contract's evidence: its hashes and, per signer, where they stand and what their signature
 * recorded. The time-stamp replaces the signed file, its hash and the seal's state in one
 * transaction (seal/completion.ts); read between two reads of the contract that agree, the seal is
 * of the same moment as the hash, never "stamped" beside the hash of the file before it (seen in an
 * e2e run on a loaded machine). Otherwise a change landed in between: read again.
 */
export async function contractEvidence(deps: Pick<SigningDeps, 'db'>, contractId: string): Promise<ContractEvidence> {
  // The file changes a handful of times in its life (each signature, its stamp): a few tries suffice.
  for (let tries = 1; ; tries++) {
    const evidence = await evidenceOf(deps.db, contractId);
    if ((await signedSha256Of(deps.db, contractId)) === evidence.signed_sha256 || tries === 3) return evidence;
  }
}

async function evidenceOf(db: Executor, contractId: string): Promise<ContractEvidence> {
  const contract = await findContract(db, contractId);
  if (!contract) throw CONTRACT_NOT_FOUND();
  const signers = await signersOf(db, contractId);
  const seal = await findSeal(db, contractId);
  const checks = await findChecks(
    db,
    signers.map((one) => one.currentVerificationId).filter((id): id is string => Boolean(id)),
  );
  return {
    contract_id: contract.id,
    template_version: contract.templateVersion,
    country: contract.country,
    amount: contract.amount,
    currency: contract.currency,
    unsigned_sha256: contract.unsignedSha256,
    signed_sha256: contract.signedSha256,
    signers: signers.map((one) => {
      const evidence = one.evidence as unknown as StoredEvidence | null;
      // Who has not signed shows only where they stand: their identity check is nobody else's business.
      const check = one.state === 'SIGNED' ? checks.find((c) => c.id === one.currentVerificationId) : undefined;
      return {
        signer_id: one.id,
        name: one.name,
        person_type: one.personType as PersonType,
        state: one.state as SignerState,
        signed_at: one.signedAt?.toISOString() ?? null,
        ip: evidence?.ip ?? null,
        peer_ip: evidence?.peer_ip ?? null,
        forwarded_for: evidence?.forwarded_for ?? null,
        user_agent: evidence?.user_agent ?? null,
        geolocation: evidence?.geolocation ?? null,
        phone_verified_at: evidence?.phone_verified_at ?? null,
        consent_folio: evidence?.consent_folio ?? null,
        verification: evidence?.verification ?? (check ? checkSummary(check) : null),
        signature_sha256: one.signatureSha256,
        audit_chain_head: evidence?.audit_chain_head ?? null,
      };
    }),
    seal: seal ? sealView(seal) : null,
  };
}
