import type { FastifyInstance } from 'fastify';
import { appendAuditEvent } from '../audit/index.js';
import { enqueueMessage, optedOut, type QueuedMessage } from '../messaging/index.js';
import { invitationLink, shopkeeperName } from '../guarantors/index.js';
import { remindSigner, signingDeps } from '../signing/index.js';
import { findUserById } from '../users/index.js';
import { claimLinkReminder, invitationsExpiring, signingLinksExpiring } from './reminders.store.js';

/**
 * The one reminder of a guarantor whose invitation, or of a signer whose signing link, expires
 * within LINK_REMINDER_BEFORE_SECONDS: a fresh link that ends when theirs does, recorded once per
 * link (two sweeps at once send it once), with its audit event; none to a number that opted out.
 */
export async function sendLinkReminders(app: FastifyInstance): Promise<QueuedMessage[]> {
  const now = app.clock();
  const until = new Date(now.getTime() + app.config.LINK_REMINDER_BEFORE_SECONDS * 1000);
  const queued: QueuedMessage[] = [];
  for (const { aval, expiresAt } of await invitationsExpiring(app.db, now, until)) {
    const user = await findUserById(app.db, aval.userId);
    if (!user || !expiresAt || !aval.phoneE164 || (await optedOut(app, aval.phoneE164))) continue;
    const secondsLeft = Math.floor((expiresAt.getTime() - now.getTime()) / 1000);
    const message = await app.db.transaction(async (tx) => {
      if (
        !(await claimLinkReminder(tx, {
          linkKind: 'aval-invitation',
          linkId: aval.id,
          applicationId: user.id,
          sentAt: now,
        }))
      )
        return null;
      await appendAuditEvent(tx, {
        applicationId: user.id,
        actor: 'system',
        type: 'guarantor.reminded',
        payload: { aval_id: aval.id, expires_at: expiresAt.toISOString() },
        at: now,
      });
      const { url } = invitationLink(app, aval, secondsLeft);
      const name = shopkeeperName(user);
      return enqueueMessage(app, tx, {
        kind: 'guarantor-reminder',
        to: aval.phoneE164!,
        body: `${name} te sigue esperando como aval en ${app.config.APP_NAME}. Tu invitación vence pronto; autoriza la consulta aquí: ${url}`,
        variables: [name, url],
        applicationId: user.id,
        about: { kind: 'aval-invitation', id: aval.id },
      });
    });
    if (message) queued.push(message);
  }
  const signing = signingDeps(app);
  for (const { link, signer } of await signingLinksExpiring(app.db, now, until)) {
    if (await optedOut(app, signer.phoneE164)) continue;
    try {
      const message = await remindSigner(signing, signer, link.expiresAt, async (tx, replacement) => {
        for (const linkId of [link.id, replacement.id])
          if (
            !(await claimLinkReminder(tx, {
              linkKind: 'signing-link',
              linkId,
              applicationId: signer.userId,
              sentAt: now,
            }))
          )
            throw new AlreadyReminded();
        await appendAuditEvent(tx, {
          applicationId: signer.userId,
          actor: 'system',
          type: 'contract.signer_reminded',
          payload: { signer_id: signer.id, link_id: replacement.id, expires_at: link.expiresAt.toISOString() },
          at: now,
        });
      });
      if (message) queued.push(message);
    } catch (error) {
      // Reminded by another sweep, or signed meanwhile (409): nothing to send.
      if (!(error instanceof AlreadyReminded) && !(error instanceof Error && 'statusCode' in error)) throw error;
    }
  }
  return queued;
}

class AlreadyReminded extends Error {}
