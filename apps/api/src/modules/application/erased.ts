import { notLike, type AnyColumn } from 'drizzle-orm';
import { AppError } from '../../errors.js';

/**
 * An erased application (issue 31) keeps its row — its states and audit chain stay — but its phone
 * is tombstoned with this marker (modules/privacy/erase.store.ts writes it; the erasure test of the
 * step engine fails if the two ever differ). Signers' phones get the same marker.
 */
export const ERASED_PHONE_PREFIX = 'erased:';

/** Whether a stored phone (users.phone_e164, contract_signers.phone_e164) is an erasure's tombstone. */
export function isErasedPhone(phoneE164: string | null | undefined): boolean {
  return typeof phoneE164 === 'string' && phoneE164.startsWith(ERASED_PHONE_PREFIX);
}

/** The guard every step-engine write adds: the row is not an erased person's. */
export const notErased = (phone: AnyColumn) => notLike(phone, `${ERASED_PHONE_PREFIX}%`);

/**
 * 410, never a 409: an erased application moves no more — nothing of its person may be written
 * again, and retrying is useless. Same code and words as the privacy module's PersonKeyDestroyedError
 * (what a read of their data answers), so callers and screens handle one refusal.
 */
export class ApplicationErasedError extends AppError {
  constructor(readonly applicationId: string) {
    super(
      410,
      'PERSON_ERASED',
      `application ${applicationId} was erased; its steps can no longer be written`,
      'Estos datos se eliminaron a petición de su titular o por el plazo de conservación.',
    );
    this.name = 'ApplicationErasedError';
  }
}
