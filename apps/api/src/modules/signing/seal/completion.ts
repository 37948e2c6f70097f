import type { Tx } from '../../../db/client.js';
import { signatureValueOf, withTimestamp } from '../../../pki/cms.js';
import { appendAuditEvent } from '../../audit/index.js';
import type { JobKind } from '../../jobs/index.js';
import { openContractPdf, encryptContractPdf } from '../contract.js';
import type { SigningDeps } from '../deps.js';
import { sha256Hex } from '../document/index.js';
import { findContract, storeSignedPdf, type ContractRow } from '../signing.store.js';
import { replaceSealCms, sealOf } from './pades.js';
import { findSeal, insertSeal, lockSeal, recordTimestampFailure, updateSeal, waitingSeals } from './seal.store.js';

/**
 * After the seal (issue 36): its RFC 3161 time-stamp, added in place once the authority answers,
 * then in Mexico the NOM-151 certificate of the time-stamped file. A job of the last signature's
 * transaction does both; while the authority or the provider fails it is tried again, and a
 * scheduled sweep picks up any seal still waiting (after a long outage, or the job's last try).
 * The signer never waits for either: their answer left with the signature.
 */
export const SEAL_COMPLETION_JOB = 'contract-seal-completion';
export const SEAL_SWEEP_JOB = 'contract-seal-sweep';

type CompletionDeps = Pick<SigningDeps, 'db' | 'cipher' | 'clock' | 'contractSealer' | 'config' | 'jobs'>;

/** In the last signature's transaction: the seal's row, its audit event, and the job that completes it. */
export async function recordSeal(
  deps: CompletionDeps,
  tx: Tx,
  contract: Pick<ContractRow, 'id' | 'userId'>,
  sealedSha256: string,
  at: Date,
) {
  const { development } = deps.contractSealer;
  const credential = await deps.contractSealer.credential();
  const nom151 = deps.config.COUNTRY === 'mx' ? 'waiting' : 'not_required';
  await insertSeal(tx, {
    contractId: contract.id,
    certificateName: credential.name,
    certificateSha256: credential.sha256,
    development,
    sealedAt: at,
    sealedSha256,
    timestampStatus: 'waiting',
    nom151Status: nom151,
    updatedAt: at,
  });
  await appendAuditEvent(tx, {
    applicationId: contract.userId,
    actor: 'system',
    type: 'contract.sealed',
    payload: {
      contract_id: contract.id,
      contract_sha256: sealedSha256,
      certificate_sha256: credential.sha256,
      certificate_name: credential.name,
      development,
    },
    at,
  });
  await deps.jobs.enqueue(tx, SEAL_COMPLETION_JOB, { contract_id: contract.id });
}

/** The time-stamp, then the NOM-151 certificate, whichever is still missing. Throws while one cannot be had. */
export async function completeSeal(deps: CompletionDeps, contractId: string) {
  const seal = await findSeal(deps.db, contractId);
  if (!seal) return;
  if (seal.timestampStatus === 'waiting') await stamp(deps, contractId);
  if ((await findSeal(deps.db, contractId))?.nom151Status === 'waiting') await conserve(deps, contractId);
}

async function signedPdfOf(deps: CompletionDeps, contractId: string) {
  const contract = await findContract(deps.db, contractId);
  if (!contract?.signedPdf) throw new Error(`contract ${contractId} has no signed PDF`);
  return { contract, pdf: await openContractPdf(deps, deps.db, contract.userId, contract.signedPdf) };
}

async function stamp(deps: CompletionDeps, contractId: string) {
  const { contract, pdf } = await signedPdfOf(deps, contractId);
  const seal = sealOf(pdf);
  if (!seal) throw new Error(`contract ${contractId}: the signed PDF carries no seal`);
  const authority = deps.contractSealer.authority;
  let token;
  try {
    // RFC 3161 over the seal's signature value (CAdES' signature time-stamp).
    token = await authority.stamp(signatureValueOf(seal.cms));
  } catch (error) {
    await recordTimestampFailure(deps.db, contractId, (error as Error).message.slice(0, 500), deps.clock());
    throw error;
  }
  const stamped = replaceSealCms(pdf, withTimestamp(seal.cms, token.token));
  const sha256 = sha256Hex(stamped);
  const stored = await encryptContractPdf(deps, deps.db, contract.userId, stamped);
  const at = deps.clock();
  await deps.db.transaction(async (tx) => {
    // Stamped meanwhile by another process: theirs stands.
    if ((await lockSeal(tx, contractId))?.timestampStatus !== 'waiting') return;
    await storeSignedPdf(tx, contractId, { signedPdf: stored, signedSha256: sha256, updatedAt: at });
    await updateSeal(tx, contractId, {
      timestampStatus: 'stamped',
      timestampAuthority: authority.name,
      timestampTime: token.genTime,
      timestampSerial: token.serialNumber,
      timestampedAt: at,
      timestampError: null,
      updatedAt: at,
    });
    await appendAuditEvent(tx, {
      applicationId: contract.userId,
      actor: 'system',
      type: 'contract.timestamped',
      payload: {
        contract_id: contractId,
        contract_sha256: sha256,
        authority: authority.name,
        time: token.genTime.toISOString(),
        serial: token.serialNumber,
      },
      at,
    });
  });
}

/** NOM-151: the provider's certificate for the time-stamped file's SHA-256. */
async function conserve(deps: CompletionDeps, contractId: string) {
  const { contract, pdf } = await signedPdfOf(deps, contractId);
  const sha256 = sha256Hex(pdf);
  const provider = deps.contractSealer.conservation;
  const certificate = await provider.certify(pdf, contractId);
  const at = deps.clock();
  await deps.db.transaction(async (tx) => {
    if ((await lockSeal(tx, contractId))?.nom151Status !== 'waiting') return;
    await updateSeal(tx, contractId, {
      nom151Status: 'issued',
      nom151Provider: provider.name,
      nom151Reference: certificate.reference,
      nom151Record: Buffer.from(certificate.record),
      nom151Sha256: sha256,
      nom151IssuedAt: certificate.issuedAt,
      updatedAt: at,
    });
    await appendAuditEvent(tx, {
      applicationId: contract.userId,
      actor: 'system',
      type: 'contract.nom151_issued',
      payload: {
        contract_id: contractId,
        contract_sha256: sha256,
        provider: provider.name,
        reference: certificate.reference,
      },
      at,
    });
  });
}

/** The job of the last signature's transaction; 12 tries over ~5 h with the queue's doubling pause. */
export function sealCompletionJob(deps: CompletionDeps): JobKind<{ contract_id: string }> {
  return {
    name: SEAL_COMPLETION_JOB,
    retryLimit: 12,
    expireInSeconds: 120,
    run: ({ contract_id: contractId }) => completeSeal(deps, contractId),
  };
}

/** CONTRACT_TSA_SWEEP_CRON: every seal still waiting, tried again (one failure does not stop the others). */
export function sealSweepJob(deps: CompletionDeps): JobKind<Record<string, never>> {
  return {
    name: SEAL_SWEEP_JOB,
    retryLimit: 0,
    expireInSeconds: 600,
    cron: deps.config.CONTRACT_TSA_SWEEP_CRON,
    async run() {
      const failures: unknown[] = [];
      for (const contractId of await waitingSeals(deps.db, 200))
        await completeSeal(deps, contractId).catch((error: unknown) => failures.push(error));
      if (failures.length > 0) throw new AggregateError(failures, `${failures.length} seals still waiting`);
    },
  };
}
