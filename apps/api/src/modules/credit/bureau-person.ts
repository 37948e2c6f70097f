import type { AppCipher, FieldCipher } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { personCipher } from '../privacy/index.js';
import { findConsent } from './consents.store.js';

/**
 * Whose data key seals a bureau query's raw report and subject and its consent's PIN: the person
 * the bureau was asked about (decision 032) — the guarantor who consented, else the applicant.
 */
export function consentPersonCipher(
  deps: { cipher: AppCipher },
  db: Executor,
  consent: { userId: string; avalId: string | null },
): Promise<FieldCipher> {
  return personCipher(deps, db, consent.avalId ?? consent.userId);
}

/** The same, for a query: its consent says who was asked. */
export async function queryPersonCipher(
  deps: { cipher: AppCipher },
  db: Executor,
  query: { userId: string; consentId: string },
): Promise<FieldCipher> {
  const consent = await findConsent(db, query.consentId);
  if (!consent) throw new Error('bureau query without consent');
  return consentPersonCipher(deps, db, { userId: query.userId, avalId: consent.avalId });
}
