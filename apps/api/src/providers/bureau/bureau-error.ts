// Its own file so that the vendors' files and index.ts (which builds them) import no cycle.
/** The bureau did not answer (refused, unreachable or aborted); the worker retries. */
export class BureauError extends Error {}
