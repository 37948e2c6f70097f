import {
  addBusinessDays,
  COUNTRIES,
  countryToday,
  PRIVACY_DEADLINE_BUSINESS_DAYS,
  type CountryCode,
  type FilePrivacyRequestBody,
  type PrivacyRequestView,
} from '@provee/domain';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../types.js';
import { appendAuditEvent } from '../audit/index.js';
import { insertPrivacyRequest, listApplicationRequests, type PrivacyRequestRow } from './requests.store.js';

export interface RequestDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'COUNTRY' | 'PRIVACY_DEADLINE_BUSINESS_DAYS' | 'PRIVACY_HOLIDAYS'>;
}

/** The last day to answer a request filed at `at`: the configured term, else the country's, in business days. */
export function privacyDeadline(config: RequestDeps['config'], at: Date): string {
  const days = config.PRIVACY_DEADLINE_BUSINESS_DAYS ?? PRIVACY_DEADLINE_BUSINESS_DAYS[config.COUNTRY];
  // Counted from the day in the country: a request filed at 11 p.m. in Santo Domingo is of that day.
  return addBusinessDays(countryToday(COUNTRIES[config.COUNTRY], at), days, config.PRIVACY_HOLIDAYS);
}

export function requestView(row: PrivacyRequestRow, now: Date, country: CountryCode): PrivacyRequestView {
  const open = row.state === 'RECEIVED' || row.state === 'IN_PROGRESS';
  return {
    id: row.id,
    folio: row.folio,
    application_id: row.applicationId,
    kind: row.kind,
    reason: row.reason,
    field: (row.field as PrivacyRequestView['field']) ?? null,
    state: row.state,
    deadline: row.deadline,
    overdue: open && row.deadline < countryToday(COUNTRIES[country], now),
    refusal_reason: row.refusalReason,
    resolution: row.resolution,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
  };
}

const ALREADY_OPEN = (kind: string) =>
  new AppError(
    409,
    'PRIVACY_REQUEST_OPEN',
    `an open ${kind} request exists`,
    'Ya tienes una solicitud de este tipo en trámite. Te responderemos antes de la fecha límite que ves en tu lista.',
  );

/** The applicant files a request: folio, legal deadline, audited with it in one transaction. */
export async function filePrivacyRequest(
  deps: RequestDeps,
  applicationId: string,
  body: FilePrivacyRequestBody,
): Promise<PrivacyRequestView> {
  const now = deps.clock();
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertPrivacyRequest(tx, {
      applicationId,
      kind: body.kind,
      reason: body.reason,
      field: body.kind === 'rectification' ? (body.field ?? null) : null,
      country: deps.config.COUNTRY,
      deadline: privacyDeadline(deps.config, now),
      createdAt: now,
    });
    if (!inserted) throw ALREADY_OPEN(body.kind);
    // The chain holds the folio and the kind, not the reason the person wrote (it may name data).
    await appendAuditEvent(tx, {
      applicationId,
      actor: `user:${applicationId}`,
      type: 'privacy.request_filed',
      payload: { request_id: inserted.id, folio: inserted.folio, kind: inserted.kind, deadline: inserted.deadline },
      at: now,
    });
    return inserted;
  });
  return requestView(row, now, deps.config.COUNTRY);
}

export async function myPrivacyRequests(deps: RequestDeps, applicationId: string): Promise<PrivacyRequestView[]> {
  const now = deps.clock();
  return (await listApplicationRequests(deps.db, applicationId)).map((row) =>
    requestView(row, now, deps.config.COUNTRY),
  );
}
