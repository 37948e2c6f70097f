import { renderSignedContract, renderUnsignedContract, sha256Hex } from './document/index.js';
import type { ContractDocumentInput, SignedParty } from './document/index.js';

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
  async signed(input: { unsigned: Uint8Array; parties: SignedParty[]; signedAt: Date }) {
    const pdf = await renderSignedContract(input.unsigned, input.parties, input.signedAt);
    return { pdf, sha256: sha256Hex(pdf) };
  },
};
export type SigningTask = keyof typeof tasks;

export default function run({ task, input }: { task: SigningTask; input: never }) {
  return tasks[task](input);
}
