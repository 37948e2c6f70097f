/**
 * Statuses kept beside the application's state (application.ts): a guarantor's (`avals.status`),
 * a bureau query's (`bureau_queries.status`) and its consent audit's (`bureau_consent_audits.status`). Each moves only through a row of its table, and in
 * the API only its store writes it, with a guarded update (`… where status in <from>`) as the step
 * engine moves the application: zero rows updated means another request moved it first.
 */

export interface StatusTransition<Status extends string> {
  from: readonly Status[];
  to: readonly Status[];
  /** Who moves it: the person on a screen, the system (bureau, policy, worker), or staff. */
  actor: 'user' | 'system' | 'staff';
}

export const AVAL_STATUSES = ['PENDING', 'CONSENTED', 'APPROVED', 'REFUSED', 'REPLACED'] as const;
export type AvalStatus = (typeof AVAL_STATUSES)[number];

/** A newly named guarantor waits for their consent. */
export const AVAL_INITIAL_STATUS = 'PENDING' satisfies AvalStatus;

/** Every move of a guarantor's status, by name. */
export const AVAL_TRANSITIONS = {
  /** Their PIN, or the message from their own phone, authorised their bureau query. */
  consented: { from: ['PENDING'], to: ['CONSENTED'], actor: 'user' },
  /** The policy's guarantor rules on their bureau answer. */
  decided: { from: ['CONSENTED'], to: ['APPROVED', 'REFUSED'], actor: 'system' },
  /** Another guarantor of the same type takes their place; the row stays for the record. */
  replaced: { from: ['PENDING', 'CONSENTED', 'APPROVED', 'REFUSED'], to: ['REPLACED'], actor: 'user' },
} as const satisfies Record<string, StatusTransition<AvalStatus>>;
export type AvalTransitionName = keyof typeof AVAL_TRANSITIONS;

export const BUREAU_QUERY_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'FAILED'] as const;
export type BureauQueryStatus = (typeof BUREAU_QUERY_STATUSES)[number];

/** A query is written with its consent and waits for its first attempt. */
export const BUREAU_QUERY_INITIAL_STATUS = 'PENDING' satisfies BureauQueryStatus;

/** Every move of a bureau query's status, by name. */
export const BUREAU_QUERY_TRANSITIONS = {
  /** A process takes a due query, or one whose runner's lease ran out, for one attempt. */
  claimed: { from: ['PENDING', 'RUNNING'], to: ['RUNNING'], actor: 'system' },
  /** The bureau answered: the report is kept beside the decision. */
  answered: { from: ['RUNNING'], to: ['DONE'], actor: 'system' },
  /** The attempt failed: tried again after a pause, or given up after the last attempt. */
  failed: { from: ['RUNNING'], to: ['PENDING', 'FAILED'], actor: 'system' },
  /** An analyst asks for one more try of a query given up. */
  retried: { from: ['FAILED'], to: ['PENDING'], actor: 'staff' },
} as const satisfies Record<string, StatusTransition<BureauQueryStatus>>;
export type BureauQueryTransitionName = keyof typeof BUREAU_QUERY_TRANSITIONS;

export const CONSENT_AUDIT_STATUSES = ['PENDING', 'RUNNING', 'DONE', 'REFUSED'] as const;
export type ConsentAuditStatus = (typeof CONSENT_AUDIT_STATUSES)[number];

/**
 * The consent's evidence sent to a bureau that audits it (Círculo's NIP audit), after its query
 * answered: every move of its status, by name.
 */
export const CONSENT_AUDIT_TRANSITIONS = {
  /** A process takes a due audit, or one whose runner's lease ran out, for one attempt. */
  claimed: { from: ['PENDING', 'RUNNING'], to: ['RUNNING'], actor: 'system' },
  /** The bureau acknowledged the evidence with its folio. */
  acknowledged: { from: ['RUNNING'], to: ['DONE'], actor: 'system' },
  /** The attempt failed: tried again after a pause, or refused as sent (an analyst looks). */
  failed: { from: ['RUNNING'], to: ['PENDING', 'REFUSED'], actor: 'system' },
} as const satisfies Record<string, StatusTransition<ConsentAuditStatus>>;

/** True when `transition` may leave `from` for `to`. */
function statusAllows<Status extends string>(transition: StatusTransition<Status>, from: Status, to: Status): boolean {
  return transition.from.includes(from) && transition.to.includes(to);
}

export function avalStatusAllows(name: AvalTransitionName, from: AvalStatus, to: AvalStatus): boolean {
  return statusAllows<AvalStatus>(AVAL_TRANSITIONS[name], from, to);
}

export function bureauQueryAllows(
  name: BureauQueryTransitionName,
  from: BureauQueryStatus,
  to: BureauQueryStatus,
): boolean {
  return statusAllows<BureauQueryStatus>(BUREAU_QUERY_TRANSITIONS[name], from, to);
}
