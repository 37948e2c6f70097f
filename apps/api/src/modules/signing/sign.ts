import type { PersonType } from '@provee/domain';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { engineOf, moveSigner, type SignerRow } from '../application/index.js';
import { auditChainHead } from '../audit/index.js';
import { ALREADY_SIGNED, deleteStagedPhotos, signerPersonId, type Encoded } from '../identity/index.js';
import { personCipher } from '../privacy/index.js';
import { encryptContractPdf } from './contract.js';
import type { SigningDeps } from './deps.js';
import { evidenceAsItStands, geolocationOf, type SignatureFacts, type SignedFrom } from './evidence.js';
import { CONTRACT_COPY_JOB } from './copy-job.js';
import { recordSeal, SEAL_COMPLETION_JOB } from './seal/completion.js';
import { DraftOutdated, draftSignedContract, signedSigners, type SignedDraft } from './signed-draft.js';
import { LINK_USED, type SignerAccess } from './signer-access.js';
import { signatureImage } from './signature.js';
import { lockContract, markLinkUsed, storeSignedPdf } from './signing.store.js';

const DRAFT_ATTEMPTS = 3;
const CONTRACT_BUSY = () =>
  new AppError(
    503,
    'CONTRACT_BUSY',
    'others signing the contract at the same time',
    'Otra persona está firmando este contrato en este momento. Intenta de nuevo en unos segundos.',
    { retry_after_seconds: 2 },
  );
const NOT_VERIFIED = () =>
  new AppError(
    409,
    'IDENTITY_NOT_VERIFIED',
    'identity not verified',
    'Primero debemos aprobar tu identidad para que puedas firmar.',
  );
const CONTRACT_CHANGED = () =>
  new AppError(
    409,
    'CONTRACT_CHANGED',
    'contract changed since it was shown',
    'Tu contrato se actualizó. Vuelve a abrir tu enlace para leer la versión nueva antes de firmar.',
  );

export interface SignatureBody {
  signature: string;
  metadata?: string | undefined;
  document_sha256?: string | undefined;
}

/** One signature on its way: who signs with which link, the document they read, and what it records. */
interface Signing {
  access: SignerAccess;
  signature: Encoded;
  documentSha256: string | undefined;
  facts: SignatureFacts;
}

/**
 * The handwritten signature (SPEC §3, §4). After an APPROVED check only, once. The signature is
 * decoded and encoded again off the event loop (signature.ts); the signed PDF is built with every
 * signature so far before the transaction (signed-draft.ts). Then in ONE transaction with the
 * contract row locked: the draft is checked to show what the record holds now (else it is built
 * again), the signer's move with its evidence, the link marked used, the signed PDF and its
 * SHA-256 stored, the audit event, and the job that sends the signed copy's link to the signer's phone.
 */
export async function signContract(deps: SigningDeps, access: SignerAccess, body: SignatureBody, from: SignedFrom) {
  const signature = await signatureImage(deps, body.signature);
  const geolocation = geolocationOf(body.metadata ?? '');
  const facts: SignatureFacts = {
    linkId: access.link.id,
    signedAt: deps.clock(),
    from,
    geolocation,
    signatureSha256: signature.sha256,
    // Printed on the evidence page: the chain as it stood before this signature's own event.
    auditChainHead: await auditChainHead(deps.db, access.signer.userId),
  };
  const { signer: signed, result } = await signWithFreshDraft(deps, {
    access,
    signature,
    documentSha256: body.document_sha256,
    facts,
  });
  deps.jobs.wake(CONTRACT_COPY_JOB);
  deps.jobs.wake(SEAL_COMPLETION_JOB);
  return {
    person_type: signed.personType as PersonType,
    signed_at: facts.signedAt.toISOString(),
    contract_sha256: result.contractSha256,
  };
}

/** Drafts the signed PDF and signs with it; a draft outdated by another signature is built again, a few times. */
async function signWithFreshDraft(deps: SigningDeps, signing: Signing) {
  for (let attempt = 1; ; attempt += 1) {
    const draft = await draftSignedContract(
      deps,
      signing.access.signer.id,
      signing.signature,
      signing.documentSha256,
      signing.facts,
    );
    try {
      return await moveToSigned(deps, signing, draft);
    } catch (error) {
      if (!(error instanceof DraftOutdated)) throw error;
      if (attempt >= DRAFT_ATTEMPTS) throw CONTRACT_BUSY();
    }
  }
}

