import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHECK_MS, collectGarbageWhenIdle, GROWTH_BYTES, IDLE_UTILIZATION, type IdleGcProbe } from './idle-gc.js';

const MB = 1024 * 1024;

/** A heap and an event loop the test sets; `collect` brings the heap back to `afterCollect`. */
function fakeProbe(start: number) {
  const state = { heap: start, busy: 0, afterCollect: start, collections: 0, pending: false };
  let finish: (() => void) | undefined;
  const probe: IdleGcProbe = {
    busy: () => state.busy,
    heapBytes: () => state.heap,
    collect: () => {
      state.collections += 1;
      return new Promise<void>((resolve) => {
        const done = () => {
          state.heap = state.afterCollect;
          resolve();
        };
        if (state.pending) finish = done;
        else done();
      });
    },
  };
  return { probe, state, finishPending: () => finish?.() };
}

describe('collectGarbageWhenIdle', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  /** Starts the checks, lets the first idle one collect what the start left, and returns the probe. */
  async function started(heapAfterStart: number) {
    const fake = fakeProbe(heapAfterStart + 20 * MB);
    fake.state.afterCollect = heapAfterStart;
    const collected: { before: number; after: number }[] = [];
    const stop = collectGarbageWhenIdle((heap) => collected.push(heap), fake.probe);
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(fake.state.collections, 'the first idle check collects what starting left').toBe(1);
    expect(collected).toEqual([{ before: heapAfterStart + 20 * MB, after: heapAfterStart }]);
    return { ...fake, collected, stop };
  }

  it('after a burst, collects once the loop was idle for a whole check, and reports the heap', async () => {
    const { state, collected, stop } = await started(40 * MB);
    state.heap = 40 * MB + GROWTH_BYTES + MB; // after a burst
    state.busy = 0.9;
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(state.collections, 'not while the loop is busy').toBe(1);

    state.busy = IDLE_UTILIZATION / 2;
    state.afterCollect = 42 * MB;
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(state.collections).toBe(2);
    expect(collected.at(-1)).toEqual({ before: 40 * MB + GROWTH_BYTES + MB, after: 42 * MB });

    // The heap the collection left is the new mark: no collection again until it grows once more.
    state.heap = 42 * MB + GROWTH_BYTES - MB;
    await vi.advanceTimersByTimeAsync(CHECK_MS * 3);
    expect(state.collections).toBe(2);
    state.heap = 42 * MB + GROWTH_BYTES + MB;
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(state.collections).toBe(3);
    stop();
  });

  it('waits for an idle loop before the first collection too', async () => {
    const { probe, state } = fakeProbe(60 * MB);
    state.busy = 0.5;
    const stop = collectGarbageWhenIdle(undefined, probe);
    await vi.advanceTimersByTimeAsync(CHECK_MS * 3);
    expect(state.collections).toBe(0);
    state.busy = 0;
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(state.collections).toBe(1);
    stop();
  });

  it('leaves a heap that grew less than the threshold, and follows V8 when it shrinks on its own', async () => {
    const { state, stop } = await started(60 * MB);
    state.heap = 60 * MB + GROWTH_BYTES - MB;
    await vi.advanceTimersByTimeAsync(CHECK_MS * 4);
    expect(state.collections).toBe(1);

    state.heap = 30 * MB; // V8 collected by itself
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    state.heap = 30 * MB + GROWTH_BYTES + MB; // grown from there
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(state.collections).toBe(2);
    stop();
  });

  it('never starts a second collection while one runs, and stops when asked', async () => {
    const { state, finishPending, stop } = await started(40 * MB);
    state.pending = true;
    state.heap = 40 * MB + GROWTH_BYTES * 2;
    await vi.advanceTimersByTimeAsync(CHECK_MS * 5);
    expect(state.collections).toBe(2);
    finishPending();
    stop();
    state.heap = 40 * MB + GROWTH_BYTES * 4;
    await vi.advanceTimersByTimeAsync(CHECK_MS * 5);
    expect(state.collections).toBe(2);
  });

  it('stops checking when the collection cannot run (no inspector in this Node)', async () => {
    let calls = 0;
    const probe: IdleGcProbe = {
      busy: () => 0,
      heapBytes: () => 100 * MB,
      collect: () => {
        calls += 1;
        return Promise.reject(new Error('ERR_INSPECTOR_NOT_AVAILABLE'));
      },
    };
    collectGarbageWhenIdle(undefined, probe);
    await vi.advanceTimersByTimeAsync(CHECK_MS * 5);
    expect(calls).toBe(1);
  });
});

describe('heapProbe (the real V8 heap, in a process of its own)', () => {
  it('frees a burst of garbage and hands the pages back, and the process goes on and exits', () => {
    // Its own process: were the inspector session to hang the event loop (closing it inside V8's
    // callback does), the timeout below fails the test instead of hanging the suite.
    const dir = mkdtempSync(join(tmpdir(), 'provee-idle-gc-'));
    const script = join(dir, 'probe.mts');
    writeFileSync(
      script,
      `import { heapProbe } from ${JSON.stringify(new URL('./idle-gc.ts', import.meta.url).pathname)};
      const probe = heapProbe();
      let kept: object[] | null = [];
      for (let round = 0; round < 20; round++) {
        for (let i = 0; i < 50_000; i++) kept.push({ i, text: 'x' + i, pair: [i, i] });
        await new Promise((resolve) => setTimeout(resolve, 5)); // survives young collections
      }
      kept = null;
      const before = { heap: probe.heapBytes(), rss: process.memoryUsage().rss };
      await probe.collect();
      await probe.collect(); // a second session on the same process works too
      const after = { heap: probe.heapBytes(), rss: process.memoryUsage().rss };
      await new Promise((resolve) => setTimeout(resolve, 10)); // the event loop still runs
      console.log(JSON.stringify({ before, after }));`,
    );
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
      expect(run.error, run.stderr).toBeUndefined();
      expect(run.status, run.stderr).toBe(0);
      const { before, after } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<
        'before' | 'after',
        { heap: number; rss: number }
      >;
      expect(before.heap).toBeGreaterThan(100 * MB);
      expect(after.heap).toBeLessThan(before.heap / 4);
      expect(before.rss - after.rss, 'pages returned to the system at once').toBeGreaterThan(50 * MB);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
