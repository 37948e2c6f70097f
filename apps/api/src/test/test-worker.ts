/**
 * A worker module for worker-pool.test.ts: a quick job, a runaway one (a loop that never yields,
 * like pdf-lib on a cut PNG) and one that eats its heap.
 */
const tasks = {
  echo: (input: unknown) => input,
  spin: () => {
    for (;;) {
      // never returns, never yields
    }
  },
  hoard: () => {
    const kept: number[][] = [];
    for (;;) kept.push(new Array<number>(1_000_000).fill(1));
  },
};

export default function run({ task, input }: { task: keyof typeof tasks; input: unknown }) {
  return tasks[task](input);
}
