import {
  OPEN_PRIVACY_REQUEST_STATES,
  type PrivacyRequestKind,
  type PrivacyRequestView,
  type RectifiableField,
} from '@provee/domain';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { eraseApplication, exportApplicantData, type EraseDeps, type ExportDeps } from '../privacy/index.js';
import { requestView, type RequestDeps } from './requests.service.js';
import { assertRectifiedValue, assertRequestedField, PERSON_ERASED } from './requests-rectify.rules.js';
import { rectifyField } from './requests-rectify.store.js';
import { findPrivacyRequest, lockRequestApplication, moveRequest, type PrivacyRequestRow } from './requests.store.js';

/** The requests' own deps and the cipher the data map's export and the erasure open the person's data with. */
export type StaffRequestDeps = RequestDeps & ExportDeps & EraseDeps;

const NOT_FOUND = new AppError(
  404,
  'PRIVACY_REQUEST_NOT_FOUND',
  'not found',
  'No encontramos esa solicitud de privacidad.',
);
const ANSWERED = new AppError(
  409,
  'PRIVACY_REQUEST_ANSWERED',
  'already answered',
  'Esta solicitud ya fue respondida. Recarga la página para ver su estado.',
);
const wrongKind = (action: string) =>
  new AppError(409, 'PRIVACY_REQUEST_KIND', `not a request to ${action}`, `Esta solicitud no pide ${action}.`);

async function openRequest(deps: RequestDeps, id: string): Promise<PrivacyRequestRow> {
  const row = await findPrivacyRequest(deps.db, id);
  if (!row) throw NOT_FOUND;
  return row;
}

/**
 * One answer to a request: the guarded move, what the answer changes and its audit event commit
 * together; a request another member of staff answered meanwhile is a 409 and nothing is written.
 * The application's row is locked first, whatever the answer (see lockRequestApplication: the same
 * order as the retention job's erasure). `personalWrite`: the answer writes the person's data back,
 * refused (410) once they are erased, checked under that lock so an erasure that committed while
 * this waited is seen.
 */
async function answer(
  deps: RequestDeps,
  row: PrivacyRequestRow,
  actor: string,
  event: { type: string; payload?: Record<string, unknown> },
  set: Parameters<typeof moveRequest>[3],
  change?: (tx: Tx) => Promise<void>,
  { personalWrite = false } = {},
): Promise<PrivacyRequestView> {
  const now = deps.clock();
  const moved = await deps.db.transaction(async (tx) => {
    const application = await lockRequestApplication(tx, row.applicationId);
    if (!application) throw NOT_FOUND;
    if (personalWrite && application.erased) throw PERSON_ERASED();
    const updated = await moveRequest(tx, row.id, OPEN_PRIVACY_REQUEST_STATES, {
      ...set,
      ...(set.state === 'IN_PROGRESS' ? {} : { decidedAt: now, decidedBy: actor }),
    });
    if (!updated) throw ANSWERED;
    await change?.(tx);
    // Ids and the folio only: the chain must still verify, and hold nothing, once the person is erased.
    await appendAuditEvent(tx, {
      applicationId: row.applicationId,
      actor,
      type: event.type,
      payload: { request_id: row.id, folio: row.folio, kind: row.kind, ...event.payload },
      at: now,
    });
    return updated;
  });
  return requestView(moved, now, deps.config.COUNTRY);
}

export async function privacyRequestDetail(deps: StaffRequestDeps, id: string, actor: string) {
  const row = await openRequest(deps, id);
  const person = await exportApplicantData(deps, deps.db, row.applicationId);
  // Staff looked at a person's whole record: that look is itself recorded.
  await appendAuditEvent(deps.db, {
    applicationId: row.applicationId,
    actor,
    type: 'privacy.request_viewed',
    payload: { request_id: row.id, folio: row.folio },
    at: deps.clock(),
  });
  return { request: requestView(row, deps.clock(), deps.config.COUNTRY), person };
}

export async function startPrivacyRequest(deps: RequestDeps, id: string, actor: string) {
  const row = await openRequest(deps, id);
  if (row.state !== 'RECEIVED') throw ANSWERED;
  return answer(deps, row, actor, { type: 'privacy.request_started' }, { state: 'IN_PROGRESS' });
}

export async function rectifyPrivacyRequest(
  deps: RequestDeps,
  id: string,
  actor: string,
  field: RectifiableField,
  value: string,
) {
  const row = await openRequest(deps, id);
  if (row.kind !== 'rectification') throw wrongKind('una rectificación');
  assertRequestedField(row.field, field);
  assertRectifiedValue(field, value);
  return answer(
    deps,
    row,
    actor,
    // The field's name, never its value: the correct value is personal data.
    { type: 'privacy.request_rectified', payload: { field } },
    { state: 'DONE', resolution: `rectified:${field}` },
    async (tx) => {
      if (!(await rectifyField(tx, row.applicationId, field, value, deps.clock())))
        throw new AppError(
          409,
          'PRIVACY_NOTHING_TO_RECTIFY',
          'no such data',
          'La solicitud ya no tiene ese dato guardado: no hay nada que corregir.',
        );
    },
    { personalWrite: true },
  );
}

const ERASABLE: readonly PrivacyRequestKind[] = ['cancellation', 'opposition'];

/** Cancellation (or opposition to all use): the person's data goes, the request and the chain stay. */
export async function erasePrivacyRequest(deps: StaffRequestDeps, id: string, actor: string) {
  const row = await openRequest(deps, id);
  if (!ERASABLE.includes(row.kind)) throw wrongKind('una cancelación ni una oposición');
  return answer(
    deps,
    row,
    actor,
    { type: 'privacy.request_erased' },
    { state: 'DONE', resolution: 'erased' },
    async (tx) => {
      await eraseApplication(deps, tx, row.applicationId, actor);
    },
  );
}

export async function refusePrivacyRequest(deps: RequestDeps, id: string, actor: string, legalReason: string) {
  const row = await openRequest(deps, id);
  return answer(
    deps,
    row,
    actor,
    { type: 'privacy.request_refused' },
    { state: 'REFUSED', refusalReason: legalReason, resolution: 'refused' },
  );
}
