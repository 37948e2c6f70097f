import { isValidNationalNumber, toE164, VALIDATION_ERROR_MESSAGE } from '@provee/domain';
import { AppError, invalidFields } from '../../errors.js';
import { appendAuditEvent, eventsOfType, lockChain, phoneAuditId } from '../audit/index.js';
import { findUserByPhone, type UserRow } from '../users/index.js';
import type { GuarantorDeps } from './deps.js';

type PhoneDeps = Pick<GuarantorDeps, 'db' | 'clock' | 'config' | 'secrets'>;

/**
 * A guarantor's phone must be their own (issue 26): not the shopkeeper's, and not a number another
 * applicant proved as theirs (the phone of any application: the shopkeeper's second phone, once it
 * applied, included). A 400 on the field, like any other wrong number: the form shows it under the
 * phone and the shopkeeper writes another (a 409 is for where the application stands, a 422 would
 * send the screen to /rejected). The message does not say whose number it is.
 */
export async function guarantorPhone(deps: PhoneDeps, digits: string, field: string, shopkeeper: UserRow) {
  if (!isValidNationalNumber(deps.config.COUNTRY, digits))
    throw invalidFields({ [field]: 'Ingresa un número de celular válido de 10 dígitos.' });
  const e164 = toE164(deps.config.COUNTRY, digits);
  await countGuarantorNumber(deps, shopkeeper.id, e164);
  const refused = (message: string) =>
    new AppError(400, 'GUARANTOR_PHONE_REFUSED', 'guarantor phone refused', VALIDATION_ERROR_MESSAGE, {
      issues: [{ field: `body.${field}`, message }],
    });
  if (e164 === shopkeeper.phoneE164) throw refused('El aval necesita su propio celular, distinto al tuyo.');
  if (await findUserByPhone(deps.db, e164))
    throw refused('Este número no se puede usar para el aval: escribe el celular propio del aval.');
  return e164;
}

/**
 * Distinct guarantor numbers one application may try in a day (named, changed to, or refused). Each answer
 * says whether a number belongs to an applicant, and each change sends it an SMS: a budget keeps the
 * form from being used to probe numbers or to send messages (issue 26's review). Each try is an audit
 * event (the number as a keyed hash), counted under the application's audit lock.
 */
export const GUARANTOR_NUMBERS_PER_DAY = 6;
const TOO_MANY_NUMBERS = new AppError(
  429,
  'GUARANTOR_NUMBERS_LIMIT',
  'too many guarantor numbers tried',
  'Ya probaste varios números de aval hoy. Intenta de nuevo mañana o pide ayuda a tu asesor.',
  { retry_after_seconds: 24 * 3600 },
);

async function countGuarantorNumber(deps: PhoneDeps, userId: string, phoneE164: string): Promise<void> {
  const now = deps.clock();
  const since = new Date(now.getTime() - 24 * 3_600_000);
  await deps.db.transaction(async (tx) => {
    await lockChain(tx, userId);
    const phone = phoneAuditId(deps, phoneE164);
    const tried = new Set(
      (await eventsOfType(tx, userId, 'guarantor.phone_tried', since)).map((event) => event.payload.phone),
    );
    // The same number again (a retry, a double tap) costs nothing more.
    if (tried.has(phone)) return;
    if (tried.size >= GUARANTOR_NUMBERS_PER_DAY) throw TOO_MANY_NUMBERS;
    await appendAuditEvent(tx, {
      applicationId: userId,
      actor: `user:${userId}`,
      type: 'guarantor.phone_tried',
      payload: { phone },
      at: now,
    });
  });
}
