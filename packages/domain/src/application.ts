/**
 * The application's state machine, shared by the API (which moves it) and the web app (which
 * follows it). The API's step engine refuses any move that is not a row of TRANSITIONS, and the
 * database refuses any step or status that is not listed here (CHECK constraints).
 */

/** The shopkeeper's own steps, up to and including the password: the application is not pre-approved yet. */
export const STEPS_BEFORE_PRE_APPROVAL = [
  'TAX_ACCOUNT',
  'BUSINESS_ADDRESS',
  'ABOUT_STORE',
  'ACCOUNT_NIP',
  'ACCOUNT_BUREAU',
  'PASSWORD',
] as const;

/** SPEC §4: every next_step value. */
export const NEXT_STEPS = [
  ...STEPS_BEFORE_PRE_APPROVAL,
  'INVENTORY',
  'PARTNER_FORM',
  'PARTNER_BUREAU',
  'PARTNER_NIP',
  'COLLATERAL_FORM',
  'COLLATERAL_BUREAU',
  'COLLATERAL_NIP',
  'WISH_NEW_COLLATERAL',
  'ASK_NEW_COLLATERAL',
  'ASK_REPLACE_PARTNER',
  'PENDING_APPROVAL',
  // The lender's decision after PENDING_APPROVAL (issue 30): not in SPEC §4, which ends there.
  'APPROVED',
  'DISBURSED',
] as const;
export type NextStep = (typeof NEXT_STEPS)[number];

