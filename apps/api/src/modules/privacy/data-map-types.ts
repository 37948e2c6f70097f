/** The vocabulary of the map of personal data (data-map.ts): categories, bases, rules, erasure. */

export type DataCategory = 'identity' | 'contact' | 'financial' | 'biometric' | 'signature' | 'technical';

export const CATEGORY_LABELS: Record<DataCategory, string> = {
  identity: 'Datos de identificación',
  contact: 'Datos de contacto',
  financial: 'Datos financieros y patrimoniales',
  biometric: 'Datos biométricos',
  signature: 'Firma',
  technical: 'Datos técnicos de conexión',
};

export type LegalBasis = 'consent' | 'contract' | 'legal-obligation' | 'legitimate-interest';

export const LEGAL_BASIS_LABELS: Record<LegalBasis, string> = {
  consent: 'Consentimiento',
  contract: 'Relación contractual (solicitud de crédito)',
  'legal-obligation': 'Obligación legal',
  'legitimate-interest': 'Interés legítimo (seguridad y prevención de fraude)',
};

/** Names of the retention schedule's rules (modules/privacy retention); the schedule defines them. */
export type RetentionRule =
  | 'abandoned-before-consent-90d'
  | 'rejected-180d'
  | 'identity-photos-30d-after-decision'
  | 'signed-contract-legal-minimum'
  | 'consent-record-legal-minimum'
  | 'sms-outbox-24h'
  | 'phone-proof-24h'
  | 'client-errors-30d'
  | 'message-texts-3d'
  | 'opt-out-kept'
  | 'with-the-application'
  | 'staff-account';

/**
 * How an erasure removes the value: `clear` sets it to null; `tombstone` overwrites a NOT NULL or
 * unique value with a marker that names nobody; `delete-row` removes the row; `destroy-key` leaves
 * the ciphertext, which the person's data key (destroyed) alone could open; `keep` is evidence the
 * law makes us hold (a consent, a signed contract) until its own retention rule ends it.
 */
export type ErasureMethod = 'clear' | 'tombstone' | 'delete-row' | 'destroy-key' | 'keep';

/** Whose data a table's personal columns are. */
export type DataSubject = 'applicant' | 'guarantor' | 'signer' | 'staff' | 'phone' | 'person';

export interface PersonalColumn {
  category: DataCategory;
  basis: LegalBasis;
  retention: RetentionRule;
  erasure: ErasureMethod;
  /** The field in the applicant's export, in Spanish. */
  label: string;
}

export interface TableEntry {
  subject?: DataSubject;
  personal: Record<string, PersonalColumn>;
  /** Columns checked and found to hold nothing about a person (ids, states, hashes, catalogue data). */
  notPersonal: readonly string[];
  /**
   * How the person's export shows the table's rows; by default each personal value is listed. `count`
   * lists none: the export says only how many rows are theirs and when, under `label`. For rows whose
   * values are one-use secrets (the SMS simulator's outbox holds live codes and link tokens): a copy
   * in a download or on a staff screen would let whoever reads it act as the person.
   */
  exported?: { as: 'count'; category: DataCategory; label: string };
}

export const col = (
  category: DataCategory,
  basis: LegalBasis,
  retention: RetentionRule,
  erasure: ErasureMethod,
  label: string,
): PersonalColumn => ({ category, basis, retention, erasure, label });

export const APP: RetentionRule = 'with-the-application';
/** Technical traces kept to defend the service from abuse, with the application they belong to. */
export const trace = (label: string, retention: RetentionRule = APP, erasure: ErasureMethod = 'clear') =>
  col('technical', 'legitimate-interest', retention, erasure, label);
