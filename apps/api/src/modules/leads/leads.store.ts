import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { leads } from '../../db/schema.js';

/** Leads the web app reports for the sales team, one per `lead_id`. */
export type LeadRow = typeof leads.$inferSelect;
type NewLead = Omit<typeof leads.$inferInsert, 'id'>;

/** Inserts the lead unless its `lead_id` is taken: the new row, or undefined. */
export async function insertLead(db: Executor, lead: NewLead): Promise<LeadRow | undefined> {
  const [created] = await db.insert(leads).values(lead).onConflictDoNothing({ target: leads.leadId }).returning();
  return created;
}

export async function findLead(db: Executor, leadId: string): Promise<LeadRow | undefined> {
  const [stored] = await db.select().from(leads).where(eq(leads.leadId, leadId)).limit(1);
  return stored;
}
