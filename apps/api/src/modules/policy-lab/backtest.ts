import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { BACKTEST_FLIPS_LISTED, getCountry, type BacktestView, type StartBacktestBody } from '@provee/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { JobKind, JobQueue } from '../jobs/index.js';
import { staffActor, type StaffRow } from '../staff/index.js';
import {
  countDecisions,
  decisionsPage,
  type PageEnd,
  type ReplayScope,
  type StoredDecision,
} from './backtest.store.js';
import {
  findBacktest,
  findPolicy,
  finishBacktest,
  insertBacktest,
  recordBacktestProgress,
  type BacktestRow,
} from './versions.store.js';
import {
  evaluate,
  type CreditPolicy,
  type DecisionInputs,
  type LivePolicy,
  type PolicyBook,
} from '../policies/index.js';

/**
 * The backtest (issue 33): a version replayed over the stored inputs of a range's decisions — no
 * bureau call, no catalogue read — beside the live version replayed over the same inputs, so what
 * differs is the version alone. Pages of decisions by keyset; the event loop is given back after
 * each page. A range of more than `inlineMax` decisions runs as a job, its progress kept on its row.
 */
export const POLICY_BACKTEST_JOB = 'policy-backtest';
const PAGE = 5_000;

export interface BacktestDeps {
  db: Db;
  clock: () => Date;
  policies: PolicyBook;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** POLICY_BACKTEST_INLINE_MAX: decisions a request replays itself. */
  inlineMax: number;
}

interface Params {
  from: string;
  to: string;
  utm_source: string | null;
  live_id: string;
}

/** The stored inputs as the policy reads them (a field a decision of an older release lacks reads as unknown). */
export function storedInputs(inputs: Record<string, unknown>): DecisionInputs {
  const number = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
  return {
    age: number(inputs.age, 0),
    city: String(inputs.city ?? ''),
    city_allowed: inputs.city_allowed === true,
    business_age_years: number(inputs.business_age_years, 0),
    sales_range: number(inputs.sales_range, 0),
    score: typeof inputs.score === 'number' ? inputs.score : null,
    delinquencies: number(inputs.delinquencies, 0),
    worst_past_due_delay_days:
      typeof inputs.worst_past_due_delay_days === 'number' ? inputs.worst_past_due_delay_days : null,
    open_accounts: number(inputs.open_accounts, 0),
    recent_inquiries: number(inputs.recent_inquiries, 0),
    thin_file: inputs.thin_file === true,
  };
}

type Outcome = 'APPROVED' | 'REJECTED';
const rate = (approved: number, decisions: number) =>
  decisions === 0 ? 0 : Math.round((approved / decisions) * 10_000) / 10_000;

/** What a replay counts, page after page. */
class Tally {
  decisions = 0;
  asDecided = 0;
  live = 0;
  tested = 0;
  approvedToRejected = 0;
  rejectedToApproved = 0;
  flips: NonNullable<BacktestView['result']>['flips'] = [];
  reasons = new Map<string, { live: number; tested: number }>();

  add(decision: StoredDecision, live: CreditPolicy, tested: CreditPolicy) {
    const inputs = storedInputs(decision.inputs);
    const byLive = evaluate(live, inputs);
    const byTested = evaluate(tested, inputs);
    this.decisions += 1;
    if (decision.result === 'APPROVED') this.asDecided += 1;
    if (byLive.result === 'APPROVED') this.live += 1;
    if (byTested.result === 'APPROVED') this.tested += 1;
    for (const [version, outcome] of [
      ['live', byLive],
      ['tested', byTested],
    ] as const)
      for (const rule of outcome.rules)
        if (!rule.passed) {
          const counts = this.reasons.get(rule.rule) ?? { live: 0, tested: 0 };
          counts[version] += 1;
          this.reasons.set(rule.rule, counts);
        }
    if (byLive.result === byTested.result) return;
    if (byLive.result === 'APPROVED') this.approvedToRejected += 1;
    else this.rejectedToApproved += 1;
    if (this.flips.length < BACKTEST_FLIPS_LISTED)
      this.flips.push({
        decision_id: decision.id,
        application_id: decision.userId,
        decided_at: decision.createdAt.toISOString(),
        live: byLive.result as Outcome,
        tested: byTested.result as Outcome,
        reasons: byTested.rules.filter((rule) => !rule.passed).map((rule) => rule.rule),
      });
  }

  result(durationMs: number): NonNullable<BacktestView['result']> {
    const counts = (approved: number) => ({
      decisions: this.decisions,
      approved,
      approval_rate: rate(approved, this.decisions),
    });
    return {
      as_decided: counts(this.asDecided),
      live: counts(this.live),
      tested: counts(this.tested),
      approved_to_rejected: this.approvedToRejected,
      rejected_to_approved: this.rejectedToApproved,
      flips: this.flips,
      reasons: [...this.reasons].map(([rule, counts]) => ({ rule, ...counts })).sort((a, b) => b.tested - a.tested),
      duration_ms: durationMs,
    };
  }
}

