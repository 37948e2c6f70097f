import { randomUUID } from 'node:crypto';
import {
  getCountry,
  namingTransition,
  normalizeTaxId,
  formatTaxId,
  taxIdError,
  type ApplicationStatus,
  type NextStep,
  type RegisterAvalPayload,
} from '@provee/domain';
import { invalidFields } from '../../errors.js';
import { engineOf, moveApplication, StepConflict, stepAnswer } from '../application/index.js';
import type { BureauDeps } from '../credit/index.js';
import type { QueuedMessage, MessageDeps } from '../messaging/index.js';
import type { UserRow } from '../users/index.js';
import type { GuarantorDeps } from './deps.js';
import { guarantorKeys, taxIdColumn } from './guarantor.js';
import { guarantorPhone } from './guarantor-phone.js';
import { insertAval, replaceActiveAvals, type AvalRow } from './guarantors.store.js';
import { enqueueInvitation } from './invitation.js';
import { personColumns, personErrors, sealedAddress } from './person.js';

/**
 * Names a guarantor (the mobile app's form or an operator) and moves the application to the PIN
 * step; the guarantor's invitation SMS is enqueued in the same transaction (`invitation`: the
 * caller delivers it after the commit).
 */
export async function registerAval(
  deps: Pick<GuarantorDeps, 'db' | 'clock' | 'config' | 'cipher' | 'secrets' | 'tokens'> &
    Pick<BureauDeps, 'bureau'> &
    Pick<MessageDeps, 'cipher'>,
  user: UserRow,
  input: RegisterAvalPayload,
  actor: string,
) {
  const engine = engineOf(deps);
  const state = { step: user.nextStep as NextStep, status: user.status as ApplicationStatus };
  const transition = namingTransition(input.aval_type, state);
  if (!transition) throw new StepConflict(await stepAnswer(engine, user));
  const country = getCountry(deps.config.COUNTRY);
  const canonical = normalizeTaxId(country, input.tax_payer_id);
  const taxError = taxIdError(country, formatTaxId(country, canonical));
  const errors = { ...personErrors(deps, input, canonical), ...(taxError ? { tax_payer_id: taxError } : {}) };
  if (Object.keys(errors).length > 0) throw invalidFields(errors);
  const { address, ...person } = await personColumns(deps, input);
  // The guarantor's id is chosen first: their key, made in the transaction, seals their address and tax id (decision 032).
  const avalId = randomUUID();
  const phoneE164 = await guarantorPhone(deps, input.phone_number, 'phone_number', user);
  const now = deps.clock();
  const { row, result } = await moveApplication(engine, {
    userId: user.id,
    transition,
    actor,
    write: async (tx): Promise<{ aval: AvalRow; invitation: QueuedMessage }> => {
      // A refused guarantor of this type (or one not yet consented) makes room for the new one.
      await replaceActiveAvals(tx, user.id, input.aval_type, now);
      // Their key is made here, in the naming's transaction: a naming refused leaves no key behind.
      const own = await guarantorKeys(deps, tx, avalId);
      const aval = await insertAval(tx, {
        id: avalId,
        userId: user.id,
        avalType: input.aval_type,
        ...person,
        ...sealedAddress(own, address),
        phoneE164,
        ...taxIdColumn(own, canonical),
        at: now,
      });
      return { aval, invitation: await enqueueInvitation(deps, tx, user, aval) };
    },
    event: {
      type: 'guarantor.named',
      payload: (named) => ({ aval_id: named.aval.id, aval_type: input.aval_type }),
    },
  });
  return { row, aval: result.aval, invitation: result.invitation };
}
