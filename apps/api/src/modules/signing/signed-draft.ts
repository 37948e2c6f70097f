import type { PersonType } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import type { SignerRow } from '../application/index.js';
import { findSigner, signerPersonId, type Encoded } from '../identity/index.js';
import { personCipher } from '../privacy/index.js';
import { openContractPdf } from './contract.js';
import type { SigningDeps } from './deps.js';
import type { SignedParty } from './document/index.js';
import { documentEvidence, evidenceAsItStands, type SignatureFacts, type StoredEvidence } from './evidence.js';
import { findContract, signedSignersOf, type ContractRow } from './signing.store.js';

/** A signed PDF built before the signing transaction, with what it shows (checked again there). */
export interface SignedDraft {
  /** The record printed for this signer (JSON). */
  evidence: string;
  /** The signatures already in the document. */
  signedBefore: string;
  pdf: Uint8Array;
  sha256: string;
  /** The last signature's document: sealed by the lender (seal/pades.ts). */
  sealed: boolean;
}

/** The document changed between its draft and the transaction (another signer signed): build it again. */
export class DraftOutdated extends Error {
  constructor() {
    super('the signed contract was drafted from what has changed since');
  }
}

/** The contract's signers who have signed, and a key that changes when any of them does. */
export async function signedSigners(db: Executor, contractId: string) {
  const rows = await signedSignersOf(db, contractId);
  return { rows, key: rows.map((one) => `${one.id}:${one.signatureSha256}`).join(',') };
}

const slotOf = (contract: ContractRow, signer: SignerRow) =>
  signer.avalId ? 1 + contract.avalIds.indexOf(signer.avalId) : 0;

/**
 * The signed PDF as it will be once this signer signs: every signature so far plus this one, built
 * on a worker thread (decision 021) outside any transaction. A build takes 10–400 ms; a
 * transaction held that long would hold the contract row (PostgreSQL) or the whole embedded
 * database (PGlite). Null when the signer cannot sign now: the transaction gives the refusal.
 */
export async function draftSignedContract(
  deps: Pick<SigningDeps, 'db' | 'cipher' | 'secrets' | 'pdfRenderer' | 'contractSealer'>,
  signerId: string,
  signature: Encoded,
  documentSha256: string | undefined,
  facts: SignatureFacts,
): Promise<SignedDraft | null> {
  const signer = await findSigner(deps.db, signerId);
  if (signer?.state !== 'VERIFIED') return null;
  const contract = await findContract(deps.db, signer.contractId);
  if (!contract || (documentSha256 && documentSha256 !== contract.unsignedSha256)) return null;
  const evidence = await evidenceAsItStands(deps, deps.db, signer, contract, facts);
  const before = await signedSigners(deps.db, contract.id);
  // Signed meanwhile (the same signature sent twice at once): the transaction refuses it.
  if (before.rows.some((one) => one.id === signer.id)) return null;
  const party = (one: SignerRow, signaturePng: Uint8Array, record: StoredEvidence): SignedParty => ({
    slot: slotOf(contract, one),
    name: one.name,
    personType: one.personType as PersonType,
    signaturePng,
    evidence: documentEvidence(record),
  });
  // Each signature opens with its signer's own key (decision 032).
  const signatures = await Promise.all(
    before.rows.map(async (one) =>
      (await personCipher(deps, deps.db, signerPersonId(one))).decryptBytes(one.signaturePngEncrypted!),
    ),
  );
  // Everybody signed once this one does (the titular and each guarantor printed): the lender seals it.
  const sealed = before.rows.length + 1 === 1 + contract.avalIds.length;
  const credential = sealed ? await deps.contractSealer.credential() : undefined;
  const { pdf, sha256 } = await deps.pdfRenderer.signed(
    await openContractPdf(deps, deps.db, contract.userId, contract.unsignedPdf),
    [
      ...before.rows.map((one, index) => party(one, signatures[index]!, one.evidence as unknown as StoredEvidence)),
      party(signer, signature.bytes, evidence),
    ],
    facts.signedAt,
    credential
      ? {
          material: { privateKey: credential.privateKey, certificates: credential.certificates },
          label: deps.contractSealer.label(facts.signedAt),
        }
      : undefined,
  );
  return { evidence: JSON.stringify(evidence), signedBefore: before.key, pdf, sha256, sealed };
}
