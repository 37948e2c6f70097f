import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firstRow, returnedRow } from '../../db/rows.js';
import { leads } from '../../db/schema.js';

/** Leads the web app reports for the sales team, one per `lead_id`. */
export type LeadRow = typeof leads.$inferSelect;
type NewLead = Omit<typeof leads.$inferInsert, 'id'>;

/** Inserts the lead unless its `lead_id` is taken: the new row, or undefined. */
export async function insertLead(db: Executor, lead: NewLead): Promise<LeadRow | undefined> {
  return returnedRow(db.insert(leads).values(lead).onConflictDoNothing({ target: leads.leadId }).returning());
}

export async function findLead(db: Executor, leadId: string): Promise<LeadRow | undefined> {
  return firstRow(db.select().from(leads).where(eq(leads.leadId, leadId)));
}
