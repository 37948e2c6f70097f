import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.js';
import type { Clock } from '../../types.js';
import { appendAuditEvent } from '../audit/index.js';
import {
  clearExpiredConsentRecords,
  deleteDecidedIdentityDocuments,
  clearMessageTexts,
  deleteOutboxMessages,
  deleteRowsCreatedBefore,
  dueApplications,
  enabledRules,
  insertRetentionRun,
  lockApplication,
  PHONE_PROOF_TABLES,
  type ApplicationTarget,
  type RetentionRule,
  type RetentionRun,
} from './retention.store.js';

/** The audit chain of the retention schedule: one `privacy.retention_run` event per run. */
export const RETENTION_CHAIN = 'privacy:retention-schedule';

export interface RetentionCount {
  done: number;
  refused: number;
  failed: number;
}

/** What erasing one application answered: erased, held (a signed contract the law keeps), or erased before. */
export type EraseOutcome = 'erased' | 'held' | 'already';

export interface RetentionDeps {
  db: Db;
  clock: Clock;
  country: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /**
   * Erases one application in the caller's transaction (erase-application.ts); `pastLegalTerm`
   * when the rule is the one that ends a signed contract's legal minimum.
   */
  erase(tx: Executor, applicationId: string, options: { pastLegalTerm: boolean }): Promise<EraseOutcome>;
  /** How many rows one batch takes (one statement, or one transaction per application of it). */
  batchSize?: number;
}

const DEFAULT_BATCH = 100;
const DAY_MS = 86_400_000;

/** What each target supports: the date its age counts from and its action (the CHECKs of migrations 0025, 0027, 0028, 0030, 0032). */
const TARGETS: Record<string, { countedFrom: string; action: string }> = {
  'abandoned-before-consent': { countedFrom: 'last-activity', action: 'erase-application' },
  'inactive-after-consent': { countedFrom: 'last-activity', action: 'erase-application' },
  'rejected-application': { countedFrom: 'rejection', action: 'erase-application' },
  'signed-contract': { countedFrom: 'last-signature', action: 'erase-application' },
  'decided-identity-documents': { countedFrom: 'verification-decision', action: 'delete-files' },
  'consent-records': { countedFrom: 'consent-given', action: 'clear-consent-records' },
  'sms-outbox': { countedFrom: 'message-sent', action: 'delete-rows' },
  'phone-proof': { countedFrom: 'proof-started', action: 'delete-rows' },
  'client-errors': { countedFrom: 'error-reported', action: 'delete-rows' },
  'message-texts': { countedFrom: 'message-sent', action: 'clear-message-texts' },
};

/**
 * Erases the applications a rule finds due, in batches by id; each in its own transaction under
 * its row's lock, checked due again there: two runs at once (two processes) erase each one once.
 */
async function eraseDue(deps: RetentionDeps, rule: RetentionRule, cutoff: Date): Promise<RetentionCount> {
  const target = rule.appliesTo as ApplicationTarget;
  const country = rule.country;
  const limit = deps.batchSize ?? DEFAULT_BATCH;
  const count: RetentionCount = { done: 0, refused: 0, failed: 0 };
  let afterId: string | undefined;
  for (;;) {
    const batch = await dueApplications(deps.db, target, { cutoff, country, afterId, limit });
    for (const id of batch) {
      try {
        const outcome = await deps.db.transaction(async (tx) => {
          if (!(await lockApplication(tx, id))) return 'gone';
          const [still] = await dueApplications(tx, target, { cutoff, country, onlyId: id, limit: 1 });
          if (!still) return 'gone';
          return deps.erase(tx, id, { pastLegalTerm: target === 'signed-contract' });
        });
        if (outcome === 'erased') count.done++;
        else if (outcome === 'held') count.refused++;
      } catch (error) {
        // One application that cannot be erased (a bug, a constraint) does not stop the others; the
        // next run tries it again. Its id only: the error may quote personal values.
        count.failed++;
        deps.log.warn({ rule: rule.name, applicationId: id, error: (error as Error).name }, 'retention erase failed');
      }
    }
    if (batch.length < limit) return count;
    afterId = batch.at(-1);
    // A long schedule never holds the event loop: requests get their turn between batches.
    await nextTurn();
  }
}

