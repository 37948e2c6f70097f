import { isPastPassword, type ContactType } from '@provee/domain';
import { engineOf, stepAnswer, StepConflict } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import type { UserRow } from '../users/index.js';
import { insertAdvisorEvent } from './advisor-events.store.js';
import type { CreditDeps } from './deps.js';

/** How the shopkeeper chose to continue with an advisor, with its audit event; when it was recorded. */
export async function recordAdvisorContact(
  deps: Pick<CreditDeps, 'db' | 'clock' | 'config'>,
  user: UserRow,
  contactType: ContactType,
): Promise<Date> {
  // Only a pre-approved application that set its password talks to an advisor.
  if (!isPastPassword({ next_step: user.nextStep, status: user.status })) {
    throw new StepConflict(
      await stepAnswer(engineOf(deps), user),
      'STEP_NOT_CURRENT',
      'Tu solicitud aún no está lista para hablar con un asesor. Te llevamos a donde te quedaste.',
    );
  }
  const now = deps.clock();
  await deps.db.transaction(async (tx) => {
    await insertAdvisorEvent(tx, { userId: user.id, contactType, createdAt: now });
    await appendAuditEvent(tx, {
      applicationId: user.id,
      actor: `user:${user.id}`,
      type: 'advisor.contact',
      payload: { contact_type: contactType },
      at: now,
    });
  });
  return now;
}
