import type { StaffFactorsResponse } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { updateStaffAccount, type StaffRow } from './accounts.store.js';
import { countUnusedRecoveryCodes, deletePasskey, findTotp, listPasskeys } from './factors.store.js';
import { issueRecoveryCodes } from './recovery-codes.js';
import { deleteStaffSessionsOf } from './sessions.store.js';
import { mustEnrol, secondFactors, staffChain } from './staff.service.js';

/** The signed-in person's own second factors: what they have, what an enrolment leaves, removals, new codes. */
export interface FactorDeps {
  db: Executor;
  clock: () => Date;
  /** The recovery codes' hash key. */
  recoveryKey: Buffer;
}

export const LAST_FACTOR = new AppError(
  409,
  'LAST_SECOND_FACTOR',
  'last second factor',
  'Es tu único segundo factor y tu rol lo exige: agrega otro antes de quitar este.',
);
const PASSKEY_NOT_FOUND = new AppError(404, 'NOT_FOUND', 'passkey not found', 'No encontramos esa llave de acceso.');
const NO_SECOND_FACTOR = new AppError(409, 'NO_SECOND_FACTOR', 'no factor', 'Primero agrega un segundo factor.');

const audit = (
  deps: Pick<FactorDeps, 'db' | 'clock'>,
  member: StaffRow,
  type: string,
  payload: Record<string, unknown>,
) =>
  appendAuditEvent(deps.db, {
    applicationId: staffChain(member.id),
    actor: staffChain(member.id),
    type,
    payload,
    at: deps.clock(),
  });

/** The account's factors as 'Mi seguridad' lists them. */
export async function ownFactors(deps: Pick<FactorDeps, 'db'>, staffId: string): Promise<StaffFactorsResponse['data']> {
  const [totp, passkeys, left] = await Promise.all([
    findTotp(deps.db, staffId),
    listPasskeys(deps.db, staffId),
    countUnusedRecoveryCodes(deps.db, staffId),
  ]);
  return {
    totp: !!totp?.confirmedAt,
    passkeys: passkeys.map((row) => ({
      id: row.id,
      name: row.name,
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt?.toISOString() ?? null,
    })),
    recovery_codes_left: left,
  };
}

/**
 * A factor was enrolled: the account no longer must enrol, its other logins waiting to enrol end
 * (the next one gives this factor), and the first factor of an account brings its recovery codes
 * (answered once; null for later ones). One transaction with its audit event.
 */
export async function recordEnrolment(
  deps: FactorDeps,
  member: StaffRow,
  method: 'totp' | 'passkey',
): Promise<string[] | null> {
  return deps.db.transaction(async (tx) => {
    await updateStaffAccount(tx, member.id, { enrolRequired: false });
    await deleteStaffSessionsOf(tx, member.id, { stage: 'enrol' });
    const left = await countUnusedRecoveryCodes(tx, member.id);
    const issued = left > 0 ? null : await issueRecoveryCodes(tx, deps.recoveryKey, member.id, deps.clock());
    await appendAuditEvent(tx, {
      applicationId: staffChain(member.id),
      actor: staffChain(member.id),
      type: 'staff.factor_enrolled',
      payload: { method, recovery_codes_issued: issued !== null },
      at: deps.clock(),
    });
    return issued;
  });
}

/** Removes one of the person's passkeys, unless it is the last factor their role requires. */
export async function removeOwnPasskey(deps: Pick<FactorDeps, 'db' | 'clock'>, member: StaffRow, passkeyId: string) {
  await deps.db.transaction(async (tx) => {
    if (!(await deletePasskey(tx, member.id, passkeyId))) throw PASSKEY_NOT_FOUND;
    if (mustEnrol(member, await secondFactors(tx, member.id))) throw LAST_FACTOR;
  });
  await audit(deps, member, 'staff.passkey_removed', { passkey_id: passkeyId });
}

/** Ten new recovery codes in place of the earlier ones (a person with a second factor only). */
export async function renewRecoveryCodes(deps: FactorDeps, member: StaffRow): Promise<string[]> {
  if ((await secondFactors(deps.db, member.id)).length === 0) throw NO_SECOND_FACTOR;
  const codes = await deps.db.transaction((tx) => issueRecoveryCodes(tx, deps.recoveryKey, member.id, deps.clock()));
  await audit(deps, member, 'staff.recovery_codes_issued', {});
  return codes;
}
