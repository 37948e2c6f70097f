// Its own file so that the vendors' files and index.ts (which builds them) import no cycle.
/** The bureau did not answer (refused, unreachable or aborted); the worker retries. */
export class BureauError extends Error {}

/**
 * The bureau answered that it will not serve this request as sent (bad data, credentials, a
 * product not contracted, a person it will not report): trying again cannot help, so the query
 * fails for good and the back office shows the codes.
 */
export class BureauRefusedError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly codes: { codigo: string; mensaje: string }[] = [],
  ) {
    super(message);
  }
}

/** An answer whose signature does not verify: nothing in it is read, and it is never a decision. */
export class BureauIntegrityError extends Error {}
