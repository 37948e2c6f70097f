import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { storeOutboxMessage } from '../sms/outbox.store.js';
import type { WhatsAppProvider } from './types.js';

/**
 * Development and tests: every message is stored in the outbox's WhatsApp inbox and `report` (the
 * simulated status callbacks) is told; every kind has a template.
 */
export function createOutboxWhatsApp(
  db: Db,
  report: (providerMessageId: string, to: string, statusCallback: string | undefined) => Promise<void>,
): WhatsAppProvider {
  return {
    name: 'outbox',
    sends: () => true,
    async send({ to, body, statusCallback }) {
      const providerMessageId = `SIM${randomUUID().replaceAll('-', '')}`;
      await storeOutboxMessage(db, { to, body, channel: 'whatsapp', providerMessageId });
      await report(providerMessageId, to, statusCallback);
      return { providerMessageId };
    },
  };
}
