import type { ContractDocumentInput, ContractParty } from '../types.js';

/** What a template gives the renderer: blocks of text, laid out and paginated by layout.ts. */
export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  /** A labelled line: "Monto del crédito: RD$ 25,000.00 …" (label in bold). */
  | { kind: 'field'; label: string; text: string }
  /** A numbered or bulleted entry with a hanging indent. */
  | { kind: 'item'; label: string; text: string };

/**
 * One country's contract at one version. A published version never changes: a new wording is a new
 * file with a new version, so every signed PDF can be traced to the exact text of its template.
 */
export interface ContractTemplate {
  version: string;
  country: 'do' | 'mx';
  title: string;
  /** Place and date line under the title. */
  placeAndDate(issuedAt: Date): string;
  body(input: ContractDocumentInput): Block[];
  signatureHeading: string;
  signatureIntro: string;
  /** Above each signature box. */
  slotCaption(slot: number, guarantorCount: number): string;
  /** Under each signature box, after the name. */
  roleLabel(party: ContractParty): string;
}
