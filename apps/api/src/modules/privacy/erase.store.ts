import { OPEN_PRIVACY_REQUEST_STATES } from '@provee/domain';
import { and, asc, eq, inArray, isNotNull, ne, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { resultRows } from '../../db/rows.js';
import { ERASED_PHONE_PREFIX } from '../application/index.js';
import {
  avals,
  contracts,
  contractSigners,
  identityVerifications,
  leads,
  privacyRequests,
  users,
} from '../../db/schema.js';

/**
 * What an erasure reads and writes across the tables of an application (issue 31). Which columns
 * it clears comes from the data map (data-map.ts), passed in by name; this file only knows how each
 * table is reached from the application: by user id, by the people on it, by their phones.
 */

/** The audit event an erasure appends: what tells an erased application apart in its chain. */
export const ERASED_EVENT = 'privacy.erased';

/**
 * A condition for background work that keys on an application: its application was not erased.
 * Erasure deletes the waiting jobs; the sweeps that adopt open rows must not give them new ones.
 */
export function applicationNotErased(applicationId: AnyColumn): SQL {
  return sql`not exists (select 1 from ${users} where ${users.id} = ${applicationId} and ${users.phoneE164} like ${`${ERASED_PHONE_PREFIX}%`})`;
}

/** The application row, locked for the erasure (a second erasure or a step waits, then sees it erased). */
export async function lockApplication(tx: Executor, id: string) {
  const [row] = await tx
    .select({ id: users.id, phoneE164: users.phoneE164 })
    .from(users)
    .where(eq(users.id, id))
    .for('update');
  return row;
}

/**
 * Everyone on the application and their numbers: the guarantors (replaced ones too) and the signers.
 * The signers and the contract are locked (in the order a signature locks them: signer, then
 * contract), so a signature committing meanwhile is waited for and then seen by hasSignedContract,
 * and one starting later waits for the erasure and finds its signer tombstoned.
 */
export async function peopleOf(tx: Executor, userId: string) {
  const guarantors = await tx
    .select({ id: avals.id, phone: avals.phoneE164 })
    .from(avals)
    .where(eq(avals.userId, userId));
  const signers = await tx
    .select({ id: contractSigners.id, phone: contractSigners.phoneE164, state: contractSigners.state })
    .from(contractSigners)
    .where(eq(contractSigners.userId, userId))
    .orderBy(asc(contractSigners.id))
    .for('update');
  await tx.select({ id: contracts.id }).from(contracts).where(eq(contracts.userId, userId)).for('update');
  const checks = signers.length
    ? await tx
        .select({ id: identityVerifications.id })
        .from(identityVerifications)
        .where(
          inArray(
            identityVerifications.signerId,
            signers.map((signer) => signer.id),
          ),
        )
    : [];
  return { guarantors, signers, checkIds: checks.map((check) => check.id) };
}

/** Whether the application has a signed contract (evidence the law makes us keep). */
export async function hasSignedContract(tx: Executor, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.userId, userId), isNotNull(contracts.signedSha256)))
    .limit(1);
  return rows.length > 0;
}

/**
 * The protected evidence tables (identity documents, signed signers) accept the erasure's writes in
 * this transaction only (migrations 0025 and 0026).
 */
export async function allowErasureWrites(tx: Executor): Promise<void> {
  await tx.execute(sql`select set_config('provee.erasing', 'on', true)`);
}

/** Sets each named column to null on the rows `where` picks; the number of rows. */
export async function clearColumns(tx: Executor, table: string, columns: string[], where: SQL): Promise<number> {
  if (columns.length === 0) return 0;
  const set = sql.join(
    columns.map((column) => sql`${sql.identifier(column)} = null`),
    sql`, `,
  );
  const result = resultRows<{ n: number }>(
    await tx.execute(sql`with changed as (update ${sql.identifier(table)} set ${set} where ${where} returning 1)
      select count(*)::int as n from changed`),
  );
  return result[0]?.n ?? 0;
}

/** Deletes the rows `where` picks; the number of rows. */
export async function deleteRows(tx: Executor, table: string, where: SQL): Promise<number> {
  const result = resultRows<{ n: number }>(
    await tx.execute(sql`with gone as (delete from ${sql.identifier(table)} where ${where} returning 1)
      select count(*)::int as n from gone`),
  );
  return result[0]?.n ?? 0;
}

