/** What the contract PDF is made of: the parties, the business, the amount (issue 11). */

export interface ContractParty {
  name: string;
  /** Shown as given (the caller formats the cédula or RFC). */
  taxId: string;
  /** Shown as given. */
  phone: string;
  role: 'titular' | 'collateral';
  /** Guarantors only: a partner in the business or an outside guarantor. */
  avalType?: 'PARTNER' | 'COLLATERAL';
}

export interface ContractDocumentInput {
  country: 'do' | 'mx';
  /** A uuid, printed as the contract number. */
  contractId: string;
  /** The printed date; also the PDF's creation and modification date (same input, same bytes). */
  issuedAt: Date;
  lenderName: string;
  titular: ContractParty;
  business: { name: string; type: string; address: string } | null;
  /** Whole currency units. */
  amount: number;
  currency: 'DOP' | 'MXN';
  /** In signature-slot order (slot 1, 2, …; slot 0 is the titular). */
  guarantors: ContractParty[];
}

/** Everything the record holds about one signature, printed on its evidence page. */
export interface SignatureEvidence {
  signedAt: Date;
  /** The client's address as the trusted proxies gave it. */
  ip: string;
  /** The address the connection itself came from, and X-Forwarded-For as received (null: not recorded). */
  peerIp?: string | null;
  forwardedFor?: string | null;
  userAgent: string | null;
  /** From the browser's Geolocation API when the signer allowed it (latitude, longitude, accuracy). */
  geolocation: Record<string, unknown> | null;
  phoneVerifiedAt: Date | null;
  consentFolio: string | null;
  verification: { id: string; provider: string; status: string; identityId: string | null } | null;
  /** Must be sha256Hex of the unsigned PDF given to renderSignedContract. */
  unsignedSha256: string;
  /** Must be sha256Hex of signaturePng. */
  signatureSha256: string;
  /** The application's audit chain's last hash when the signature was made (null: recorded before issue 36). */
  auditChainHead?: string | null;
}

export interface SignedParty {
  /** 0 = titular, 1.. = guarantors in input order. */
  slot: number;
  name: string;
  personType: 'titular' | 'collateral';
  signaturePng: Uint8Array;
  evidence: SignatureEvidence;
}
