import type { Config } from '../../config.js';
import { createBureauSimulator } from './simulator.js';

/** Who the bureau is asked about, under the folio of their consent. */
export interface BureauSubject {
  country: 'do' | 'mx';
  /** Canonical tax id: 11 digits (cédula) or 13 characters (RFC). */
  taxId: string;
  name: string;
  lastname: string;
  maternalLastname: string | null;
  dob: string;
  consentFolio: string;
  /** 1 for the first try; the simulator's failing identity uses it to recover. */
  attempt: number;
}

export interface BureauReport {
  folio: string;
  /** null: no history to score (thin file). */
  score: number | null;
  open_accounts: number;
  delinquencies: number;
  recent_inquiries: number;
}

export { BureauError } from './bureau-error.js';

export interface BureauProvider {
  name: string;
  query(subject: BureauSubject, signal: AbortSignal): Promise<BureauReport>;
}

export function createBureau(config: Config): BureauProvider {
  return createBureauSimulator({ latencyMs: config.BUREAU_LATENCY_MS, slowMs: config.BUREAU_SLOW_MS });
}
