import { isOptOutReply } from '@provee/domain';
import type { AppCipher } from '../../crypto.js';
import type { Db, Executor } from '../../db/client.js';
import type { Reply } from '../../providers/message-webhooks/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { applicationsOf, hasOptedOut, insertOptOut } from './opt-outs.store.js';

/** The key an opt-out is kept under: a keyed hash of the number, never the number. */
const optOutKey = (cipher: Pick<AppCipher, 'lookupHash'>, phoneE164: string) =>
  cipher.lookupHash(`opt-out:${phoneE164}`);

/** Whether a number asked for no more reminders. */
export async function optedOut(deps: { db: Executor; cipher: Pick<AppCipher, 'lookupHash'> }, phoneE164: string) {
  return hasOptedOut(deps.db, optOutKey(deps.cipher, phoneE164));
}

/**
 * A reply to one of our senders: "BAJA" (or the template's opt-out button) stops every reminder to
 * that number, recorded once, with an audit event on each application the number belongs to.
 * Any other reply is not kept. Whether it opted the number out now.
 */
export async function receiveReply(
  deps: { db: Db; clock: () => Date; cipher: Pick<AppCipher, 'lookupHash'> },
  reply: Reply,
): Promise<boolean> {
  if (!isOptOutReply(reply.text)) return false;
  const at = deps.clock();
  const source = reply.button ? 'button' : 'reply';
  return deps.db.transaction(async (tx) => {
    const inserted = await insertOptOut(tx, {
      phoneHash: optOutKey(deps.cipher, reply.from),
      source,
      channel: reply.channel,
      createdAt: at,
    });
    if (!inserted) return false;
    for (const applicationId of await applicationsOf(tx, reply.from)) {
      await appendAuditEvent(tx, {
        applicationId,
        actor: 'system',
        type: 'reminders.opted_out',
        payload: { channel: reply.channel, source },
        at,
      });
    }
    return true;
  });
}
