import { formatTaxId, fromE164, getCountry, type AvalStatus, type AvalType, type CountryCode } from '@provee/domain';
import type { AppCipher, FieldCipher } from '../../crypto.js';
import type { BureauProvider } from '../../providers/bureau/index.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { personCipher } from '../privacy/index.js';
import type { GuarantorBureau } from '../credit/index.js';
import type { UserRow } from '../users/index.js';
import { findAval, markAvalDecided, type AvalRow } from './guarantors.store.js';
import { guarantorPerson } from './person.js';

/**
 * A guarantor as the other modules read them. Their tax id and address are stored encrypted with
 * the guarantor's own data key (decision 032); this file and person.ts are the one place that
 * seals and opens them (docs/CONVENTIONS.md).
 */
export interface Guarantor {
  id: string;
  /** The application that named them. */
  userId: string;
  avalType: AvalType;
  name: string;
  phone: { e164: string; national: string } | null;
  taxId: { canonical: string; shown: string } | null;
  status: AvalStatus;
}

/** A guarantor's keys: their own cipher (guarantorKeys), never the application's. */
export type CipherDeps = { cipher: FieldCipher; config: { COUNTRY: CountryCode } };
type AppCipherDeps = { cipher: AppCipher; config: { COUNTRY: CountryCode } };

/** The guarantor's keys (their data key, made on first use); `db` may be the caller's transaction. */
export async function guarantorKeys(deps: AppCipherDeps, db: Executor, avalId: string): Promise<CipherDeps> {
  return { cipher: await personCipher(deps, db, avalId), config: deps.config };
}

export const NOT_FOUND = new AppError(404, 'AVAL_NOT_FOUND', 'guarantor not found', 'No encontramos a este aval.');

/** The guarantor as the screens show them (SPEC §7). */
export function avalView(deps: { config: { COUNTRY: CountryCode } }, aval: AvalRow) {
  return {
    id: aval.id,
    aval_type: aval.avalType as AvalType,
    name: aval.name ?? '',
    phone: aval.phoneE164 ? fromE164(deps.config.COUNTRY, aval.phoneE164) : null,
    status: aval.status as 'PENDING' | 'CONSENTED' | 'APPROVED' | 'REFUSED',
  };
}

/** A guarantor by id, their tax id decrypted once; undefined when there is none. */
export async function describeGuarantor(
  deps: AppCipherDeps & { db: Executor },
  avalId: string,
): Promise<Guarantor | undefined> {
  const aval = await findAval(deps.db, avalId);
  if (!aval) return undefined;
  const keys = await guarantorKeys(deps, deps.db, aval.id);
  return {
    id: aval.id,
    userId: aval.userId,
    avalType: aval.avalType as AvalType,
    name: aval.name ?? '',
    phone: aval.phoneE164 ? { e164: aval.phoneE164, national: fromE164(deps.config.COUNTRY, aval.phoneE164) } : null,
    taxId: guarantorTaxId(keys, aval),
    status: aval.status as AvalStatus,
  };
}

/** The tax id of a guarantor row a caller already holds, or null. */
export function guarantorTaxId(deps: CipherDeps, aval: Pick<AvalRow, 'taxIdEncrypted'>) {
  if (!aval.taxIdEncrypted) return null;
  const canonical = deps.cipher.decrypt(aval.taxIdEncrypted);
  return { canonical, shown: formatTaxId(getCountry(deps.config.COUNTRY), canonical) };
}

/** The tax id's column as stored (canonical: normalizeTaxId). */
export function taxIdColumn(deps: { cipher: FieldCipher }, canonical: string): Pick<AvalRow, 'taxIdEncrypted'> {
  return { taxIdEncrypted: deps.cipher.encrypt(canonical) };
}

/**
 * Where the bureau files people by name, birth date and address, a guarantor named without them
 * (before that bureau was configured) cannot consent: their query would be refused before the
 * call. 409 before the PIN or the message, so nothing is consented in vain.
 */
export async function assertBureauCanAsk(
  deps: AppCipherDeps & { db: Executor; clock: () => Date; bureau: Pick<BureauProvider, 'needsPerson'> },
  aval: AvalRow,
): Promise<void> {
  if (!deps.bureau.needsPerson) return;
  const keys = { ...(await guarantorKeys(deps, deps.db, aval.id)), clock: deps.clock };
  const person = guarantorPerson(keys, aval, guarantorTaxId(keys, aval)?.canonical ?? null);
  if (!person?.birthDate || !person.address)
    throw new AppError(
      409,
      'AVAL_DATA_MISSING',
      'the guarantor lacks what the bureau files people by',
      'Para consultar el buró necesitamos los apellidos y el domicilio de tu aval. Contacta a tu asesor.',
    );
}

/** How the guarantor's messages name the shopkeeper who chose them. */
export function shopkeeperName(user: Pick<UserRow, 'name' | 'lastname'>): string {
  return [user.name, user.lastname].filter(Boolean).join(' ');
}

/** The guarantor's side of their bureau query, for modules/credit (app.ts decorates `guarantorBureau` with it). */
export const guarantorBureau: GuarantorBureau = {
  async subject(deps, avalId) {
    const aval = await findAval(deps.db, avalId);
    if (!aval) return undefined;
    const keys = { ...(await guarantorKeys(deps, deps.db, aval.id)), clock: deps.clock };
    const taxId = guarantorTaxId(keys, aval)?.canonical ?? null;
    return {
      avalType: aval.avalType as AvalType,
      name: aval.name ?? '',
      taxId,
      person: guarantorPerson(keys, aval, taxId),
    };
  },
  async decided(tx, avalId, approved, at) {
    if (!(await markAvalDecided(tx, avalId, approved, at)))
      throw new Error(`guarantor ${avalId} is not waiting for a decision`);
  },
};
