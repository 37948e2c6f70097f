import { toE164, type AvalType } from '@provee/domain';
import { invalidFields } from '../../errors.js';
import { engineOf, StepConflict, stepAnswer } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { issueCode } from '../one-time-codes/index.js';
import type { UserRow } from '../users/index.js';
import type { CodeDeps, ConsentDeps, GuarantorDeps } from './deps.js';
import { NOT_FOUND } from './guarantor.js';
import { guarantorPhone } from './guarantor-phone.js';
import { changePendingAvalPhone, type AvalRow } from './guarantors.store.js';
import { avalAtPinStep, avalPinMessage, sendAvalPin } from './pin-consent.js';

/** The guarantor's number changed meanwhile, or they answered: nothing of the change is kept. */
class NotChanged extends Error {}

/** PUT …/aval/phone-number: another number for the guarantor (checked), the PIN goes to it. */
export async function changeAvalPhone(
  deps: CodeDeps & Pick<GuarantorDeps, 'db' | 'clock' | 'config' | 'secrets' | 'cipher'> & Pick<ConsentDeps, 'bureau'>,
  user: UserRow,
  input: { aval_type: AvalType; phone_number: string; new_phone_number: string },
) {
  const aval = await avalAtPinStep(deps, user, input.phone_number);
  if (aval.avalType !== input.aval_type) throw NOT_FOUND;
  const prefix = `+${toE164(deps.config.COUNTRY, '').replace(/\D/g, '')}`;
  const compact = input.new_phone_number.replace(/[\s()-]/g, '');
  if (!compact.startsWith(prefix)) throw invalidFields({ new_phone_number: `El número debe empezar con ${prefix}.` });
  const newPhone = await guarantorPhone(deps, compact.slice(prefix.length), 'new_phone_number', user);
  // The new number and its PIN (with its SMS) in one transaction: a number still inside its resend
  // interval (429) keeps the old one, and a change that cannot be made sends nothing.
  const now = deps.clock();
  let changed: AvalRow | undefined;
  const issued = await issueCode(deps, {
    phoneE164: newPhone,
    purpose: 'aval-nip',
    message: avalPinMessage(deps, user),
    applicationId: user.id,
    within: async (tx) => {
      changed = await changePendingAvalPhone(tx, aval.id, { from: aval.phoneE164!, to: newPhone, at: now });
      if (!changed) throw new NotChanged();
      await appendAuditEvent(tx, {
        applicationId: user.id,
        actor: `user:${user.id}`,
        type: 'guarantor.phone_changed',
        payload: { aval_id: aval.id },
        at: now,
      });
    },
    // The PIN could not be sent (503): the guarantor keeps the number they had, as if nothing was asked.
    undo: async (tx) => {
      if (!(await changePendingAvalPhone(tx, aval.id, { from: newPhone, to: aval.phoneE164!, at: now }))) return;
      await appendAuditEvent(tx, {
        applicationId: user.id,
        actor: 'system',
        type: 'guarantor.phone_change_undone',
        payload: { aval_id: aval.id, reason: 'sms_unavailable' },
        at: deps.clock(),
      });
    },
  }).catch(async (error: unknown) => {
    if (error instanceof NotChanged) throw new StepConflict(await stepAnswer(engineOf(deps), user));
    throw error;
  });
  return sendAvalPin(deps, user, changed!, issued);
}