export const APPLICATION_STATUSES = ['IN_PROGRESS', 'WAITING', 'REJECTED'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export interface ApplicationState {
  step: NextStep;
  status: ApplicationStatus;
}

/**
 * Who may make a move: the applicant through a screen, the system (bureau, decision), or the
 * lender (its systems through the partner API, or an analyst in the back office).
 */
export type Actor = 'user' | 'system' | 'lender';

export interface Transition {
  from: ApplicationState;
  /** Every state the move may end in (e.g. the decision approves or rejects). */
  to: readonly ApplicationState[];
  actor: Actor;
}

const at = (step: NextStep, status: ApplicationStatus = 'IN_PROGRESS'): ApplicationState => ({ step, status });

/** Where a new application starts: personal data saved, the tax id comes next. */
export const INITIAL_STATE: ApplicationState = at('TAX_ACCOUNT');

/** Every move the application can make, by name (the audit trail records the name). */
export const TRANSITIONS = {
  /** Step 2: the tax id. */
  'tax-id': { from: at('TAX_ACCOUNT'), to: [at('BUSINESS_ADDRESS')], actor: 'user' },
  /** Step 4: the business address. */
  address: { from: at('BUSINESS_ADDRESS'), to: [at('ABOUT_STORE')], actor: 'user' },
  /** Step 5: the business; a credit-policy refusal is final (SPEC §2.2 routes it to /rejected). */
  business: { from: at('ABOUT_STORE'), to: [at('ACCOUNT_NIP'), at('ACCOUNT_NIP', 'REJECTED')], actor: 'user' },
  /** The consultation PIN was sent (SPEC §2.2: ACCOUNT_BUREAU shows the PIN screen without sending). */
  'nip-sent': { from: at('ACCOUNT_NIP'), to: [at('ACCOUNT_BUREAU')], actor: 'user' },
  /** The PIN proved the consent: the bureau is queried while the application waits. */
  consent: { from: at('ACCOUNT_BUREAU'), to: [at('ACCOUNT_BUREAU', 'WAITING')], actor: 'user' },
  /** The credit policy decided on the bureau's answer. */
  decision: {
    from: at('ACCOUNT_BUREAU', 'WAITING'),
    to: [at('PASSWORD'), at('PASSWORD', 'REJECTED')],
    actor: 'system',
  },
  /** Step 9: the password; the journey continues with an advisor and the mobile app. */
  password: { from: at('PASSWORD'), to: [at('INVENTORY')], actor: 'user' },

  // Guarantors (SPEC §2.5). The mobile app's forms (or an operator) name a guarantor: the
  // application waits for the guarantor's PIN (in person) or message (remote consent); their bureau
  // answer and the policy's guarantor rules move it on, or ask for another guarantor.
  /** A partner (aval) named after the password, on the mobile app's form, or replacing a refused one. */
  'partner-named': { from: at('INVENTORY'), to: [at('PARTNER_NIP')], actor: 'user' },
  'partner-named-on-form': { from: at('PARTNER_FORM'), to: [at('PARTNER_NIP')], actor: 'user' },
  'partner-replaced': { from: at('ASK_REPLACE_PARTNER'), to: [at('PARTNER_NIP')], actor: 'user' },
  /** The partner consented (PIN or own-phone message): their bureau query runs. */
  'partner-consent': { from: at('PARTNER_NIP'), to: [at('PARTNER_BUREAU')], actor: 'user' },
  'partner-decision': {
    from: at('PARTNER_BUREAU'),
    to: [at('PENDING_APPROVAL'), at('ASK_REPLACE_PARTNER')],
    actor: 'system',
  },
  /** The same for a collateral guarantor. */
  'collateral-named': { from: at('INVENTORY'), to: [at('COLLATERAL_NIP')], actor: 'user' },
  'collateral-named-on-form': { from: at('COLLATERAL_FORM'), to: [at('COLLATERAL_NIP')], actor: 'user' },
  'collateral-replaced': { from: at('ASK_NEW_COLLATERAL'), to: [at('COLLATERAL_NIP')], actor: 'user' },
  'collateral-wished': { from: at('WISH_NEW_COLLATERAL'), to: [at('COLLATERAL_NIP')], actor: 'user' },
  'collateral-consent': { from: at('COLLATERAL_NIP'), to: [at('COLLATERAL_BUREAU')], actor: 'user' },
  'collateral-decision': {
    from: at('COLLATERAL_BUREAU'),
    to: [at('PENDING_APPROVAL'), at('ASK_NEW_COLLATERAL')],
    actor: 'system',
  },

  // The lender's decision (issue 30): approves with the final amount and terms (the signing
  // invitation follows), declines with a reason, and later marks the credit disbursed.
  'lender-approved': { from: at('PENDING_APPROVAL'), to: [at('APPROVED')], actor: 'lender' },
  'lender-declined': { from: at('PENDING_APPROVAL'), to: [at('PENDING_APPROVAL', 'REJECTED')], actor: 'lender' },
  disbursed: { from: at('APPROVED'), to: [at('DISBURSED')], actor: 'lender' },
} as const satisfies Record<string, Transition>;

export const AVAL_TYPES = ['PARTNER', 'COLLATERAL'] as const;
export type AvalType = (typeof AVAL_TYPES)[number];

/** The transition that names a guarantor of `type` from where the application stands, if any. */
export function namingTransition(type: AvalType, state: ApplicationState): TransitionName | undefined {
  const names: TransitionName[] =
    type === 'PARTNER'
      ? ['partner-named', 'partner-named-on-form', 'partner-replaced']
      : ['collateral-named', 'collateral-named-on-form', 'collateral-replaced', 'collateral-wished'];
  return names.find((name) => sameState(TRANSITIONS[name].from, state));
}

/** The guarantor's consent and the decision on their bureau answer, by guarantor type. */
export const AVAL_STEPS = {
  PARTNER: {
    nip: 'PARTNER_NIP',
    consent: 'partner-consent',
    decision: 'partner-decision',
    refused: 'ASK_REPLACE_PARTNER',
  },
  COLLATERAL: {
    nip: 'COLLATERAL_NIP',
    consent: 'collateral-consent',
    decision: 'collateral-decision',
    refused: 'ASK_NEW_COLLATERAL',
  },
} as const satisfies Record<
  AvalType,
  { nip: NextStep; consent: TransitionName; decision: TransitionName; refused: NextStep }
>;

export type TransitionName = keyof typeof TRANSITIONS;

export function sameState(a: ApplicationState, b: ApplicationState): boolean {
  return a.step === b.step && a.status === b.status;
}

export function isNextStep(value: string): value is NextStep {
  return (NEXT_STEPS as readonly string[]).includes(value);
}

export function isApplicationStatus(value: string): value is ApplicationStatus {
  return (APPLICATION_STATUSES as readonly string[]).includes(value);
}

/** True when `transition` may leave `state` for `target`. */
export function allows(name: TransitionName, state: ApplicationState, target: ApplicationState): boolean {
  const transition: Transition = TRANSITIONS[name];
  return sameState(transition.from, state) && transition.to.some((to) => sameState(to, target));
}

/** Every state the table can reach from the initial one (what a test factory may create). */
export function reachableStates(): ApplicationState[] {
  const seen: ApplicationState[] = [INITIAL_STATE];
  for (let i = 0; i < seen.length; i++) {
    for (const transition of Object.values(TRANSITIONS) as Transition[]) {
      if (!sameState(transition.from, seen[i]!)) continue;
      for (const to of transition.to) if (!seen.some((state) => sameState(state, to))) seen.push(to);
    }
  }
  return seen;
}

/**
 * The registration's saved steps, in order (SPEC §2.3): personal data (creates the application),
 * tax id, business address, business. The PIN that follows is a consent, not data to review.
 */
export const REGISTRATION_STEPS = ['personal', 'tax-id', 'address', 'business'] as const;
export type RegistrationStep = (typeof REGISTRATION_STEPS)[number];

/** Where the application stands after each registration step was saved. */
const SAVED_AT: Partial<Record<NextStep, number>> = { TAX_ACCOUNT: 1, BUSINESS_ADDRESS: 2, ABOUT_STORE: 3 };

/** How many registration steps are saved, from where the application stands (all four past the business). */
export function savedRegistrationSteps(state: ApplicationState): number {
  return SAVED_AT[state.step] ?? REGISTRATION_STEPS.length;
}

export function isStepSaved(step: RegistrationStep, state: ApplicationState): boolean {
  return REGISTRATION_STEPS.indexOf(step) < savedRegistrationSteps(state);
}

/**
 * Corrections of a saved step (issue 27, docs/decisions/025): going back, the shopkeeper may change
 * a saved step while the application is still before the business step, whose save runs the credit
 * policy on what was given. A correction changes the step's data, never where the application
 * stands; the step engine applies it like a move (guarded update from these states, its rows and
 * its audit event in one transaction). The business is never corrected: its save is the policy's
 * decision, and trying other answers after a refusal is what a correction must not allow.
 */
export const AMENDMENTS = {
  personal: [at('TAX_ACCOUNT'), at('BUSINESS_ADDRESS'), at('ABOUT_STORE')],
  'tax-id': [at('BUSINESS_ADDRESS'), at('ABOUT_STORE')],
  address: [at('ABOUT_STORE')],
} as const satisfies Partial<Record<RegistrationStep, readonly ApplicationState[]>>;
export type AmendmentName = keyof typeof AMENDMENTS;

/**
 * Corrections of one application at most: enough for every honest slip, and no endless probe of
 * which tax ids already have an application (each correction to a taken one answers so).
 */
export const MAX_AMENDMENTS = 10;

/** Whether a saved step may still be corrected from where the application stands. */
export function canAmend(step: RegistrationStep, state: ApplicationState): boolean {
  const from: readonly ApplicationState[] | undefined = (
    AMENDMENTS as Partial<Record<RegistrationStep, readonly ApplicationState[]>>
  )[step];
  return from?.some((allowed) => sameState(allowed, state)) ?? false;
}
