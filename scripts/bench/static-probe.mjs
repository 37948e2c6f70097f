// A worker thread (its own event loop, so the journeys' work does not delay its clock): GETs one
// static file every 50 ms until told to stop, and posts back the latencies in milliseconds.
import { parentPort, workerData } from 'node:worker_threads';

const { url, everyMs } = workerData;
const latencies = [];
let stopping = false;
parentPort.on('message', () => (stopping = true));

while (!stopping) {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const took = performance.now() - started;
  latencies.push(took);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - took)));
}
parentPort.postMessage(latencies);
parentPort.close();