/** The signer's move to SIGNED through the step engine, with the signature, its evidence and the signed PDF. */
function moveToSigned(deps: SigningDeps, signing: Signing, draft: SignedDraft | null) {
  const { access, facts } = signing;
  return moveSigner(engineOf(deps), {
    signerId: access.signer.id,
    transition: 'signed',
    to: 'SIGNED',
    actor: `signer:${access.signer.id}`,
    conflict: (current) => (current?.state === 'SIGNED' ? ALREADY_SIGNED() : NOT_VERIFIED()),
    prepare: async (tx, locked) => {
      const evidence = await evidenceMatchingDraft(deps, tx, locked, signing, draft);
      return {
        // The signer's own key (decision 032): erasing them leaves the signature unreadable.
        signaturePngEncrypted: (await personCipher(deps, tx, signerPersonId(locked))).encryptBytes(
          signing.signature.bytes,
        ),
        signatureSha256: facts.signatureSha256,
        signedAt: facts.signedAt,
        evidence: evidence as unknown as Record<string, unknown>,
      };
    },
    write: async (tx, signed) => storeSignature(deps, tx, signed, signing, draft!),
    // The last signature: the lender's seal is in the PDF, recorded after the signature's own event;
    // its time-stamp (and NOM-151) is a job of this transaction.
    afterEvent: async (tx, signed, written) => {
      if (draft!.sealed)
        await recordSeal(deps, tx, { id: written.contractId, userId: signed.userId }, draft!.sha256, facts.signedAt);
    },
    event: {
      type: 'contract.signed',
      payload: (written) => ({
        contract_id: written.contractId,
        link_id: access.link.id,
        signature_sha256: facts.signatureSha256,
        contract_sha256: written.contractSha256,
        // The address in clear is in the signer's evidence, which an erasure clears; the chain, which
        // outlives it, holds only its keyed hash (matches the evidence's, never reversible without the key).
        ip_hash: deps.cipher.lookupHash(facts.from.ip),
      }),
    },
  });
}

/**
 * Under the contract's lock: this signature's record as the database stands now, which the draft
 * must show along with the signatures there are now (else DraftOutdated: built again).
 */
async function evidenceMatchingDraft(
  deps: SigningDeps,
  tx: Tx,
  locked: SignerRow,
  signing: Signing,
  draft: SignedDraft | null,
) {
  const contract = (await lockContract(tx, locked.contractId))!;
  // The signer read one document; if it was redrafted since (a guarantor added), they read again.
  if (signing.documentSha256 && signing.documentSha256 !== contract.unsignedSha256) throw CONTRACT_CHANGED();
  const evidence = await evidenceAsItStands(deps, tx, locked, contract, signing.facts);
  const signedBefore = (await signedSigners(tx, contract.id)).key;
  if (draft?.evidence !== JSON.stringify(evidence) || draft.signedBefore !== signedBefore) throw new DraftOutdated();
  return evidence;
}

/** In the signature's transaction: the link used up, the staged photos dropped, the signed PDF stored. */
async function storeSignature(deps: SigningDeps, tx: Tx, signed: SignerRow, signing: Signing, draft: SignedDraft) {
  const at = signing.facts.signedAt;
  if (!(await markLinkUsed(tx, signing.access.link.id, at))) throw LINK_USED;
  // No check starts after the signature: photos sent for one are not kept (personal data).
  await deleteStagedPhotos(tx, signing.access.signer.id);
  await storeSignedPdf(tx, signed.contractId, {
    signedPdf: await encryptContractPdf(deps, tx, signed.userId, draft.pdf),
    signedSha256: draft.sha256,
    updatedAt: at,
  });
  // The signed copy's SMS: a job committed with the signature (sent, and retried, by the queue).
  await deps.jobs.enqueue(tx, CONTRACT_COPY_JOB, { signer_id: signed.id });
  return { contractId: signed.contractId, contractSha256: draft.sha256 };
}
