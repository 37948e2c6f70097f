import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { retentionRules, retentionRuns } from '../../db/schema.js';
import { resultRows, returnedRow } from '../../db/rows.js';
// The audit event an erasure appends: an application that has it is not due again.
import { ERASED_EVENT } from './erase.store.js';
import { allowErasureWrites } from './erase.store.js';

/**
 * The retention schedule's tables and what its rules find due. The due queries read other modules'
 * tables (users, consents, contracts, identity checks, the SMS outbox, phone proofs): the schedule
 * decides nothing about them but their age; erasing goes through `eraseApplication`, and the rows
 * deleted or cleared here are only those a rule names (migrations 0025, 0027, 0028).
 */

export type RetentionRule = typeof retentionRules.$inferSelect;
export type RetentionRun = typeof retentionRuns.$inferSelect;

/** Application targets: the rules whose action is to erase the whole application. */
export type ApplicationTarget =
  'abandoned-before-consent' | 'inactive-after-consent' | 'rejected-application' | 'signed-contract';

/**
 * Where an application stands with the lender (submitted to it, approved, disbursed): a credit may
 * exist or be about to, so no inactivity rule erases it; only its contract's legal term ends it.
 */
const LENDER_STEPS = ['PENDING_APPROVAL', 'APPROVED', 'DISBURSED'] as const;

/** The enabled rules for a country (those of every country, and its own), in the order they run. */
export function enabledRules(db: Executor, country: string): Promise<RetentionRule[]> {
  return db
    .select()
    .from(retentionRules)
    .where(
      and(eq(retentionRules.enabled, true), or(isNull(retentionRules.country), eq(retentionRules.country, country))),
    )
    .orderBy(asc(retentionRules.position), asc(retentionRules.name), asc(retentionRules.country));
}

/** Every rule, on or off, for the back office. */
export function allRules(db: Executor): Promise<RetentionRule[]> {
  return db
    .select()
    .from(retentionRules)
    .orderBy(asc(retentionRules.position), asc(retentionRules.name), asc(retentionRules.country));
}

/** Turns a rule on or off (tests; an operator does it in SQL until a screen edits the schedule). */
export async function setRuleEnabled(db: Executor, name: string, enabled: boolean): Promise<void> {
  await db
    .update(retentionRules)
    .set({ enabled, updatedAt: sql`now()` })
    .where(eq(retentionRules.name, name));
}

/** What makes an application of `target` due: older than `cutoff`, by the date the target counts from. */
function dueCondition(target: ApplicationTarget, cutoff: Date, country: string | null): SQL {
  const at = cutoff.toISOString();
  // A signed contract is kept the legal minimum: only its own rule erases that application.
  const unsigned = sql`not exists (select 1 from contracts k where k.user_id = u.id and k.signed_sha256 is not null)`;
  switch (target) {
    case 'abandoned-before-consent':
      // Last activity: every step moves `updated_at` (the step engine). No consent of anyone on it.
      return sql`u.status <> 'REJECTED' and u.updated_at < ${at}::timestamptz
        and not exists (select 1 from bureau_consents c where c.user_id = u.id) and ${unsigned}`;
    case 'inactive-after-consent':
      // Consent given (the bureau was asked), then nothing for a year: neither rejected nor signed,
      // and never handed to the lender (at one of its steps, or with any decision of its on record).
      return sql`u.status <> 'REJECTED' and u.updated_at < ${at}::timestamptz
        and exists (select 1 from bureau_consents c where c.user_id = u.id) and ${unsigned}
        and u.next_step not in (${sql.join(
          LENDER_STEPS.map((step) => sql`${step}`),
          sql`, `,
        )})
        and not exists (select 1 from lender_decisions l where l.user_id = u.id)`;
    case 'rejected-application':
      // The rejection: the engine's audit event that moved the application to REJECTED (final, no
      // move leaves it); an application created rejected (a seed, an import) has only its row's date.
      return sql`u.status = 'REJECTED' and ${unsigned} and coalesce(
          (select max(a.created_at) from audit_events a
            where a.application_id = u.id::text and a.payload -> 'to' ->> 'status' = 'REJECTED'),
          u.updated_at) < ${at}::timestamptz`;
    case 'signed-contract':
      // The last signature re-renders the signed document under the row lock and stamps `updated_at`.
      return sql`exists (select 1 from contracts k where k.user_id = u.id and k.signed_sha256 is not null
        and k.updated_at < ${at}::timestamptz ${country === null ? sql`` : sql`and k.country = ${country}`})`;
  }
}

/**
 * Up to `limit` applications of `target` due at `cutoff` and not erased yet, by id after `afterId`
 * (a run walks them in batches); with `onlyId`, whether that one still is (under its lock).
 */
export async function dueApplications(
  db: Executor,
  target: ApplicationTarget,
  options: { cutoff: Date; country: string | null; afterId?: string; onlyId?: string; limit: number },
): Promise<string[]> {
  const rows = resultRows<{ id: string }>(
    await db.execute(sql`
      select u.id from users u
      where ${dueCondition(target, options.cutoff, options.country)}
        and not exists (select 1 from audit_events e where e.application_id = u.id::text and e.type = ${ERASED_EVENT})
        ${options.afterId ? sql`and u.id > ${options.afterId}::uuid` : sql``}
        ${options.onlyId ? sql`and u.id = ${options.onlyId}::uuid` : sql``}
      order by u.id
      limit ${options.limit}`),
  );
  return rows.map((row) => row.id);
}

