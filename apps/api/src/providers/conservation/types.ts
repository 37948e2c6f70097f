/**
 * A NOM-151 conservation provider (Mexico): an accredited PSC certifies that a document with this
 * SHA-256 existed at a moment, by a certificate (constancia) it issues, an RFC 3161 TimeStampResp
 * (DER) over the hash.
 */
export interface ConservationProvider {
  /** Who certifies: 'simulador', 'mifiel'. */
  readonly name: string;
  /** The certificate for this document (only its SHA-256 leaves); `reference` is ours (the contract id). */
  certify(document: Uint8Array, reference: string): Promise<ConservationCertificate>;
}

export interface ConservationCertificate {
  /** The provider's id for it. */
  reference: string;
  /** The constancia: an RFC 3161 TimeStampResp (DER). */
  record: Uint8Array;
  issuedAt: Date;
}

/** The provider could not be asked, or did not answer with a certificate for this hash. */
export class ConservationUnavailable extends Error {}
