import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Append-only audit trail. Each row carries the SHA-256 of the previous row of the same
 * application (prev_hash) and its own (hash), so editing or deleting a row breaks the chain.
 * A database trigger refuses UPDATE and DELETE (migration 0001).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    applicationId: text('application_id').notNull(),
    actor: text('actor').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    prevHash: text('prev_hash'),
    hash: text('hash').notNull(),
  },
  (table) => [index('audit_events_application_idx').on(table.applicationId, table.id)],
);
