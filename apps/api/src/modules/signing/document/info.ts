import { PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument } from 'pdf-lib';

/**
 * What the signed render must know about the unsigned PDF, kept in the PDF's own document
 * information dictionary (custom keys are allowed there): the contract number, the template
 * version, where the signature pages start and how many slots they hold.
 */
export interface ContractInfo {
  contractId: string;
  templateVersion: string;
  firstSignaturePage: number;
  slotCount: number;
}

const KEYS = {
  contractId: PDFName.of('ProveeContractId'),
  templateVersion: PDFName.of('ProveeTemplateVersion'),
  firstSignaturePage: PDFName.of('ProveeFirstSignaturePage'),
  slotCount: PDFName.of('ProveeSignatureSlots'),
};

function infoDict(doc: PDFDocument): PDFDict {
  return doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
}

export function writeContractInfo(doc: PDFDocument, info: ContractInfo): void {
  const dict = infoDict(doc);
  dict.set(KEYS.contractId, PDFHexString.fromText(info.contractId));
  dict.set(KEYS.templateVersion, PDFHexString.fromText(info.templateVersion));
  dict.set(KEYS.firstSignaturePage, PDFNumber.of(info.firstSignaturePage));
  dict.set(KEYS.slotCount, PDFNumber.of(info.slotCount));
}

/** null when the PDF was not made by renderUnsignedContract. */
export function readContractInfo(doc: PDFDocument): ContractInfo | null {
  const dict = infoDict(doc);
  const text = (key: PDFName) => {
    const value = dict.lookup(key);
    return value instanceof PDFHexString || value instanceof PDFString ? value.decodeText() : null;
  };
  const number = (key: PDFName) => {
    const value = dict.lookup(key);
    return value instanceof PDFNumber ? value.asNumber() : null;
  };
  const contractId = text(KEYS.contractId);
  const templateVersion = text(KEYS.templateVersion);
  const firstSignaturePage = number(KEYS.firstSignaturePage);
  const slotCount = number(KEYS.slotCount);
  if (contractId === null || templateVersion === null || firstSignaturePage === null || slotCount === null) return null;
  return { contractId, templateVersion, firstSignaturePage, slotCount };
}
