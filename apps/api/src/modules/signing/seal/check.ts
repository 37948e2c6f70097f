import { createHash, webcrypto } from 'node:crypto';
import type { ContractCheck } from '@provee/domain';
import * as pkijs from 'pkijs';
import { readSignedData } from '../../../pki/cms.js';
import type { SigningDeps } from '../deps.js';
import { findContract } from '../signing.store.js';
import { CONTRACT_NOT_FOUND } from '../contract.js';
import { sealOf } from './pades.js';
import { findSeal, type SealRow } from './seal.store.js';

/**
 * "¿Es este documento el que firmamos?" (issue 36): a PDF an analyst was sent, compared byte for byte
 * with the contract as sealed and as kept (with its time-stamp), and its seal read: intact over the
 * bytes it covers, covering the whole file, made with the certificate that sealed this contract.
 */
export async function checkContractCopy(
  deps: Pick<SigningDeps, 'db'>,
  contractId: string,
  pdf: Buffer,
): Promise<ContractCheck> {
  const contract = await findContract(deps.db, contractId);
  if (!contract) throw CONTRACT_NOT_FOUND();
  const seal = await findSeal(deps.db, contractId);
  // Up to 20 MB: hashed on libuv's threads (WebCrypto), not on the event loop.
  const sha256 = Buffer.from(await webcrypto.subtle.digest('SHA-256', pdf)).toString('hex');
  const version = !seal
    ? null
    : sha256 === seal.sealedSha256
      ? ('sealed' as const)
      : sha256 === contract.signedSha256
        ? ('stamped' as const)
        : null;
  const found = await readSeal(pdf, seal);
  return { matches: version !== null, version, sha256, seal: found, readable_message: answer(version, seal, found) };
}

async function readSeal(pdf: Buffer, seal: SealRow | undefined): Promise<ContractCheck['seal']> {
  let embedded;
  try {
    embedded = sealOf(pdf);
  } catch {
    return { intact: false, whole_document: false, ours: false, certificate_name: null };
  }
  if (!embedded) return null;
  const { cms, covered, byteRange } = embedded;
  const [start, , secondStart, secondLength] = byteRange;
  const wholeDocument = start === 0 && secondStart + secondLength === pdf.length;
  let intact: boolean;
  let signer: pkijs.Certificate | undefined;
  try {
    const signedData = readSignedData(cms);
    const result = await signedData.verify({
      signer: 0,
      data: covered.buffer.slice(covered.byteOffset, covered.byteOffset + covered.length) as ArrayBuffer,
      checkChain: false,
      extendedMode: true,
    });
    intact = result.signatureVerified === true;
    signer = result.signerCertificate ?? undefined;
  } catch {
    intact = false;
  }
  const signerSha256 =
    signer &&
    createHash('sha256')
      .update(new Uint8Array(signer.toSchema().toBER(false)))
      .digest('hex');
  const name = signer?.subject.typesAndValues.find((one) => one.type === '2.5.4.3')?.value.valueBlock.value;
  return {
    intact,
    whole_document: wholeDocument,
    ours: Boolean(seal && signerSha256 === seal.certificateSha256),
    certificate_name: typeof name === 'string' ? name : null,
  };
}

function answer(version: ContractCheck['version'], seal: SealRow | undefined, found: ContractCheck['seal']): string {
  if (!seal)
    return 'Este contrato todavía no está sellado: no hay un documento firmado por todas las partes con el cual comparar.';
  if (version === 'sealed')
    return 'Sí. Es el contrato que firmamos, tal como se selló (antes de agregar su sello de tiempo).';
  if (version === 'stamped') return 'Sí. Es el contrato que firmamos, con su sello y su sello de tiempo.';
  if (!found) return 'No. Este archivo no es el contrato que firmamos y no lleva ningún sello.';
  if (!found.intact)
    return 'No. Este archivo fue modificado después de sellarse: su sello ya no corresponde a su contenido.';
  if (!found.whole_document) return 'No. El sello de este archivo no cubre todo el documento: se le agregó contenido.';
  if (!found.ours) return 'No. Este archivo lleva un sello que no es el de este contrato.';
  return 'No. Este archivo no es el contrato que firmamos.';
}
