import type { AdvisorTaskSource, AdvisorTaskView } from '@provee/domain';
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { advisorEvents, advisorTasks, leads, staff, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, staffChain, type StaffRow } from '../staff/index.js';

interface QueueDeps {
  db: Db;
  clock: () => Date;
}

/** The contract has no paging: the oldest work comes first, and this many is more than a shift. */
export const ADVISOR_QUEUE_LIMIT = 500;

const NOT_FOUND = new AppError(404, 'ADVISOR_TASK_NOT_FOUND', 'task source not found', 'No encontramos esa tarea.');
const ALREADY_DONE = new AppError(409, 'ADVISOR_TASK_DONE', 'task already done', 'Esta tarea ya está terminada.');
const taken = (name: string | null) =>
  new AppError(
    409,
    'ADVISOR_TASK_TAKEN',
    'task claimed by someone else',
    `Esta tarea ya la tomó ${name ?? 'otra persona'}. Elige otra de la cola.`,
  );

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

function contactRows(db: Executor, where: SQL | undefined) {
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
function leadRows(db: Executor, where: SQL | undefined, leadId?: string) {
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

// The lead shape (a lead may have no applicant yet); a contact request is one visit, at its own time.
type LeadRow = Awaited<ReturnType<typeof leadRows>>[number];
type TaskRow = Omit<LeadRow, 'visits' | 'lastSeenMs'> & Partial<Pick<LeadRow, 'visits' | 'lastSeenMs'>>;

function taskView(source: AdvisorTaskSource, row: TaskRow): AdvisorTaskView {
  const name = [row.name, row.lastname, row.maternalLastname].filter(Boolean).join(' ');
  return {
    source,
    source_id: row.sourceId,
    kind: row.kind,
    application_id: row.applicationId,
    phone: row.phone,
    name: name || null,
    created_at: row.createdAt.toISOString(),
    claimed_by: row.claimedById ? { id: row.claimedById, name: row.claimedByName ?? '' } : null,
    claimed_at: row.claimedAt?.toISOString() ?? null,
    done_at: row.doneAt?.toISOString() ?? null,
    call_url: `tel:${row.phone}`,
    chat_url: `https://wa.me/${row.phone.replace(/\D/g, '')}`,
    visits: Number(row.visits ?? 1),
    last_seen_at:
      row.lastSeenMs === undefined ? row.createdAt.toISOString() : new Date(Number(row.lastSeenMs)).toISOString(),
  };
}

/** Contact requests and new leads, oldest first; finished ones only when asked for. */
export async function listAdvisorQueue(db: Db, options: { includeDone: boolean }): Promise<AdvisorTaskView[]> {
  const open = options.includeDone ? undefined : isNull(advisorTasks.doneAt);
  const [contacts, newLeads] = await Promise.all([contactRows(db, open), leadRows(db, open)]);
  // Each list is already the oldest of its kind; merged, the cap keeps the oldest of both.
  return [
    ...contacts.map((row) => ({ at: row.createdAt.getTime(), view: taskView('contact', row) })),
    ...newLeads.map((row) => ({ at: row.createdAt.getTime(), view: taskView('lead', row) })),
  ]
    .sort((a, b) => a.at - b.at)
    .slice(0, ADVISOR_QUEUE_LIMIT)
    .map(({ view }) => view);
}

/** The task as it stands; 404 when its contact request or lead does not exist. */
async function loadTask(db: Executor, source: AdvisorTaskSource, sourceId: string): Promise<AdvisorTaskView> {
  if (source === 'contact') {
    // advisor_events ids are bigserials: anything else names no contact request.
    if (!/^[1-9]\d{0,14}$/.test(sourceId)) throw NOT_FOUND;
    const [row] = await contactRows(db, eq(advisorEvents.id, Number(sourceId)));
    if (!row) throw NOT_FOUND;
    return taskView(source, row);
  }
  // Only a person's first lead is a task: a later login's lead id names none.
  const [row] = await leadRows(db, undefined, sourceId);
  if (!row) throw NOT_FOUND;
  return taskView(source, row);
}

type Change = 'claim' | 'done';

/**
 * Claim or finish a task in ONE transaction: an insert-or-guarded-update of advisor_tasks (the
 * guard is what makes two advisors' claims exclusive, on both databases) and its audit event, on
 * the applicant's chain when there is one, else on the advisor's own.
 */
async function changeTask(
  deps: QueueDeps,
  member: StaffRow,
  change: Change,
  source: AdvisorTaskSource,
  sourceId: string,
  note?: string,
): Promise<AdvisorTaskView> {
  const now = deps.clock();
  return deps.db.transaction(async (tx) => {
    const before = await loadTask(tx, source, sourceId);
    const mine = or(isNull(advisorTasks.claimedBy), eq(advisorTasks.claimedBy, member.id));
    const claim = { claimedBy: member.id, claimedAt: now };
    const done = { doneBy: member.id, doneAt: now, note: note || null };
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
                claimedBy: sql`coalesce(${advisorTasks.claimedBy}, ${member.id}::uuid)`,
                claimedAt: sql`coalesce(${advisorTasks.claimedAt}, ${now.toISOString()}::timestamptz)`,
              },
        // A claim takes only a free task (its own claim again changes nothing); done needs it free or own.
        setWhere: and(isNull(advisorTasks.doneAt), change === 'claim' ? isNull(advisorTasks.claimedBy) : mine),
      })
      .returning({ id: advisorTasks.id });
    if (!changed) {
      const current = await loadTask(tx, source, sourceId);
      if (current.done_at) throw ALREADY_DONE;
      if (current.claimed_by?.id !== member.id) throw taken(current.claimed_by?.name ?? null);
      return current;
    }
    await appendAuditEvent(tx, {
      applicationId: before.application_id ?? staffChain(member.id),
      actor: staffActor(member),
      type: change === 'claim' ? 'advisor.task_claimed' : 'advisor.task_done',
      // The note stays in advisor_tasks: free text may hold a phone number, and the audit trail holds none.
      payload: { source, source_id: sourceId, kind: before.kind, ...(change === 'done' ? { with_note: !!note } : {}) },
      at: now,
    });
    return loadTask(tx, source, sourceId);
  });
}

export const claimAdvisorTask = (deps: QueueDeps, member: StaffRow, source: AdvisorTaskSource, sourceId: string) =>
  changeTask(deps, member, 'claim', source, sourceId);

export const finishAdvisorTask = (
  deps: QueueDeps,
  member: StaffRow,
  source: AdvisorTaskSource,
  sourceId: string,
  note: string | undefined,
) => changeTask(deps, member, 'done', source, sourceId, note);
