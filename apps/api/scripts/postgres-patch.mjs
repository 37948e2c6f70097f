// postgres.js 3.4.9 loses a connection badly when the server closes it (a PostgreSQL restart,
// failover, pg_terminate_backend), found by the restart test of `npm run scale-test`:
// - a query on a connection whose socket is gone (a transaction's next statement or ROLLBACK on
//   its reserved connection) schedules a write that runs on `socket === null`: an uncaught
//   TypeError in a setImmediate callback that takes the whole server down
//   (porsager/postgres#1066, #1154, #1208; fix proposed in #1168 and #1209, not released);
// - closing cancels a pending write's timer without clearing it, so that connection slot never
//   flushes a write again: after a reconnect its queries hang until the connect timeout, forever.
// The build (scripts/build.mjs) bundles postgres.js with these three edits, the shape of the
// upstream proposals: a write to a closed connection fails its queries with CONNECTION_CLOSED (and
// answers true, so a transaction's handler does not move the closed connection out of the pool's
// `closed` queue, where it is reconnected), and both teardown paths reset the write state. The build fails if the code they replace is not
// there (postgres.js changed: check whether the upstream fix landed and drop this patch).

const NEXT_WRITE = `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`;
const NEXT_WRITE_GUARDED = `  function nextWrite(fn) {
    if (socket === null) {
      // provee patch: the connection closed before this write ran; its queries fail, nothing crashes.
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return true
    }
    const x = socket.write(chunk, fn)`;

const TERMINATE = `    clearImmediate(nextWriteTimer)
    if (socket) {`;
const TERMINATE_RESET = `    clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null // provee patch
    if (socket) {`;

const CLOSED = `    clearImmediate(nextWriteTimer)
    socket.removeListener('data', data)`;
const CLOSED_RESET = `    clearImmediate(nextWriteTimer)
    chunk = nextWriteTimer = null // provee patch
    socket.removeListener('data', data)`;

export const POSTGRES_PATCH_MARKER = 'provee patch: the connection closed before this write ran';

/** postgres.js's src/connection.js with the fixes above; throws if the source is not the expected one. */
export function patchPostgresConnection(source) {
  let patched = source;
  for (const [from, to] of [
    [NEXT_WRITE, NEXT_WRITE_GUARDED],
    [TERMINATE, TERMINATE_RESET],
    [CLOSED, CLOSED_RESET],
  ]) {
    if (patched.split(from).length !== 2)
      throw new Error(
        `postgres.js changed: cannot patch its connection.js (looking for ${JSON.stringify(from.split('\n')[0])}); see apps/api/scripts/postgres-patch.mjs`,
      );
    patched = patched.replace(from, to);
  }
  return patched;
}
