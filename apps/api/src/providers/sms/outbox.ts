import type { Db } from '../../db/client.js';
import type { SmsProvider } from './types.js';
import { storeOutboxMessage } from './outbox.store.js';

/** Development and tests: every message is stored, and /dev/outbox shows them. */
export function createOutboxSms(db: Db): SmsProvider {
  return {
    name: 'outbox',
    async send({ to, body }) {
      await storeOutboxMessage(db, { to, body });
    },
  };
}
