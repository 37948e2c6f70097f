import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import type { SmsProvider } from './types.js';
import { storeOutboxMessage } from './outbox.store.js';

/**
 * Development and tests: every message is stored, /dev/outbox shows them, and `report` (the
 * simulated status callbacks, providers/message-webhooks) is told it was sent.
 */
export function createOutboxSms(
  db: Db,
  report: (providerMessageId: string, to: string, statusCallback: string | undefined) => Promise<void>,
): SmsProvider {
  return {
    name: 'outbox',
    async send({ to, body, statusCallback }) {
      const providerMessageId = `SIM${randomUUID().replaceAll('-', '')}`;
      await storeOutboxMessage(db, { to, body, channel: 'sms', providerMessageId });
      await report(providerMessageId, to, statusCallback);
      return { providerMessageId };
    },
  };
}