/**
 * Holds the application's row until the transaction ends, so two runs (two processes) never erase
 * the same one at once: the second waits, then finds it erased (no longer due). False: no such row.
 */
export async function lockApplication(tx: Executor, applicationId: string): Promise<boolean> {
  const rows = resultRows(await tx.execute(sql`select id from users where id = ${applicationId}::uuid for update`));
  return rows.length > 0;
}

/**
 * Deletes up to `limit` images of identity checks decided before `cutoff` (the check and its outcome
 * stay); the images' trigger allows it for this transaction only (migration 0025). How many went.
 */
export async function deleteDecidedIdentityDocuments(tx: Executor, cutoff: Date, limit: number): Promise<number> {
  await allowErasureWrites(tx);
  const deleted = resultRows(
    await tx.execute(sql`
      delete from identity_documents where id in (
        select d.id from identity_documents d
        join identity_verifications v on v.id = d.verification_id
        where v.status <> 'PENDING' and v.answered_at < ${cutoff.toISOString()}::timestamptz
        order by d.id limit ${limit}
        for update of d skip locked)
      returning id`),
  );
  return deleted.length;
}

/**
 * Clears the personal columns of up to `limit` consent records given before `cutoff` whose
 * application was erased (a live application's consent is still its own evidence): the consent's
 * IP, connection addresses, browser and PIN ciphertext, and its credit decision's inputs and amount.
 * The rows stay (bureau queries and decisions reference them: foreign keys) with their folio, text,
 * hash and dates; the triggers allow exactly this update for this transaction only (migration 0028).
 * How many consents were cleared.
 */
export async function clearExpiredConsentRecords(tx: Executor, cutoff: Date, limit: number): Promise<number> {
  await allowErasureWrites(tx);
  const cleared = resultRows<{ id: string }>(
    await tx.execute(sql`
      update bureau_consents
      set ip = '', peer_ip = null, forwarded_for = null, user_agent = null, pin_encrypted = null
      where id in (
        select c.id from bureau_consents c
        where c.created_at < ${cutoff.toISOString()}::timestamptz
          and (c.ip <> '' or c.peer_ip is not null or c.forwarded_for is not null
            or c.user_agent is not null or c.pin_encrypted is not null)
          and exists (select 1 from audit_events e
            where e.application_id = c.user_id::text and e.type = ${ERASED_EVENT})
        order by c.created_at, c.id limit ${limit}
        for update of c skip locked)
      returning id`),
  );
  if (cleared.length > 0) {
    await tx.execute(sql`
      update credit_decisions set inputs = '{}'::jsonb, amount = 0
      where consent_id in (${sql.join(
        cleared.map((row) => sql`${row.id}::uuid`),
        sql`, `,
      )}) and (inputs <> '{}'::jsonb or amount <> 0)`);
  }
  return cleared.length;
}

/** Deletes up to `limit` messages of the SMS simulator's outbox written before `cutoff`. How many went. */
export async function deleteOutboxMessages(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const deleted = resultRows(
    await db.execute(sql`
      delete from sms_outbox where id in (
        select id from sms_outbox where created_at < ${cutoff.toISOString()}::timestamptz
        order by id limit ${limit}
        for update skip locked)
      returning id`),
  );
  return deleted.length;
}

/**
 * Clears up to `limit` messages' sealed number and text (codes, link tokens) kept past `cutoff`:
 * a message never reported final (a provider that sends no status) keeps them no longer; one not
 * sent by then is dropped. How many were cleared.
 */
export async function clearMessageTexts(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const cleared = resultRows(
    await db.execute(sql`
      update outgoing_messages
      set sealed = null, status = case when status = 'pending' then 'dropped' else status end
      where id in (
        select id from outgoing_messages where sealed is not null and created_at < ${cutoff.toISOString()}::timestamptz
        order by created_at limit ${limit}
        for update skip locked)
      returning id`),
  );
  return cleared.length;
}

/** The phone-proof tables the rule `phone-proof-24h` empties, each by its rows' creation time. */
export const PHONE_PROOF_TABLES = ['phone_codes', 'phone_proof_starts', 'reverse_otp_sessions'] as const;

/**
 * The tables whose rows a rule deletes by their age alone, each with a `created_at` index: the
 * phone-proof rows (codes, the starts the rate limits count, reverse-OTP sessions; modules/one-time-codes
 * and modules/phone-proof own them, and no limit of theirs looks back further than an hour) and the
 * failed calls the web app reported (modules/client-errors).
 */
export type AgedTable = (typeof PHONE_PROOF_TABLES)[number] | 'client_errors';

/** Deletes up to `limit` rows of `table` created before `cutoff`, oldest first. How many went. */
export async function deleteRowsCreatedBefore(
  db: Executor,
  table: AgedTable,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const name = sql.identifier(table);
  const deleted = resultRows(
    await db.execute(sql`
      delete from ${name} where id in (
        select id from ${name} where created_at < ${cutoff.toISOString()}::timestamptz
        order by created_at limit ${limit}
        for update skip locked)
      returning id`),
  );
  return deleted.length;
}

export async function insertRetentionRun(tx: Executor, run: Omit<RetentionRun, 'id'>): Promise<RetentionRun> {
  const row = await returnedRow(tx.insert(retentionRuns).values(run).returning());
  if (!row) throw new Error('retention run not recorded');
  return row;
}

/** The newest runs first. */
export function lastRetentionRuns(db: Executor, limit: number): Promise<RetentionRun[]> {
  return db.select().from(retentionRuns).orderBy(desc(retentionRuns.startedAt), desc(retentionRuns.id)).limit(limit);
}
