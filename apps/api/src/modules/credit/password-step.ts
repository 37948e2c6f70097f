import { passwordErrors, type PasswordPayload } from '@provee/domain';
import { invalidFields } from '../../errors.js';
import { assertAt, engineOf, moveApplication, workUnderClaim, type ApplicationRow } from '../application/index.js';
import { applicantKeys, applicantPerson, type UserRow } from '../users/index.js';
import type { CreditDeps } from './deps.js';

/**
 * Step 9: the 6-digit password, after the pre-approval. The obvious ones are refused (the birth date,
 * the phone's digits); the hash is memory-hard, so the step is claimed first.
 */
export async function savePassword(
  deps: Pick<CreditDeps, 'db' | 'clock' | 'config' | 'cipher' | 'passwords'>,
  user: UserRow,
  body: PasswordPayload,
): Promise<ApplicationRow> {
  const engine = engineOf(deps);
  await assertAt(engine, user, 'password');
  const { password, password_confirmation: confirmation = password } = body;
  const found = passwordErrors(password, confirmation, {
    dob: applicantPerson(await applicantKeys(deps, deps.db, user.id), user).birthDate ?? undefined,
    phone: user.phoneE164.slice(-10),
  });
  if (Object.keys(found).length > 0) throw invalidFields(found);
  // Claimed before hashing: a duplicate is refused at once, without a second memory-hard hash.
  const { claim, result: hash } = await workUnderClaim(engine, user.id, 'password', () =>
    deps.passwords.hash(password),
  );
  const { row } = await moveApplication(engine, {
    userId: user.id,
    transition: 'password',
    actor: `user:${user.id}`,
    claim,
    set: { passwordHash: hash, passwordSetAt: deps.clock() },
  });
  return row;
}
