// A worker thread of worker-pool.ts when the app runs from its TypeScript sources (tests, scripts):
// Node 20 gives a worker thread no loader of its own, so tsx is registered here, inside the thread,
// before the worker module named by the pool is imported. The built server never loads this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const worker = await import(workerData.source);

export default worker.default;
