// The job queue (decision 029) on the product's database, PGlite or PostgreSQL alike: a job exists
// only if the transaction that enqueues it commits, runs on a worker, and a failing one is tried
// again with back-off until its tries are spent.
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { staffSession } from '../../test/staff.js';
import { useTestApp } from '../../test/test-app.js';
import { JOB_SCHEMA, JOB_STATES, listJobs, type QueuedJobRow } from './jobs.store.js';
import type { Database } from '../../db/client.js';
import { createJobQueue, enqueueJob, type JobKind } from './queue.js';

/** What the test kinds saw: each run's data and attempt. */
const runs: { name: string; data: { n: number }; retry: number; last: boolean }[] = [];

const recorded = (name: string, fails: (data: { n: number }, retry: number) => boolean): JobKind<{ n: number }> => ({
  name,
  retryLimit: 2,
  expireInSeconds: 30,
  async run(data, attempt) {
    runs.push({ name, data, ...attempt });
    if (fails(data, attempt.retry)) throw new Error('the counterpart is down');
  },
});

describe('job queue', () => {
  const t = useTestApp({ JOB_POLL_INTERVAL_MS: '500', JOB_RETRY_DELAY_SECONDS: '1' }, (app) => {
    app.jobs.define(recorded('test-ok', () => false));
    app.jobs.define(recorded('test-flaky', (_data, retry) => retry < 1));
    app.jobs.define(recorded('test-down', () => true));
    // A database error quotes the value it was given: a phone number here.
    app.jobs.define({
      name: 'test-database-error',
      retryLimit: 0,
      expireInSeconds: 30,
      run: async () => {
        await app.db.execute(sql`select ${'+18095559876'}::int`);
      },
    });
  });
  const jobsOf = async (name: string) =>
    (await listJobs(t.app.db, { states: [...JOB_STATES], name, limit: 10 })) as (QueuedJobRow & {
      output: { message?: string } | null;
    })[];

  it('a job enqueued in a transaction that rolls back never exists; one that commits runs once', async () => {
    await expect(
      t.app.db.transaction(async (tx) => {
        await t.app.jobs.enqueue(tx, 'test-ok', { n: 1 });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, 'test-ok', { n: 2 }));
    await vi.waitFor(() => expect(runs.filter((run) => run.name === 'test-ok')).toHaveLength(1), { timeout: 10_000 });
    expect(runs.find((run) => run.name === 'test-ok')!.data).toEqual({ n: 2 });
    await vi.waitFor(async () => expect((await jobsOf('test-ok')).map((job) => job.state)).toEqual(['completed']));
  });

  it('a job that fails is tried again after a pause, and done when the counterpart is back', async () => {
    await t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, 'test-flaky', { n: 3 }));
    await vi.waitFor(async () => expect((await jobsOf('test-flaky')).map((job) => job.state)).toEqual(['completed']), {
      timeout: 15_000,
    });
    expect(runs.filter((run) => run.name === 'test-flaky').map((run) => run.retry)).toEqual([0, 1]);
  });

  it('a job whose every try fails ends failed, with its last error, and its last try knows it is the last', async () => {
    await t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, 'test-down', { n: 4 }));
    await vi.waitFor(async () => expect((await jobsOf('test-down')).map((job) => job.state)).toEqual(['failed']), {
      timeout: 20_000,
      interval: 250,
    });
    const tries = runs.filter((run) => run.name === 'test-down');
    expect(tries.map(({ retry, last }) => ({ retry, last }))).toEqual([
      { retry: 0, last: false },
      { retry: 1, last: false },
      { retry: 2, last: true },
    ]);
    expect((await jobsOf('test-down'))[0]!.output?.message).toBe('the counterpart is down');
  });

  it('periodic maintenance is on the queue’s schedule, once for all processes', async () => {
    const result = await t.app.db.execute(sql`select name, cron, timezone from ${sql.raw(JOB_SCHEMA)}.schedule`);
    const schedules = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
    // The staff login counters' sweep, the bureau rows' safety net, and the daily retention schedule.
    expect(schedules).toContainEqual({ name: 'staff-login-counters', cron: '*/10 * * * *', timezone: 'UTC' });
    expect(schedules).toContainEqual({ name: 'bureau-jobs-sweep', cron: '*/10 * * * *', timezone: 'UTC' });
    expect(schedules).toContainEqual({ name: 'retention-schedule', cron: '15 3 * * *', timezone: 'UTC' });
  });

  it('a process runs every kind but those JOB_KINDS_OFF leaves to the others; a name no kind has stops the start', async () => {
    // The test app leaves the hand-driven kinds to the tests (test-app.ts).
    expect(t.app.jobs.runsHere('message-send')).toBe(true);
    expect(t.app.jobs.runsHere('test-ok')).toBe(true);
    expect(t.app.jobs.runsHere('bureau-query')).toBe(false);
    const queue = createJobQueue(t.database, t.app.log, {
      pollMs: 500,
      retryDelaySeconds: 1,
      graceMs: 0,
      kindsOff: ['bureau-querys'],
    });
    await expect(queue.start()).rejects.toThrow('JOB_KINDS_OFF: no job kind bureau-querys');
  });

  /** A queue of its own on `database` (a slow one), started, with one job of kind `name` enqueued. */
  const queueWithJob = async (database: Database, name: string, run: () => Promise<void>) => {
    const queue = createJobQueue(database, t.app.log, { pollMs: 500, retryDelaySeconds: 1, graceMs: 0 });
    queue.define({ name, retryLimit: 0, expireInSeconds: 30, run });
    await queue.start();
    await t.app.db.transaction((tx) => queue.enqueue(tx, name, {}));
    return queue;
  };

  it('a job done just before the stop has its outcome recorded before stop() returns (the database may close then)', async () => {
    // pg-boss records a job's completion without awaiting it: here the completion takes a second
    // (a slow database), and the queue is stopped the moment the job has run.
    const slowCompletion: Database = {
      ...t.database,
      executeSql: async (text, values) => {
        if (/state = 'completed'/.test(text)) await new Promise((resolve) => setTimeout(resolve, 1_000));
        return t.database.executeSql(text, values);
      },
    };
    let ran = false;
    const queue = await queueWithJob(slowCompletion, 'test-done-at-stop', async () => {
      ran = true;
    });
    queue.wake('test-done-at-stop');
    await vi.waitFor(() => expect(ran).toBe(true), { timeout: 10_000, interval: 5 });
    await queue.stop();
    expect((await jobsOf('test-done-at-stop')).map((job) => job.state)).toEqual(['completed']);
  });

  it('a job fetched while the queue stops runs to its end before stop() returns', async () => {
    // The fetch that finds the job answers slowly: the stop comes while it is in flight, so pg-boss
    // hands the job to its worker only after its own stop has returned.
    let found: () => void = () => {};
    const fetching = new Promise<void>((resolve) => (found = resolve));
    const slowFetching: Database = {
      ...t.database,
      executeSql: async (text, values) => {
        const result = await t.database.executeSql(text, values);
        if (/SKIP LOCKED/.test(text) && result.rows.length > 0) {
          found();
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        return result;
      },
    };
    let finished = false;
    const queue = await queueWithJob(slowFetching, 'test-fetched-at-stop', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
    });
    queue.wake('test-fetched-at-stop');
    await fetching;
    await queue.stop();
    expect(finished).toBe(true);
    expect((await jobsOf('test-fetched-at-stop')).map((job) => job.state)).toEqual(['completed']);
  });

  it('idle, a process asks the database once a tick for all its workers; a job another process enqueued runs within a tick', async () => {
    const statements: { text: string; values: unknown[] }[] = [];
    const counted: Database = {
      ...t.database,
      executeSql: (text, values) => {
        statements.push({ text, values: values ?? [] });
        return t.database.executeSql(text, values);
      },
    };
    const ran: string[] = [];
    const queue = createJobQueue(counted, t.app.log, { pollMs: 500, retryDelaySeconds: 1, graceMs: 0 });
    for (let i = 0; i < 10; i++)
      queue.define({
        name: `test-idle-${i}`,
        retryLimit: 0,
        expireInSeconds: 30,
        run: async () => void ran.push(`${i}`),
      });
    await queue.start();
    try {
      // Past each worker's first look, three seconds of nothing: six ticks, one question each (ten
      // workers polling every tick asked 60).
      await new Promise((resolve) => setTimeout(resolve, 500));
      statements.length = 0;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      // The fetches of these queues (pg-boss's own schedule keeper fetches its queue every 5 s).
      const fetches = statements.filter(
        ({ text, values }) => /SKIP LOCKED/.test(text) && String(values[0]).startsWith('test-idle-'),
      );
      const checks = statements.filter(({ text }) => /unnest/.test(text));
      expect(checks[0]?.values[0]).toEqual(expect.arrayContaining(['test-idle-0', 'test-idle-9']));
      expect(fetches).toHaveLength(0);
      expect(checks.length).toBeGreaterThanOrEqual(3);
      expect(checks.length).toBeLessThanOrEqual(7);

      // Enqueued by another writer (no wake here): each worker's own look is 30 s away; the check finds it.
      const enqueuedAt = Date.now();
      await t.app.db.transaction((tx) => enqueueJob(tx, 'test-idle-3', {}));
      await vi.waitFor(() => expect(ran).toEqual(['3']), { timeout: 5_000, interval: 20 });
      expect(Date.now() - enqueuedAt).toBeLessThan(5_000);
    } finally {
      await queue.stop();
    }
  });

  it('what a failed job keeps (admins see it) never holds a database error’s values, only its code', async () => {
    await t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, 'test-database-error', {}));
    await vi.waitFor(async () => expect((await jobsOf('test-database-error'))[0]?.state).toBe('failed'), {
      timeout: 15_000,
    });
    const [failed] = await jobsOf('test-database-error');
    expect(failed!.output?.message).toMatch(/^database error \(message, query and parameters left out\) \(22\w{3}\)$/);
    expect(JSON.stringify(failed!.output)).not.toContain('8095559876');
  });

  it('refuses to enqueue a kind it does not know', async () => {
    await expect(t.app.db.transaction((tx) => t.app.jobs.enqueue(tx, 'no-such-kind', {}))).rejects.toThrow(
      'no job kind no-such-kind',
    );
  });

  it('admins see the queue by kind and state and the failed jobs with their last error; no one else does', async () => {
    await vi.waitFor(async () => expect((await jobsOf('test-down'))[0]?.state).toBe('failed'), { timeout: 20_000 });
    const admin = await staffSession(t.app, 'admin');
    const res = await t.app.inject({ method: 'GET', url: '/api/backoffice/jobs?state=failed', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const { kinds, jobs } = res.json().data;
    expect(kinds).toEqual(
      expect.arrayContaining([
        { name: 'test-down', waiting: 0, running: 0, done: 0, failed: 1 },
        { name: 'test-ok', waiting: 0, running: 0, done: 1, failed: 0 },
      ]),
    );
    expect(jobs.filter((job: { name: string }) => job.name === 'test-down')).toEqual([
      expect.objectContaining({
        name: 'test-down',
        state: 'failed',
        retries: 2,
        retry_limit: 2,
        last_error: 'the counterpart is down',
        data: { n: 4 },
        next_run_at: null,
      }),
    ]);
    for (const role of ['analyst', 'advisor'] as const) {
      const staff = await staffSession(t.app, role);
      const refused = await t.app.inject({ method: 'GET', url: '/api/backoffice/jobs', headers: staff.headers });
      expect(refused.statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/backoffice/jobs' })).statusCode).toBe(401);
  });
});
