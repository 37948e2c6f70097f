// Preloaded into the server under test (node --import): measures the event loop's delay and writes
// the histogram (milliseconds) to BENCH_LOOP_DELAY_FILE on SIGTERM. SIGUSR2 starts a new window, so
// start-up and migrations are left out. The server itself exposes nothing new.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  process.on('SIGUSR2', () => histogram.reset());
  process.prependListener('SIGTERM', () => {
    histogram.disable();
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const summary = {
      count: histogram.count,
      p50: ms(histogram.percentile(50)),
      p95: ms(histogram.percentile(95)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    };
    writeFileSync(file, JSON.stringify(summary));
  });
}
