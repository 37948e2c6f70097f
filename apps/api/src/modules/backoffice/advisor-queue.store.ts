import type { AdvisorTaskSource } from '@provee/domain';
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { advisorEvents, advisorTasks, leads, staff, users } from '../../db/schema.js';

// The advisor queue: contact requests and first leads, with the task row (advisor_tasks, this
// module's own table) of each. Reads the applications, leads and staff names as the back office's
// read side (docs/decisions/026).

/** The contract has no paging: the oldest work comes first, and this many is more than a shift. */
export const ADVISOR_QUEUE_LIMIT = 500;

/** Tasks not finished yet. */
export const openTasks = () => isNull(advisorTasks.doneAt);

/** One contact request, by its id. */
export const contactWhere = (id: number) => eq(advisorEvents.id, id);

// The task row (if any) and who claimed it, joined the same way for both sources.
const taskJoin = (source: AdvisorTaskSource, sourceId: SQL) =>
  and(eq(advisorTasks.source, source), eq(advisorTasks.sourceId, sourceId));
const taskFields = {
  claimedById: advisorTasks.claimedBy,
  claimedByName: staff.name,
  claimedAt: advisorTasks.claimedAt,
  doneAt: advisorTasks.doneAt,
  applicationId: users.id,
  name: users.name,
  lastname: users.lastname,
  maternalLastname: users.maternalLastname,
};

export function contactRows(db: Executor, where: SQL | undefined) {
  return db
    .select({
      sourceId: sql<string>`${advisorEvents.id}::text`,
      kind: advisorEvents.contactType,
      phone: users.phoneE164,
      createdAt: advisorEvents.createdAt,
      ...taskFields,
    })
    .from(advisorEvents)
    .innerJoin(users, eq(users.id, advisorEvents.userId))
    .leftJoin(advisorTasks, taskJoin('contact', sql`${advisorEvents.id}::text`))
    .leftJoin(staff, eq(staff.id, advisorTasks.claimedBy))
    .where(where)
    .orderBy(asc(advisorEvents.createdAt), asc(advisorEvents.id))
    .limit(ADVISOR_QUEUE_LIMIT);
}

/**
 * The leads by person: each login records one (decision 005, every one kept), and a person is one
 * task, so a phone's first lead stands for all of its leads (claimed and done as that one), with
 * how many there are and when the latest came. Window functions, the same on both databases.
 */
function personLeads(db: Executor, leadId?: string) {
  const phone = leads.shopkeeperPhoneE164;
  // One task: only the leads of its phone (leads_phone_idx), not the window over every lead.
  const samePerson =
    leadId === undefined
      ? undefined
      : eq(phone, sql`(select l.shopkeeper_phone_e164 from ${leads} l where l.lead_id = ${leadId})`);
  return db
    .select({
      leadId: leads.leadId,
      leadType: leads.leadType,
      phone,
      receivedAt: leads.receivedAt,
      rank: sql<number>`row_number() over (partition by ${phone} order by ${leads.receivedAt}, ${leads.leadId})`.as(
        'person_rank',
      ),
      visits: sql<number>`(count(*) over (partition by ${phone}))::int`.as('visits'),
      // Milliseconds as a float: both drivers hand it over as a number (a raw timestamp differs).
      lastSeenMs:
        sql<number>`(extract(epoch from max(${leads.receivedAt}) over (partition by ${phone})) * 1000)::float8`.as(
          'last_seen_ms',
        ),
    })
    .from(leads)
    .where(samePerson)
    .as('person_leads');
}

// A lead's time is when the server received it: the browser's clock proves nothing.
export function leadRows(db: Executor, where: SQL | undefined, leadId?: string) {
  const person = personLeads(db, leadId);
  return db
    .select({
      sourceId: person.leadId,
      kind: person.leadType,
      phone: person.phone,
      createdAt: person.receivedAt,
      visits: person.visits,
      lastSeenMs: person.lastSeenMs,
      ...taskFields,
    })
    .from(person)
    .leftJoin(users, eq(users.phoneE164, person.phone))
    .leftJoin(advisorTasks, taskJoin('lead', sql`${person.leadId}`))
    .leftJoin(staff, eq(staff.id, advisorTasks.claimedBy))
    .where(and(eq(person.rank, 1), leadId === undefined ? undefined : eq(person.leadId, leadId), where))
    .orderBy(asc(person.receivedAt), asc(person.leadId))
    .limit(ADVISOR_QUEUE_LIMIT);
}

export type Change = 'claim' | 'done';

/**
 * Claims or finishes the task: an insert-or-guarded-update of its row; undefined when the guard
 * refused (claimed by someone else, or done already).
 */
export async function changeTaskRow(
  tx: Tx,
  input: { change: Change; source: AdvisorTaskSource; sourceId: string; memberId: string; now: Date; note?: string },
) {
  const { change, source, sourceId, memberId, now, note } = input;
  const mine = or(isNull(advisorTasks.claimedBy), eq(advisorTasks.claimedBy, memberId));
  const claim = { claimedBy: memberId, claimedAt: now };
  const done = { doneBy: memberId, doneAt: now, note: note || null };
  const [changed] = await tx
    .insert(advisorTasks)
    .values({ source, sourceId, ...claim, ...(change === 'done' ? done : {}) })
    .onConflictDoUpdate({
      target: [advisorTasks.source, advisorTasks.sourceId],
      set:
        change === 'claim'
          ? claim
          : {
              ...done,
              // Finishing an unclaimed task means the one who finished it handled it.
              claimedBy: sql`coalesce(${advisorTasks.claimedBy}, ${memberId}::uuid)`,
              claimedAt: sql`coalesce(${advisorTasks.claimedAt}, ${now.toISOString()}::timestamptz)`,
            },
      // A claim takes only a free task (its own claim again changes nothing); done needs it free or own.
      setWhere: and(isNull(advisorTasks.doneAt), change === 'claim' ? isNull(advisorTasks.claimedBy) : mine),
    })
    .returning({ id: advisorTasks.id });
  return changed;
}
