import { fromE164 } from '@provee/domain';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { isErasedPhone } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { linkTokenHash } from '../signing/index.js';
import { findUserById } from '../users/index.js';
import { redeemResumeToken } from './reminders.store.js';

/**
 * A resume link spent: its reminder records the return (the funnel counts it, and no more
 * reminders go), with an audit event. It proves nothing: the applicant proves their phone again
 * on the entry screen, filled in with the number, and lands where they stopped (SPEC §2.2).
 * Null for a link used, expired, unknown or of an erased application.
 */
export async function redeemResumeLink(
  deps: { db: Db; clock: () => Date; config: Pick<Config, 'COUNTRY'> },
  token: string,
): Promise<{ phone_number: string; path: string } | null> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const reminder = await redeemResumeToken(tx, linkTokenHash(token), now);
    if (!reminder) return null;
    const user = await findUserById(tx, reminder.applicationId);
    if (!user || isErasedPhone(user.phoneE164)) return null;
    await appendAuditEvent(tx, {
      applicationId: user.id,
      actor: 'system',
      type: 'reminder.resumed',
      payload: { number: reminder.number },
      at: now,
    });
    const phone = fromE164(deps.config.COUNTRY, user.phoneE164);
    return { phone_number: phone, path: `/home/${phone}` };
  });
}
