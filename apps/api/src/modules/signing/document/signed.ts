import { PDFDocument } from 'pdf-lib';
import { addSealPlaceholder, type SealLabel } from '../seal/pades.js';
import { drawEvidence, drawFitted } from './evidence.js';
import { sha256Hex } from './hash.js';
import { readContractInfo, type ContractInfo } from './info.js';
import { drawFooters, drawLine, embedFonts, MUTED, signatureSlotRect, slotTextPositions } from './layout.js';
import { embedSignature } from './signature-image.js';
import type { SignedParty } from './types.js';

/**
 * The signed contract: every page of the unsigned PDF unchanged except that each party's signature
 * is drawn inside its box, then one evidence page per party. Refuses evidence that does not match
 * the bytes it describes (the unsigned PDF, the signature image): a judge must be able to recompute
 * both fingerprints. With `seal` (the last signature), saved with the seal's empty field, which
 * seal/pades.ts fills.
 */
export async function renderSignedContract(
  unsigned: Uint8Array,
  parties: SignedParty[],
  signedAt: Date,
  seal?: SealLabel,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(unsigned, { updateMetadata: false });
  const info = readContractInfo(doc);
  if (!info) throw new Error('renderSignedContract: the PDF was not made by renderUnsignedContract');
  const ordered = checkParties(parties, info, sha256Hex(unsigned));
  const fonts = await embedFonts(doc);
  const pages = doc.getPages();
  const unsignedPageCount = pages.length;

  const evidencePages = [];
  for (const party of ordered) {
    const rect = signatureSlotRect(party.slot);
    const signaturePage = pages[info.firstSignaturePage + rect.page];
    if (!signaturePage) throw new Error(`renderSignedContract: no signature page for slot ${party.slot}`);
    const image = await embedSignature(doc, party.signaturePng);
    const evidencePageNumber = unsignedPageCount + evidencePages.length + 1;
    drawFitted(signaturePage, image, rect);
    drawLine(
      signaturePage,
      `Firmado el ${party.evidence.signedAt.toISOString()} UTC · evidencia en la página ${evidencePageNumber}`,
      rect.x,
      slotTextPositions(party.slot).signedNote,
      { font: fonts.regular, size: 7, color: MUTED },
    );
    const signaturePageNumber = info.firstSignaturePage + rect.page + 1;
    evidencePages.push(...drawEvidence(doc, fonts, party, image, info, signaturePageNumber));
  }
  drawFooters(evidencePages, fonts.regular, (n, total) =>
    [`Contrato ${info.contractId}`, 'Evidencia de firma', `Hoja ${n} de ${total}`].join(' · '),
  );
  doc.setModificationDate(signedAt);
  if (!seal) return doc.save();
  addSealPlaceholder(doc, seal);
  return doc.save({ useObjectStreams: false });
}

function checkParties(parties: SignedParty[], info: ContractInfo, unsignedSha256: string): SignedParty[] {
  if (parties.length === 0) throw new RangeError('renderSignedContract: no signatures');
  const seen = new Set<number>();
  for (const party of parties) {
    if (!Number.isInteger(party.slot) || party.slot < 0 || party.slot >= info.slotCount) {
      throw new RangeError(`renderSignedContract: slot ${party.slot} is not one of the ${info.slotCount} slots`);
    }
    if (seen.has(party.slot)) throw new RangeError(`renderSignedContract: slot ${party.slot} signed twice`);
    seen.add(party.slot);
    if (party.evidence.unsignedSha256 !== unsignedSha256) {
      throw new Error(`renderSignedContract: slot ${party.slot} evidence names another unsigned document`);
    }
    if (party.evidence.signatureSha256 !== sha256Hex(party.signaturePng)) {
      throw new Error(`renderSignedContract: slot ${party.slot} evidence names another signature image`);
    }
  }
  return [...parties].sort((a, b) => a.slot - b.slot);
}
