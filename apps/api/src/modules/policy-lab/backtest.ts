import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { creditPolicySchema, getCountry, type BacktestView, type StartBacktestBody } from '@provee/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { JobKind, JobQueue } from '../jobs/index.js';
import type { PolicyBook } from '../policies/index.js';
import { staffActor, type StaffRow } from '../staff/index.js';
import { countDecisions, decisionsPage, type PageEnd, type ReplayScope } from './backtest.store.js';
import { nextDay, zonedMidnight } from './country-days.js';
import { Tally } from './replay.js';
import {
  findBacktest,
  findPolicy,
  finishBacktest,
  insertBacktest,
  recordBacktestProgress,
  type BacktestRow,
} from './versions.store.js';

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
  /** The tested version's revision and document as they were when the backtest began (a draft may change). */
  revision: number;
  document: Record<string, unknown>;
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

/** Replays the range and stores the counts on the backtest's row. */
export async function runBacktest(
  deps: Omit<BacktestDeps, 'jobs' | 'inlineMax'>,
  id: string,
): Promise<BacktestRow | undefined> {
  const row = await findBacktest(deps.db, id);
  if (!row || row.status !== 'RUNNING') return row;
  const params = row.params as unknown as Params;
  const live = await findPolicy(deps.db, params.live_id);
  if (!live) throw new Error(`backtest ${id}: the live version is gone`);
  const testedPolicy = creditPolicySchema.parse(params.document);
  const livePolicy = deps.policies.documentOf(live);
  const scope = scopeOf(deps, params);
  const started = performance.now();
  const tally = new Tally(livePolicy, testedPolicy);
  let after: PageEnd | null = null;
  for (;;) {
    const page = await decisionsPage(deps.db, scope, after, PAGE);
    for (const decision of page) tally.add(decision);
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { createdAt: last.cursor, id: last.id };
    await recordBacktestProgress(deps.db, id, tally.decisions + tally.skipped);
    await yieldToEventLoop();
  }
  return finishBacktest(deps.db, id, {
    status: 'DONE',
    processed: tally.decisions + tally.skipped,
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
  const params: Params = {
    from: body.from,
    to: body.to,
    utm_source: body.utm_source || null,
    live_id: live.id,
    revision: policy.revision,
    document: policy.document,
  };
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
    revision: params.revision,
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
    // queue run it once more from the start after it expires (an hour: 100,000 decisions take ~1 s).
    retryLimit: 1,
    expireInSeconds: 3600,
    run: async ({ backtest_id }) => runOrFail(deps, backtest_id),
  };
}
