import type { ApplicationEventMessage } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { invalidFields } from '../../errors.js';
import { eventMessage, listApplicationEvents, type FeedPosition } from '../event-feed/index.js';

/** A feed position as the lender keeps it: `<transaction>.<event id>`. */
const encode = (position: FeedPosition) => `${position.txId}.${position.id}`;

/** The position a cursor names (its form is the contract's); one out of the database's ranges is a 400. */
function decode(cursor: string): FeedPosition {
  const [txId, id] = cursor.split('.') as [string, string];
  if (BigInt(txId) >= 2n ** 64n || BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER))
    throw invalidFields({ after: 'Cursor inválido: usa el next_cursor de la página anterior.' });
  return { txId, id: Number(id) };
}

/**
 * What the webhooks send, for receivers that poll: the events after the cursor in the order their
 * changes committed (event-feed's listApplicationEvents), and the cursor to ask with next.
 */
export async function eventsPage(
  app: FastifyInstance,
  query: { after?: string | undefined; limit: number; application_id?: string | undefined },
) {
  const rows = await listApplicationEvents(app.db, {
    after: query.after ? decode(query.after) : undefined,
    limit: query.limit,
    applicationId: query.application_id,
  });
  const last = rows.at(-1);
  return {
    data: rows.map((row) => eventMessage(row) as ApplicationEventMessage),
    next_cursor: last ? encode({ txId: last.txId, id: last.id }) : (query.after ?? null),
  };
}