/** Deletes (or clears) in batches of one statement (each its own transaction) until nothing due is left. */
async function deleteDue(
  deps: RetentionDeps,
  remove: (tx: Executor, limit: number) => Promise<number>,
): Promise<RetentionCount> {
  const limit = deps.batchSize ?? DEFAULT_BATCH;
  const count: RetentionCount = { done: 0, refused: 0, failed: 0 };
  for (;;) {
    const deleted = await deps.db.transaction((tx) => remove(tx, limit));
    count.done += deleted;
    if (deleted < limit) return count;
    await nextTurn();
  }
}

async function applyRule(deps: RetentionDeps, rule: RetentionRule, now: Date): Promise<RetentionCount | null> {
  const supported = TARGETS[rule.appliesTo];
  if (!supported || supported.countedFrom !== rule.countedFrom || supported.action !== rule.action) {
    // An edited rule the code cannot honour is left alone, loudly, rather than guessed at.
    deps.log.warn({ rule: rule.name }, 'retention rule not supported as written; skipped');
    return null;
  }
  const cutoff = new Date(now.getTime() - rule.ageDays * DAY_MS);
  switch (rule.appliesTo) {
    case 'decided-identity-documents':
      return deleteDue(deps, (tx, limit) => deleteDecidedIdentityDocuments(tx, cutoff, limit));
    case 'consent-records':
      return deleteDue(deps, (tx, limit) => clearExpiredConsentRecords(tx, cutoff, limit));
    case 'sms-outbox':
      return deleteDue(deps, (tx, limit) => deleteOutboxMessages(tx, cutoff, limit));
    case 'phone-proof': {
      // Codes, proof starts and reverse-OTP sessions, table after table, each in its own batches.
      let done = 0;
      for (const table of PHONE_PROOF_TABLES) {
        done += (await deleteDue(deps, (tx, limit) => deleteRowsCreatedBefore(tx, table, cutoff, limit))).done;
      }
      return { done, refused: 0, failed: 0 };
    }
    case 'client-errors':
      return deleteDue(deps, (tx, limit) => deleteRowsCreatedBefore(tx, 'client_errors', cutoff, limit));
    case 'message-texts':
      return deleteDue(deps, (tx, limit) => clearMessageTexts(tx, cutoff, limit));
    default:
      return eraseDue(deps, rule, cutoff);
  }
}

/**
 * One run of the schedule: the enabled rules of the country in order, each against the run's start
 * time, then ONE audit event with the counts per rule, written with the run's row.
 */
export async function runRetentionSchedule(deps: RetentionDeps): Promise<RetentionRun> {
  const startedAt = deps.clock();
  const counts: Record<string, RetentionCount> = {};
  for (const rule of await enabledRules(deps.db, deps.country)) {
    const count = await applyRule(deps, rule, startedAt);
    if (!count) continue;
    // A name may have a row for every country and one for this country: one count for the name.
    const before = counts[rule.name];
    counts[rule.name] = before
      ? {
          done: before.done + count.done,
          refused: before.refused + count.refused,
          failed: before.failed + count.failed,
        }
      : count;
  }
  const finishedAt = deps.clock();
  return deps.db.transaction(async (tx) => {
    const run = await insertRetentionRun(tx, { startedAt, finishedAt, counts });
    await appendAuditEvent(tx, {
      applicationId: RETENTION_CHAIN,
      actor: 'system',
      type: 'privacy.retention_run',
      payload: { run_id: run.id, started_at: startedAt.toISOString(), counts },
      at: finishedAt,
    });
    return run;
  });
}