/** `column = any(values)`, or false for no values (a table reached by nothing this time). */
export function anyOf(column: string, values: readonly string[]): SQL {
  if (values.length === 0) return sql`false`;
  return sql`${sql.identifier(column)} in (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

/** The applicant's phone tombstoned: the unique number is free again, so proving it starts anew. */
export async function tombstoneApplicantPhone(tx: Executor, userId: string, at: Date): Promise<void> {
  await tx
    .update(users)
    .set({ phoneE164: `${ERASED_PHONE_PREFIX}${userId}`, updatedAt: at })
    .where(eq(users.id, userId));
}

/** The signers' name and phone (NOT NULL: a contract keeps its slots) tombstoned. */
export async function tombstoneSigners(tx: Executor, userId: string, at: Date): Promise<number> {
  const rows = await tx
    .update(contractSigners)
    .set({ name: '', phoneE164: sql`${ERASED_PHONE_PREFIX} || ${contractSigners.id}::text`, updatedAt: at })
    .where(eq(contractSigners.userId, userId))
    .returning({ id: contractSigners.id });
  return rows.length;
}

/** The contract's draft (NOT NULL, with the names printed in it) emptied; a signed copy dropped. */
export async function emptyContractDocuments(tx: Executor, userId: string, at: Date): Promise<number> {
  const rows = await tx
    .update(contracts)
    .set({ unsignedPdf: new Uint8Array(0), signedPdf: null, updatedAt: at })
    .where(eq(contracts.userId, userId))
    .returning({ id: contracts.id });
  return rows.length;
}

/** The ids of the leads a phone left (the advisor's tasks name them). */
export async function leadIdsOf(tx: Executor, phones: readonly string[]): Promise<string[]> {
  if (phones.length === 0) return [];
  const rows = await tx
    .select({ id: leads.leadId })
    .from(leads)
    .where(inArray(leads.shopkeeperPhoneE164, [...phones]));
  return rows.map((row) => row.id);
}

/** The applicant's contact requests (advisor_events), which advisor tasks name by id. */
export async function advisorEventIdsOf(tx: Executor, userId: string): Promise<string[]> {
  const rows = resultRows<{ id: string }>(
    await tx.execute(sql`select id::text as id from advisor_events where user_id = ${userId}`),
  );
  return rows.map((row) => row.id);
}

/** The queue's SMS jobs (pending and archived): their data carries the number and text, sealed. */
export async function smsJobs(tx: Executor, name: string): Promise<{ id: string; table: string; to: string }[]> {
  const rows: { id: string; table: string; to: string }[] = [];
  for (const table of ['job', 'archive']) {
    const found = resultRows<{ id: string; to: string | null }>(
      await tx.execute(
        sql`select id::text as id, data ->> 'to' as "to" from ${sql.identifier('pgboss')}.${sql.identifier(table)}
          where name = ${name}`,
      ),
    );
    for (const row of found) if (row.to) rows.push({ id: row.id, table, to: row.to });
  }
  return rows;
}

export async function deleteJobs(tx: Executor, table: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = resultRows<{ n: number }>(
    await tx.execute(sql`with gone as (delete from ${sql.identifier('pgboss')}.${sql.identifier(table)}
      where id in (${list}) returning 1) select count(*)::int as n from gone`),
  );
  return result[0]?.n ?? 0;
}

/**
 * The phones among `phones` that someone outside this application still answers to: another
 * application's applicant, or a guarantor or signer of another application (an erased one's are
 * tombstoned or cleared, so only live people count). Their codes, proofs, outbox and leads are theirs.
 */
export async function phonesNamedElsewhere(
  tx: Executor,
  applicationId: string,
  phones: readonly string[],
): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const list = [...phones];
  const [applicants, guarantors, signers] = await Promise.all([
    tx
      .select({ phone: users.phoneE164 })
      .from(users)
      .where(and(inArray(users.phoneE164, list), ne(users.id, applicationId))),
    tx
      .select({ phone: avals.phoneE164 })
      .from(avals)
      .where(and(inArray(avals.phoneE164, list), ne(avals.userId, applicationId))),
    tx
      .select({ phone: contractSigners.phoneE164 })
      .from(contractSigners)
      .where(and(inArray(contractSigners.phoneE164, list), ne(contractSigners.userId, applicationId))),
  ]);
  return new Set(
    [...applicants, ...guarantors, ...signers].map((row) => row.phone).filter((phone): phone is string => !!phone),
  );
}

/**
 * The kinds of queued job whose data names something of an application, and how: each value is the
 * SQL (over the job's `data`) that says the job is this application's. Their data holds ids only,
 * but a job left waiting would run on the erased application (send an invitation, query the bureau).
 * `webhook-send` is not here: it delivers the application's public events, the erasure's own too.
 */
export const ERASED_JOB_KINDS = [
  'signing-invitation',
  'contract-copy-sms',
  'bureau-query',
  'bureau-consent-audit',
  'remote-consent',
  'identity-simulated-answer',
] as const;

/**
 * Deletes the waiting jobs (created or retrying; a running one belongs to its worker, and the step
 * guards refuse what it tries on the erased application) of ERASED_JOB_KINDS whose data names this
 * application, one statement over pg-boss's job table. Runs before the erasure deletes the reverse-OTP sessions a
 * `remote-consent` job names. The number of jobs deleted.
 */
export async function deleteWaitingJobsOf(
  tx: Executor,
  applicationId: string,
  people: { signerIds: readonly string[]; guarantorIds: readonly string[]; checkIds: readonly string[] },
): Promise<number> {
  const [invitation, copy, bureau, consentAudit, remoteConsent, simulatedAnswer] = ERASED_JOB_KINDS;
  const names = sql.join(
    ERASED_JOB_KINDS.map((name) => sql`${name}`),
    sql`, `,
  );
  const result = resultRows<{ n: number }>(
    await tx.execute(sql`with gone as (
      delete from ${sql.identifier('pgboss')}.${sql.identifier('job')} as job
      where job.name in (${names}) and job.state::text in ('created', 'retry') and (
        (job.name = ${invitation} and job.data ->> 'user_id' = ${applicationId})
        or (job.name = ${copy} and ${inData('signer_id', people.signerIds)})
        or (job.name = ${bureau} and job.data ->> 'id' in (select id::text from bureau_queries where user_id = ${applicationId}))
        or (job.name = ${consentAudit} and job.data ->> 'id' in (select id::text from bureau_consent_audits where user_id = ${applicationId}))
        or (job.name = ${remoteConsent} and job.data ->> 'session_id' in (select id::text from reverse_otp_sessions where ${anyOf('aval_id', people.guarantorIds)}))
        or (job.name = ${simulatedAnswer} and ${inData('verification_id', people.checkIds)})
      ) returning 1)
      select count(*)::int as n from gone`),
  );
  return result[0]?.n ?? 0;
}

/** `data ->> key` is one of the values (false for none). */
function inData(key: string, values: readonly string[]): SQL {
  if (values.length === 0) return sql`false`;
  return sql`job.data ->> ${key} in (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

/**
 * The application's other open requests (a rectification, an access request filed beside the
 * cancellation) closed as answered by the erasure: nothing is left to rectify or give, and an open
 * one would let staff write a value back into the erased row. Their ids.
 */
export async function closeOpenRequests(
  tx: Executor,
  applicationId: string,
  actor: string,
  at: Date,
): Promise<string[]> {
  const rows = await tx
    .update(privacyRequests)
    .set({ state: 'DONE', resolution: 'erased', decidedAt: at, decidedBy: actor })
    .where(
      and(
        eq(privacyRequests.applicationId, applicationId),
        inArray(privacyRequests.state, [...OPEN_PRIVACY_REQUEST_STATES]),
      ),
    )
    .returning({ id: privacyRequests.id });
  return rows.map((row) => row.id);
}

/** A request's reason is free text (NOT NULL): emptied; its folio, kind, dates and answer stay. */
export async function emptyRequestReasons(tx: Executor, applicationId: string): Promise<number> {
  const rows = await tx
    .update(privacyRequests)
    .set({ reason: '' })
    .where(and(eq(privacyRequests.applicationId, applicationId), ne(privacyRequests.reason, '')))
    .returning({ id: privacyRequests.id });
  return rows.length;
}
