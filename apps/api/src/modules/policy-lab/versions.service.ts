import {
  describePolicyChanges,
  staffMay,
  type PolicyDetailView,
  type PolicyVersionView,
  type SavePolicyDraftBody,
  type StaffRole,
} from '@provee/domain';
import type { Db, Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, type StaffRow } from '../staff/index.js';
import {
  discardDraft,
  findLive,
  findPolicy,
  insertDraft,
  listPolicies,
  lockLive,
  markPublished,
  nextNumber,
  pointLive,
  saveDraft,
  type LiveRow,
  type PolicyListRow,
  type PolicyRow,
} from './versions.store.js';
import { policyChain, type PolicyBook } from '../policies/index.js';

/**
 * The policy's versions as the back office works them (issue 33, decision 037): an analyst drafts,
 * an admin who did not write it publishes (live or in shadow), any earlier version goes live again
 * in one step. Every change of the live pointer is an audited event of the country's policy chain,
 * in the transaction that makes it, under a lock of the country's pointer (one change at a time).
 */
export interface PolicyDeps {
  db: Db;
  clock: () => Date;
  policies: PolicyBook;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

const NOT_FOUND = () =>
  new AppError(404, 'POLICY_NOT_FOUND', 'policy version not found', 'No encontramos esa versión de la política.');
const conflict = (message: string) => new AppError(409, 'POLICY_CONFLICT', 'policy version changed', message);
const forbidden = (code: string, message: string) => new AppError(403, code, 'not allowed on this version', message);

function versionView(row: PolicyListRow, live: LiveRow | undefined): PolicyVersionView {
  return {
    id: row.id,
    number: row.number,
    label: row.label,
    status: row.status as PolicyVersionView['status'],
    live: live?.policyId === row.id,
    shadow: live?.shadowPolicyId === row.id,
    description: String(row.document.description ?? ''),
    author:
      row.author === 'system'
        ? { id: null, name: 'Versión inicial' }
        : { id: row.author.slice(6), name: row.authorName ?? 'Empleado' },
    based_on_number: row.basedOnNumber,
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    published_at: iso(row.publishedAt),
    published_by: row.publishedBy === 'system' ? 'Versión inicial' : (row.publisherName ?? null),
  };
}

async function versions(deps: PolicyDeps) {
  const [rows, live] = await Promise.all([
    listPolicies(deps.db, deps.policies.country),
    findLive(deps.db, deps.policies.country),
  ]);
  return { rows, live };
}

export async function listVersions(deps: PolicyDeps): Promise<{ country: string; versions: PolicyVersionView[] }> {
  const { rows, live } = await versions(deps);
  return { country: deps.policies.country, versions: rows.map((row) => versionView(row, live)) };
}

/** Why this member may not publish this version, or null when they may. */
function publishRefusal(member: StaffRow, row: PolicyRow): string | null {
  if (row.status !== 'DRAFT') return 'Solo se publica un borrador.';
  if (!staffMay(member.role as StaffRole, 'publishPolicy'))
    return 'Publicar una versión le corresponde a una persona administradora.';
  if (row.author === staffActor(member))
    return 'Escribiste esta versión: otra persona administradora debe revisarla y publicarla.';
  return null;
}

export async function versionDetail(deps: PolicyDeps, member: StaffRow, id: string): Promise<PolicyDetailView> {
  const { rows, live } = await versions(deps);
  const row = rows.find((item) => item.id === id);
  if (!row) throw NOT_FOUND();
  const liveRow = rows.find((item) => item.id === live?.policyId);
  const document = deps.policies.documentOf(row);
  const liveDocument = liveRow ? deps.policies.documentOf(liveRow) : document;
  const refusal = publishRefusal(member, row);
  return {
    ...versionView(row, live),
    document,
    changes_from_live: liveRow?.id === row.id ? [] : describePolicyChanges(liveDocument, document),
    live_label: liveRow?.label ?? '',
    may_edit: row.status === 'DRAFT' && row.author === staffActor(member),
    may_publish: refusal === null,
    publish_refusal: refusal,
    may_activate:
      row.status === 'PUBLISHED' &&
      live?.policyId !== row.id &&
      row.author !== staffActor(member) &&
      staffMay(member.role as StaffRole, 'publishPolicy'),
  };
}

async function audit(tx: Executor, deps: PolicyDeps, member: StaffRow, type: string, payload: Record<string, unknown>) {
  await appendAuditEvent(tx, {
    applicationId: policyChain(deps.policies.country),
    actor: staffActor(member),
    type,
    payload,
    at: deps.clock(),
  });
}

/** The country's pointer, locked for the rest of the transaction (versions are begun and published one at a time). */
async function lockedLive(tx: Executor, deps: PolicyDeps): Promise<LiveRow> {
  const live = await lockLive(tx, deps.policies.country);
  if (!live) throw new Error(`no live credit policy for ${deps.policies.country}`);
  return live;
}

/** `v<number>`, or with a suffix when a version already has that label (version 1 keeps its file's own). */
async function freeLabel(tx: Executor, country: string, number: number): Promise<string> {
  const taken = new Set((await listPolicies(tx, country)).map((row) => row.label));
  let label = `v${number}`;
  for (let suffix = 2; taken.has(label); suffix++) label = `v${number}-${suffix}`;
  return label;
}

/** A new draft, begun from the live version or the one named; its author is the only one who edits it. */
export async function createDraft(deps: PolicyDeps, member: StaffRow, basedOnId?: string): Promise<PolicyDetailView> {
  const id = await deps.db.transaction(async (tx) => {
    const live = await lockedLive(tx, deps);
    const base = await findPolicy(tx, basedOnId ?? live.policyId);
    if (!base || base.country !== deps.policies.country) throw NOT_FOUND();
    // From a published version only: a copy of someone's unpublished draft would let its writer
    // have it published under the copier's name (four eyes).
    if (base.status !== 'PUBLISHED') throw conflict('Un borrador se empieza desde una versión publicada.');
    const number = await nextNumber(tx, deps.policies.country);
    const label = await freeLabel(tx, deps.policies.country, number);
    const row = await insertDraft(tx, {
      country: deps.policies.country,
      number,
      label,
      document: { ...base.document, version: label },
      basedOn: base.id,
      author: staffActor(member),
      createdAt: deps.clock(),
    });
    return row.id;
  });
  return versionDetail(deps, member, id);
}

async function draftOfAuthor(db: Executor, deps: PolicyDeps, member: StaffRow, id: string): Promise<PolicyRow> {
  const row = await findPolicy(db, id);
  if (!row || row.country !== deps.policies.country) throw NOT_FOUND();
  if (row.status !== 'DRAFT') throw conflict('Esta versión ya no es un borrador: no se puede cambiar.');
  if (row.author !== staffActor(member))
    throw forbidden('POLICY_NOT_AUTHOR', 'Solo quien empezó este borrador puede cambiarlo.');
  return row;
}

export async function saveDraftDocument(
  deps: PolicyDeps,
  member: StaffRow,
  id: string,
  body: SavePolicyDraftBody,
): Promise<PolicyDetailView> {
  const row = await draftOfAuthor(deps.db, deps, member, id);
  const saved = await saveDraft(deps.db, id, body.revision, { ...body.document, version: row.label }, deps.clock());
  if (!saved) throw conflict('El borrador cambió desde que lo abriste (otra pestaña). Vuelve a abrirlo.');
  return versionDetail(deps, member, id);
}

export async function discard(deps: PolicyDeps, member: StaffRow, id: string): Promise<PolicyDetailView> {
  await draftOfAuthor(deps.db, deps, member, id);
  if (!(await discardDraft(deps.db, id, deps.clock()))) throw conflict('Esta versión ya no es un borrador.');
  return versionDetail(deps, member, id);
}

/**
 * Four eyes: an admin who did not write the draft publishes it, at the revision they read, as the
 * live version or in shadow beside it. Of any number of concurrent publishes one wins.
 */
export async function publish(
  deps: PolicyDeps,
  member: StaffRow,
  id: string,
  body: { revision: number; mode: 'live' | 'shadow' },
): Promise<PolicyDetailView> {
  const row = await findPolicy(deps.db, id);
  if (!row || row.country !== deps.policies.country) throw NOT_FOUND();
  const refusal = publishRefusal(member, row);
  if (refusal) throw row.status === 'DRAFT' ? forbidden('POLICY_FOUR_EYES', refusal) : conflict(refusal);
  await deps.db.transaction(async (tx) => {
    const live = await lockedLive(tx, deps);
    const at = deps.clock();
    const published = await markPublished(tx, id, body.revision, staffActor(member), at);
    if (!published)
      throw conflict('Esta versión cambió o ya se publicó desde que la abriste. Vuelve a abrirla antes de publicar.');
    await pointLive(tx, deps.policies.country, {
      policyId: body.mode === 'live' ? id : live.policyId,
      shadowPolicyId: body.mode === 'shadow' ? id : live.shadowPolicyId,
      at,
      by: staffActor(member),
    });
    await audit(tx, deps, member, 'policy.published', {
      policy_id: id,
      number: published.number,
      label: published.label,
      mode: body.mode,
      author: published.author,
      revision: published.revision,
      previous_live_id: live.policyId,
      previous_shadow_id: live.shadowPolicyId,
    });
  });
  return versionDetail(deps, member, id);
}

/**
 * An earlier (or shadow-tested) published version decides again, in one step: a rollback, or the
 * promotion of the shadow. Approved by four eyes when it was published; made live by an admin who
 * did not write it either (publishing it in shadow must not let its writer make it decide alone).
 */
export async function activate(deps: PolicyDeps, member: StaffRow, id: string): Promise<PolicyDetailView> {
  await deps.db.transaction(async (tx) => {
    const live = await lockedLive(tx, deps);
    const row = await findPolicy(tx, id);
    if (!row || row.country !== deps.policies.country) throw NOT_FOUND();
    if (row.status !== 'PUBLISHED') throw conflict('Solo una versión publicada puede volver a decidir.');
    if (live.policyId === id) throw conflict('Esta versión ya es la vigente.');
    if (row.author === staffActor(member))
      throw forbidden('POLICY_FOUR_EYES', 'Escribiste esta versión: otra persona administradora debe hacerla vigente.');
    const previous = await findPolicy(tx, live.policyId);
    await pointLive(tx, deps.policies.country, {
      policyId: id,
      shadowPolicyId: live.shadowPolicyId === id ? null : live.shadowPolicyId,
      at: deps.clock(),
      by: staffActor(member),
    });
    await audit(tx, deps, member, (previous?.number ?? 0) > row.number ? 'policy.rolled_back' : 'policy.activated', {
      policy_id: id,
      number: row.number,
      label: row.label,
      previous_live_id: live.policyId,
      previous_live_label: previous?.label ?? null,
      // The shadow version made live stops running in shadow.
      shadow_stopped: live.shadowPolicyId === id,
    });
  });
  return versionDetail(deps, member, id);
}

/** A published version (not the live one) runs in shadow from now on, or none does. */
export async function setShadow(deps: PolicyDeps, member: StaffRow, id: string | null): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const live = await lockedLive(tx, deps);
    if (id !== null) {
      const row = await findPolicy(tx, id);
      if (!row || row.country !== deps.policies.country) throw NOT_FOUND();
      if (row.status !== 'PUBLISHED') throw conflict('Solo una versión publicada puede correr en sombra.');
      if (live.policyId === id) throw conflict('La versión vigente no puede correr en sombra de sí misma.');
    }
    if (live.shadowPolicyId === id) return;
    await pointLive(tx, deps.policies.country, {
      policyId: live.policyId,
      shadowPolicyId: id,
      at: deps.clock(),
      by: staffActor(member),
    });
    await audit(tx, deps, member, id ? 'policy.shadow_started' : 'policy.shadow_stopped', {
      policy_id: id ?? live.shadowPolicyId,
    });
  });
}
