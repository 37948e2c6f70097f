import { toE164, type AvalType } from '@provee/domain';
import { invalidFields } from '../../errors.js';
import { engineOf, StepConflict, stepAnswer } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { issueCode } from '../one-time-codes/index.js';
import type { UserRow } from '../users/index.js';
import type { CodeDeps, GuarantorDeps, SmsDeps } from './deps.js';
import { NOT_FOUND } from './guarantor.js';
import { guarantorPhone } from './guarantor-phone.js';
import { changePendingAvalPhone } from './guarantors.store.js';
import { avalAtPinStep, sendAvalPin } from './pin-consent.js';

/** PUT …/aval/phone-number: another number for the guarantor (checked), the PIN goes to it. */
export async function changeAvalPhone(
  deps: SmsDeps & CodeDeps & Pick<GuarantorDeps, 'db' | 'clock' | 'config' | 'secrets'>,
  user: UserRow,
  input: { aval_type: AvalType; phone_number: string; new_phone_number: string },
) {
  const aval = await avalAtPinStep(deps, user, input.phone_number);
  if (aval.avalType !== input.aval_type) throw NOT_FOUND;
  const prefix = `+${toE164(deps.config.COUNTRY, '').replace(/\D/g, '')}`;
  const compact = input.new_phone_number.replace(/[\s()-]/g, '');
  if (!compact.startsWith(prefix)) throw invalidFields({ new_phone_number: `El número debe empezar con ${prefix}.` });
  const newPhone = await guarantorPhone(deps, compact.slice(prefix.length), 'new_phone_number', user);
  // The PIN is issued first: a number still inside its resend interval (429) keeps the old one,
  // rather than changing the number and answering an error.
  const issued = await issueCode(deps, { phoneE164: newPhone, purpose: 'aval-nip' });
  const now = deps.clock();
  const changed = await deps.db.transaction(async (tx) => {
    const row = await changePendingAvalPhone(tx, aval.id, { from: aval.phoneE164!, to: newPhone, at: now });
    if (row)
      await appendAuditEvent(tx, {
        applicationId: user.id,
        actor: `user:${user.id}`,
        type: 'guarantor.phone_changed',
        payload: { aval_id: aval.id },
        at: now,
      });
    return row;
  });
  if (!changed) throw new StepConflict(await stepAnswer(engineOf(deps), user));
  return sendAvalPin(deps, user, changed, issued);
}
