// What every bureau provider is: its own file so that the vendors' files and index.ts (which builds them) import no cycle.

/** Where the bureau files the person: the business address (Mexico's bureau requires one). */
export interface BureauAddress {
  street: string;
  neighborhood: string | null;
  municipality: string;
  city: string;
  /** INEGI's two-digit state code (Mexico), as the address catalogue keeps it. */
  stateCode: string;
  /** Checked against the state in the address catalogue before the query. */
  postcode: string;
}

/** Who the bureau is asked about, under the folio of their consent. */
export interface BureauSubject {
  country: 'do' | 'mx';
  /** Canonical tax id: 11 digits (cédula) or 13 characters (RFC). */
  taxId: string;
  name: string;
  lastname: string;
  maternalLastname: string | null;
  dob: string;
  /** null where it is not known (a guarantor) or the bureau does not ask for it. */
  address: BureauAddress | null;
  consentFolio: string;
  /** 1 for the first try; the simulator's failing identity uses it to recover. */
  attempt: number;
}

/** What the bureau's report says, as the policy reads it. */
export interface BureauReport {
  /** The bureau's folio for the query; null when it has no record of the person (no query filed). */
  folio: string | null;
  /** null: no history to score (thin file). */
  score: number | null;
  open_accounts: number;
  /** Open accounts with an amount past due. */
  delinquencies: number;
  /** The worst delay, in days, of an open account with an amount past due (0: none; null: not said). */
  worst_past_due_delay_days: number | null;
  recent_inquiries: number;
  /** A real bureau's fuller reading (inquiries by period, prevention keys, messages), kept with the query. */
  details?: Record<string, unknown>;
  /** The answer's bytes as received (a real bureau's): kept encrypted, never logged. */
  raw?: Buffer;
}

/** The consent's evidence a bureau may ask for after its query (Círculo's NIP audit). */
export interface ConsentEvidence {
  subject: BureauSubject;
  /** The folio the bureau gave the query. */
  reportFolio: string;
  /** When the bureau was queried and when the person approved it (consent). */
  queriedAt: Date;
  approvedAt: Date;
  /** The PIN the person typed to approve the query. */
  pin: string;
  pinVerified: boolean;
}

export interface BureauProvider {
  name: string;
  /**
   * Whether the bureau files people by their surnames apart, birth date and address (Círculo):
   * queries without them are not sent, and a guarantor must be named with them.
   */
  needsPerson: boolean;
  query(subject: BureauSubject, signal: AbortSignal): Promise<BureauReport>;
  /** Sends the consent's evidence for a query (its acknowledgement folio); absent where the bureau asks for none. */
  auditConsent?(evidence: ConsentEvidence, signal: AbortSignal): Promise<string>;
}
