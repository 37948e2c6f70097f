import type { SigningMaterial } from '../../pki/cms.js';
import { loadCredential, type CredentialSource } from '../../pki/p12.js';
import { renderSignedContract, renderUnsignedContract, sha256Hex } from './document/index.js';
import type { ContractDocumentInput, SignedParty } from './document/index.js';
import { applySeal, type SealLabel } from './seal/pades.js';

/** The last signature's document is sealed here too: the lender's key and the seal's label. */
export interface SealInput {
  material: SigningMaterial;
  label: SealLabel;
}

/**
 * The contract's PDF work, on a thread of the worker pool (contract-renderer.ts): pdf-lib is plain
 * JavaScript, and decoding the signatures' PNGs or laying out the pages takes 10–400 ms of CPU.
 * Bundled to dist/signing-worker.js (scripts/build.mjs).
 */
const tasks = {
  async unsigned(input: ContractDocumentInput) {
    const pdf = await renderUnsignedContract(input);
    return { pdf, sha256: sha256Hex(pdf) };
  },
  async signed(input: { unsigned: Uint8Array; parties: SignedParty[]; signedAt: Date; seal?: SealInput }) {
    const rendered = await renderSignedContract(input.unsigned, input.parties, input.signedAt, input.seal?.label);
    const pdf = input.seal ? await applySeal(rendered, input.seal.material) : rendered;
    return { pdf, sha256: sha256Hex(pdf) };
  },
  /** The seal's or an authority's PKCS#12 (~45 ms of key derivation; a development one made, ~350 ms). */
  async credential(input: CredentialSource) {
    return loadCredential(input);
  },
};
export type SigningTask = keyof typeof tasks;

export default function run({ task, input }: { task: SigningTask; input: never }) {
  return tasks[task](input);
}
