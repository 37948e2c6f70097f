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
import type { UserRow } from '../users/index.js';
import type { GuarantorDeps } from './deps.js';
import { taxIdColumn } from './guarantor.js';
import { guarantorPhone } from './guarantor-phone.js';
import { insertAval, replaceActiveAvals } from './guarantors.store.js';
import { personColumns, personErrors } from './person.js';

/** Names a guarantor (the mobile app's form or an operator) and moves the application to the PIN step. */
export async function registerAval(
  deps: Pick<GuarantorDeps, 'db' | 'clock' | 'config' | 'cipher' | 'secrets'> & Pick<BureauDeps, 'bureau'>,
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
  const person = await personColumns(deps, input);
  const phoneE164 = await guarantorPhone(deps, input.phone_number, 'phone_number', user);
  const now = deps.clock();
  const { row, result: aval } = await moveApplication(engine, {
    userId: user.id,
    transition,
    actor,
    write: async (tx) => {
      // A refused guarantor of this type (or one not yet consented) makes room for the new one.
      await replaceActiveAvals(tx, user.id, input.aval_type, now);
      return insertAval(tx, {
        userId: user.id,
        avalType: input.aval_type,
        ...person,
        phoneE164,
        ...taxIdColumn(deps, canonical),
        at: now,
      });
    },
    event: { type: 'guarantor.named', payload: { aval_type: input.aval_type } },
  });
  return { row, aval };
}
