import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { extractSignature, Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import type { PDFDocument } from 'pdf-lib';
import { signCms, type SigningMaterial } from '../../../pki/cms.js';

/**
 * The lender's seal on the signed contract as a PAdES baseline signature (ETSI.CAdES.detached,
 * the whole file but the signature itself covered), through @signpdf: its placeholder is added to
 * the document before it is saved, the CMS written into it after. The placeholder is sized for the
 * time-stamp token added later in place (PAdES B-T), so the bytes it covers never change.
 */

/** Bytes reserved for the CMS: the seal's certificates, its signature and a TSA's token with its own. */
export const SEAL_CMS_BYTES = 24_576;

export interface SealLabel {
  /** The signature's /Reason. */
  reason: string;
  /** The signer's /Name (the lender). */
  name: string;
  location: string;
  contactInfo: string;
  signingTime: Date;
}

/** Adds the (invisible) seal field to `doc`, on its last page; save it with `useObjectStreams: false`. */
export function addSealPlaceholder(doc: PDFDocument, label: SealLabel) {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    pdfPage: doc.getPages().at(-1)!,
    reason: label.reason,
    name: label.name,
    location: label.location,
    contactInfo: label.contactInfo,
    signingTime: label.signingTime,
    signatureLength: SEAL_CMS_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Provee',
  });
}

class CadesSigner extends Signer {
  constructor(private readonly material: SigningMaterial) {
    super();
  }
  override async sign(covered: Buffer): Promise<Buffer> {
    return Buffer.from(await signCms(covered, this.material));
  }
}

/** Writes the seal's CMS into a PDF saved with its placeholder. */
export async function applySeal(pdf: Uint8Array, material: SigningMaterial): Promise<Uint8Array> {
  return new Uint8Array(await new SignPdf().sign(Buffer.from(pdf), new CadesSigner(material)));
}

/** Where a sealed PDF keeps its CMS: the hex string between the byte range's two parts. */
function contentsOf(pdf: Buffer) {
  const { ByteRange: range, signedData: covered } = extractSignature(pdf);
  const byteRange = range as [number, number, number, number];
  const [start, firstLength, secondStart] = byteRange;
  // Between `<` and `>`: the hex of the CMS, then zeros to the placeholder's end.
  return { from: start + firstLength + 1, to: secondStart - 1, covered, byteRange };
}

/** The seal's CMS (DER, without the placeholder's padding), the bytes it covers and their range; null when unsealed. */
export function sealOf(
  pdf: Uint8Array,
): { cms: Uint8Array; covered: Buffer; byteRange: [number, number, number, number] } | null {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  if (bytes.indexOf('/ByteRange [') < 0) return null;
  const { from, to, covered, byteRange } = contentsOf(bytes);
  const padded = Buffer.from(bytes.subarray(from, to).toString('latin1'), 'hex');
  const parsed = asn1js.fromBER(padded.buffer.slice(padded.byteOffset, padded.byteOffset + padded.length));
  if (parsed.offset === -1) throw new Error('the seal is not a DER structure');
  return { cms: new Uint8Array(padded.subarray(0, parsed.offset)), covered, byteRange };
}

/**
 * The same PDF with `cms` in place of its seal's CMS, padded to the placeholder: every byte the seal
 * covers stays as it was (only the signature's own /Contents changes).
 */
export function replaceSealCms(pdf: Uint8Array, cms: Uint8Array): Uint8Array {
  const bytes = Buffer.from(pdf);
  const { from, to } = contentsOf(bytes);
  const hex = Buffer.from(cms).toString('hex');
  if (hex.length > to - from) throw new Error(`the CMS (${cms.length} bytes) exceeds the seal's placeholder`);
  bytes.write(hex.padEnd(to - from, '0'), from, 'latin1');
  return new Uint8Array(bytes);
}