/** The range's instants: its first day's midnight and the midnight after its last, in the country's time zone. */
function scopeOf(deps: Pick<BacktestDeps, 'policies'>, params: Params): ReplayScope {
  const country = getCountry(deps.policies.country);
  return {
    currency: country.currency,
    start: zonedMidnight(params.from, country.timeZone),
    end: zonedMidnight(nextDay(params.to), country.timeZone),
    utmSource: params.utm_source ?? undefined,
  };
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Midnight of a day in a time zone, as an instant (the zone's offset read at that day's UTC midnight). */
function zonedMidnight(day: string, timeZone: string): Date {
  const utc = new Date(`${day}T00:00:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(utc);
  const get = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  const asLocal = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return new Date(utc.getTime() - (asLocal - utc.getTime()));
}

/** Replays the range and stores the counts on the backtest's row. */
export async function runBacktest(
  deps: Omit<BacktestDeps, 'jobs' | 'inlineMax'>,
  id: string,
): Promise<BacktestRow | undefined> {
  const row = await findBacktest(deps.db, id);
  if (!row || row.status !== 'RUNNING') return row;
  const params = row.params as unknown as Params;
  const [tested, live] = await Promise.all([findPolicy(deps.db, row.policyId), findPolicy(deps.db, params.live_id)]);
  if (!tested || !live) throw new Error(`backtest ${id}: its versions are gone`);
  const testedPolicy = deps.policies.document(`${tested.id}:${tested.revision}`, tested.document);
  const livePolicy = deps.policies.document(`${live.id}:${live.revision}`, live.document);
  const scope = scopeOf(deps, params);
  const started = performance.now();
  const tally = new Tally();
  let after: PageEnd | null = null;
  for (;;) {
    const page = await decisionsPage(deps.db, scope, after, PAGE);
    for (const decision of page) tally.add(decision, livePolicy, testedPolicy);
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { createdAt: last.cursor, id: last.id };
    await recordBacktestProgress(deps.db, id, tally.decisions);
    await yieldToEventLoop();
  }
  return finishBacktest(deps.db, id, {
    status: 'DONE',
    processed: tally.decisions,
    result: tally.result(Math.round(performance.now() - started)),
    at: deps.clock(),
  });
}

/** A backtest of a version over a range: replayed in the request when small, else a job (202) with progress. */
export async function startBacktest(
  deps: BacktestDeps,
  member: StaffRow,
  policyId: string,
  body: StartBacktestBody,
): Promise<{ status: 200 | 202; view: BacktestView }> {
  const policy = await findPolicy(deps.db, policyId);
  if (!policy || policy.country !== deps.policies.country)
    throw new AppError(
      404,
      'POLICY_NOT_FOUND',
      'policy version not found',
      'No encontramos esa versión de la política.',
    );
  if (policy.status === 'DISCARDED')
    throw new AppError(409, 'POLICY_CONFLICT', 'discarded version', 'Esta versión se descartó: no se puede probar.');
  const live = await deps.policies.live();
  const params: Params = { from: body.from, to: body.to, utm_source: body.utm_source || null, live_id: live.id };
  const total = await countDecisions(deps.db, scopeOf(deps, params));
  const inline = total <= deps.inlineMax;
  const row = await deps.db.transaction(async (tx) => {
    const created = await insertBacktest(tx, {
      policyId,
      requestedBy: staffActor(member),
      params: params as unknown as Record<string, unknown>,
      total,
      createdAt: deps.clock(),
    });
    if (!inline) await deps.jobs.enqueue(tx, POLICY_BACKTEST_JOB, { backtest_id: created.id });
    return created;
  });
  if (!inline) {
    deps.jobs.wake(POLICY_BACKTEST_JOB);
    return { status: 202, view: await backtestView(deps, row.id) };
  }
  await runOrFail(deps, row.id);
  return { status: 200, view: await backtestView(deps, row.id) };
}

async function runOrFail(deps: Omit<BacktestDeps, 'jobs' | 'inlineMax'>, id: string) {
  try {
    await runBacktest(deps, id);
  } catch (error) {
    deps.log.error({ err: error, backtest: id }, 'policy backtest failed');
    await finishBacktest(deps.db, id, { status: 'FAILED', processed: 0, result: null, at: deps.clock() });
  }
}

export async function backtestView(deps: Pick<BacktestDeps, 'db' | 'policies'>, id: string): Promise<BacktestView> {
  const row = await findBacktest(deps.db, id);
  const tested = row && (await findPolicy(deps.db, row.policyId));
  if (!row || !tested || tested.country !== deps.policies.country)
    throw new AppError(404, 'BACKTEST_NOT_FOUND', 'backtest not found', 'No encontramos esa prueba.');
  const params = row.params as unknown as Params;
  const live = await findPolicy(deps.db, params.live_id);
  return {
    id: row.id,
    policy_id: row.policyId,
    policy_label: tested.label,
    live_label: live?.label ?? '',
    from: params.from,
    to: params.to,
    utm_source: params.utm_source,
    status: row.status as BacktestView['status'],
    processed: row.processed,
    total: row.total,
    result: (row.result as BacktestView['result']) ?? null,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** A long range's backtest, on the queue. */
export function backtestJob(deps: Omit<BacktestDeps, 'jobs' | 'inlineMax'>): JobKind<{ backtest_id: string }> {
  return {
    name: POLICY_BACKTEST_JOB,
    // A failed replay is kept as FAILED on its row (runOrFail); a process that died mid-way has the
    // queue run it again from the start once it expires.
    retryLimit: 2,
    expireInSeconds: 600,
    run: async ({ backtest_id }) => runOrFail(deps, backtest_id),
  };
}

/** The replay of one stored decision by a version (the faithfulness check and the shadow use it). */
export function replay(version: Pick<LivePolicy, 'policy'>, inputs: Record<string, unknown>) {
  return evaluate(version.policy, storedInputs(inputs));
}
