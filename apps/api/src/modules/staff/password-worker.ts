import { staffPasswordProblem } from './password-rules.js';

/**
 * The password rules on a worker thread (password-link.routes.ts): zxcvbn's estimate of a long,
 * crafted password takes up to ~30 ms of CPU, which must not hold the event loop. Bundled to
 * dist/password-worker.js (scripts/build.mjs).
 */
const tasks = {
  problem: (input: { password: string; person: { email?: string; name?: string } }) =>
    staffPasswordProblem(input.password, input.person),
};

export default function run({ task, input }: { task: keyof typeof tasks; input: never }) {
  return tasks[task](input);
}
