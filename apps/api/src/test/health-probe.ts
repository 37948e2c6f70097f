import { readFileSync } from 'node:fs';
import type { App } from '../types.js';

export interface HealthFigures {
  /** Health calls answered (all of them must be 200). */
  calls: number;
  failures: string[];
  p50: number;
  p99: number;
  max: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

/**
 * `GET /api/health` over real HTTP every `everyMs` while a test does its work: the app must listen on
 * a port (app.inject would not go through the event loop the way a request does). `stop()` answers
 * the latencies: the time from sending the request to the end of the answer, in ms.
 */
export async function probeHealth(app: App, everyMs = 20) {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
  const url = `http://127.0.0.1:${address.port}/api/health`;
  const latencies: number[] = [];
  const failures: string[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (response.status !== 200) failures.push(`status ${response.status}`);
      } catch (error) {
        failures.push(String(error));
      }
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop(): Promise<HealthFigures> {
      stopped = true;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        calls: latencies.length,
        failures,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? NaN,
      };
    },
  };
}

export const describeHealth = (figures: HealthFigures) =>
  `${figures.calls} health calls, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms`;

/** This thread's CPU time (user + system) in ms, from /proc (Linux; 10 ms ticks), or null elsewhere. */
function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * How long the event loop was held: a 5 ms timer, and at each turn the wall time since the last one
 * (`worstDelayMs`: includes the thread waiting for a CPU on a busy machine) and the CPU time this
 * thread spent meanwhile (`worstBusyMs`: the loop running something, whatever the machine's load).
 */
export function watchEventLoop() {
  let worstDelayMs = 0;
  let worstBusyMs = 0;
  let lastWall = performance.now();
  let lastCpu = threadCpuMs();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const wall = performance.now();
    const cpu = threadCpuMs();
    worstDelayMs = Math.max(worstDelayMs, wall - lastWall - 5);
    if (cpu !== null && lastCpu !== null) worstBusyMs = Math.max(worstBusyMs, cpu - lastCpu);
    lastWall = wall;
    lastCpu = cpu;
    setTimeout(tick, 5);
  };
  setTimeout(tick, 5);
  return {
    stop() {
      stopped = true;
      return { worstDelayMs, worstBusyMs, measuredCpu: lastCpu !== null };
    },
  };
}
