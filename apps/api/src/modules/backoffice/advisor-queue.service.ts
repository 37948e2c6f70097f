import type { AdvisorTaskSource, AdvisorTaskView } from '@provee/domain';
import type { Db, Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, staffChain, type StaffRow } from '../staff/index.js';
import {
  ADVISOR_QUEUE_LIMIT,
  changeTaskRow,
  contactRows,
  contactWhere,
  leadRows,
  openTasks,
  type Change,
} from './advisor-queue.store.js';

interface QueueDeps {
  db: Db;
  clock: () => Date;
}

const NOT_FOUND = new AppError(404, 'ADVISOR_TASK_NOT_FOUND', 'task source not found', 'No encontramos esa tarea.');
const ALREADY_DONE = new AppError(409, 'ADVISOR_TASK_DONE', 'task already done', 'Esta tarea ya está terminada.');
const taken = (name: string | null) =>
  new AppError(
    409,
    'ADVISOR_TASK_TAKEN',
    'task claimed by someone else',
    `Esta tarea ya la tomó ${name ?? 'otra persona'}. Elige otra de la cola.`,
  );

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
  const open = options.includeDone ? undefined : openTasks();
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
    const [row] = await contactRows(db, contactWhere(Number(sourceId)));
    if (!row) throw NOT_FOUND;
    return taskView(source, row);
  }
  // Only a person's first lead is a task: a later login's lead id names none.
  const [row] = await leadRows(db, undefined, sourceId);
  if (!row) throw NOT_FOUND;
  return taskView(source, row);
}

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
    const changed = await changeTaskRow(tx, { change, source, sourceId, memberId: member.id, now, note });
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
