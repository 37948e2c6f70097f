import type { ContractSeal } from '@provee/domain';
import type { Executor } from '../../../db/client.js';
import { findSeal, type SealRow } from './seal.store.js';

/** The seal as the evidence JSON and the back office show it. */
export function sealView(row: SealRow): ContractSeal {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    certificate_name: row.certificateName,
    certificate_sha256: row.certificateSha256,
    development: row.development,
    sealed_at: row.sealedAt.toISOString(),
    sealed_sha256: row.sealedSha256,
    timestamp: {
      status: row.timestampStatus as ContractSeal['timestamp']['status'],
      authority: row.timestampAuthority,
      time: iso(row.timestampTime),
      serial: row.timestampSerial,
      attempts: row.timestampAttempts,
    },
    nom151: {
      status: row.nom151Status as ContractSeal['nom151']['status'],
      provider: row.nom151Provider,
      reference: row.nom151Reference,
      issued_at: iso(row.nom151IssuedAt),
      sha256: row.nom151Sha256,
      certificate: row.nom151Record ? Buffer.from(row.nom151Record).toString('base64') : null,
    },
  };
}

/** The contract's seal as shown, or null before everybody signed. */
export async function contractSeal(db: Executor, contractId: string): Promise<ContractSeal | null> {
  const row = await findSeal(db, contractId);
  return row ? sealView(row) : null;
}
