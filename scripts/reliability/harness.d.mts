// Types of what TypeScript tests import from harness.mjs (the reliability scripts are plain ESM).

export interface PrivatePostgres {
  dir: string;
  port: number;
  url: string;
  start(): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  remove(): void;
}

/** A private PostgreSQL cluster on a free port (root only: initdb runs as `postgres`). */
export function privatePostgres(options?: { bin?: string }): Promise<PrivatePostgres>;

/** A port nothing listens on right now. */
export function freePort(): Promise<number>;
