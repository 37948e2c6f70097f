import type { App } from '../../types.js';

/**
 * What the staff services use, taken out of the app once by each routes file: each service types
 * only the part it reads (`Pick<StaffServiceDeps, …>` or its own interface), so it never sees the app.
 */
export function staffDepsOf(app: App) {
  return {
    db: app.db,
    clock: app.clock,
    passwords: app.passwords,
    cipher: app.cipher,
    config: app.config,
    /** The e-mail lock-out counters' key (login-failures.ts). */
    loginKey: app.secrets.key('staff-login'),
    /** The recovery codes' hash key (recovery-codes.ts). */
    recoveryKey: app.secrets.key('staff-recovery-codes'),
  };
}

export type StaffServiceDeps = ReturnType<typeof staffDepsOf>;
