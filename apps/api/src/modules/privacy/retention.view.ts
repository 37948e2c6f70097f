import type { RetentionScheduleView } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { allRules, lastRetentionRuns, type RetentionRule, type RetentionRun } from './retention.store.js';

/** How many runs the back office lists: a month of daily runs. */
const LATEST_RUNS = 30;

const ruleView = (rule: RetentionRule): RetentionScheduleView['rules'][number] => ({
  name: rule.name,
  country: rule.country,
  position: rule.position,
  applies_to: rule.appliesTo,
  counted_from: rule.countedFrom,
  age_days: rule.ageDays,
  action: rule.action,
  enabled: rule.enabled,
  legal_basis: rule.legalBasis,
});

const runView = (run: RetentionRun): RetentionScheduleView['runs'][number] => ({
  id: run.id,
  started_at: run.startedAt.toISOString(),
  finished_at: run.finishedAt.toISOString(),
  counts: run.counts,
});

/** The retention schedule as the back office shows it: every rule (on or off) and the latest runs' counts. */
export async function retentionScheduleView(db: Executor): Promise<RetentionScheduleView> {
  const [rules, runs] = await Promise.all([allRules(db), lastRetentionRuns(db, LATEST_RUNS)]);
  return { rules: rules.map(ruleView), runs: runs.map(runView) };
}
