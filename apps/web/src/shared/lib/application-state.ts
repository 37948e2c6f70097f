import {
  canAmend,
  isPastPassword,
  isStepSaved,
  routeAfterLookup,
  type FoundUser,
  type NextStep,
  type PreApproval,
  type RegistrationStep,
  type StepAnswer,
  type UserDetail,
} from '@provee/domain';

/** The lender's approval after PENDING_APPROVAL (issue 30): the final amount and terms. */
export type LenderApproval = NonNullable<UserDetail['lender_approval']>;

/**
 * Where one application stands, as the last step answer or user fetch of this tab said: the
 * contract's step answer (the step engine's step and status), and what came with it.
 */
export type ApplicationState = Pick<StepAnswer, 'user_id' | 'next_step' | 'status'> & {
  phone?: string | undefined;
  avals?: FoundUser['avals'];
  /** What the next screen shows, when the answer that led there carried it (no second request). */
  tax_id_suggestion?: string | null;
  pre_approval?: PreApproval | null;
  lender_approval?: LenderApproval | null;
};

/** The fields of an answer the store keeps besides the state itself. */
function extras(answer: {
  tax_id_suggestion?: string | null;
  pre_approval?: PreApproval | null;
  lender_approval?: LenderApproval | null;
}) {
  return {
    ...(answer.tax_id_suggestion !== undefined ? { tax_id_suggestion: answer.tax_id_suggestion } : {}),
    ...(answer.pre_approval !== undefined ? { pre_approval: answer.pre_approval } : {}),
    ...(answer.lender_approval !== undefined ? { lender_approval: answer.lender_approval } : {}),
  };
}

// In memory, per tab: a reload or a link opened by URL starts empty and asks the server once.
let current: ApplicationState | null = null;
/** A number this tab proved and found without an application (the lookup's 404). */
let newPhone: string | null = null;

export const applicationState = {
  /** The state of this user, when this tab knows it. */
  get(userId: string): ApplicationState | null {
    return current && current.user_id === userId ? current : null;
  },
  /** The application of this phone, when this tab knows it. */
  forPhone(phone: string): ApplicationState | null {
    return current && current.phone === phone ? current : null;
  },
  /** This tab knows the phone has no application yet (until one is saved). */
  isNew(phone: string): boolean {
    return newPhone === phone && !applicationState.forPhone(phone);
  },
  markNew(phone: string): void {
    newPhone = phone;
  },
  set(state: ApplicationState): void {
    current = { ...(current?.user_id === state.user_id ? current : {}), ...state };
  },
  /** From a user fetch (GET /users or /users/:id): every answer updates the store. */
  fromUser(
    user: FoundUser & {
      tax_id_suggestion?: string | null;
      pre_approval?: PreApproval | null;
      lender_approval?: LenderApproval | null;
    },
  ): ApplicationState {
    const state: ApplicationState = {
      user_id: user.user_id,
      next_step: user.next_step,
      status: user.status,
      ...(user.phone_number ? { phone: user.phone_number } : {}),
      ...(user.avals ? { avals: user.avals } : {}),
      ...extras(user),
    };
    applicationState.set(state);
    return state;
  },
  clear(): void {
    current = null;
    newPhone = null;
  },
};

/** SPEC §2.2 from a known state: where the application stands. */
export function routeForState(phone: string, state: ApplicationState): string {
  return routeAfterLookup({ kind: 'user', phone: phone || state.phone || '', user: state });
}

/**
 * After a saved step: the save's answer says where to go (no reload of the user). The server's
 * `path` (SPEC §2.2, computed where the state lives) wins; an answer without it is routed here.
 */
export function routeAfterSave(
  phone: string,
  answer: Omit<StepAnswer, 'path'> & {
    path?: string | undefined;
    tax_id_suggestion?: string | null;
    pre_approval?: PreApproval | null;
  },
): string {
  applicationState.set({
    user_id: answer.user_id,
    next_step: answer.next_step,
    status: answer.status,
    ...(phone ? { phone } : {}),
    ...extras(answer),
  });
  if (typeof answer.path === 'string' && answer.path.startsWith('/') && !answer.path.startsWith('//'))
    return answer.path;
  return routeForState(phone, applicationState.get(answer.user_id)!);
}

/** The step screens and the states that show them. */
export type StepScreen =
  | 'additional-data'
  | 'search-address'
  | 'about-living'
  | 'more-about'
  | 'send-nip'
  | 'waiting'
  | 'congratulations'
  | 'create-password'
  | 'advisor'
  // The lender's decision after PENDING_APPROVAL (issue 30): each shows where routing sends its state.
  | 'approved'
  | 'declined'
  | 'disbursed';

const pathOf = (route: string) => route.split('?')[0]!;

/** Steps after the lender's decision (a decline stays at PENDING_APPROVAL, REJECTED: not past the password). */
const LENDER_DECIDED: ReadonlySet<string> = new Set<NextStep>(['APPROVED', 'DISBURSED']);

/** Whether the application's state allows this screen; otherwise the screen goes where it stands. */
export function screenAllows(screen: StepScreen, state: ApplicationState): boolean {
  switch (screen) {
    case 'advisor':
      // Once the lender decided, the application's own screen says how it went (issue 30).
      return isPastPassword(state) && !LENDER_DECIDED.has(state.next_step);
    case 'waiting':
      return state.status === 'WAITING';
    case 'congratulations':
      return state.next_step === 'PASSWORD' && state.status === 'IN_PROGRESS';
    default: {
      // The address form belongs to the address step, whose first screen is the search.
      const page = screen === 'about-living' ? 'search-address' : screen;
      return pathOf(routeForState('phone', state)).endsWith(`/${page}`);
    }
  }
}

/**
 * How a step screen shows (issue 27): the step where the application stands (`saved: false`), or a
 * registration step already saved, reached by going back or by its link, filled with what was
 * saved; `editable` while the step engine still allows a correction (domain AMENDMENTS).
 */
export type StepView = { saved: false } | { saved: true; editable: boolean };

/** The registration step each screen saves. */
const SCREEN_STEPS: Partial<Record<StepScreen, RegistrationStep>> = {
  'additional-data': 'tax-id',
  'search-address': 'address',
  'about-living': 'address',
  'more-about': 'business',
};

export function screenView(screen: StepScreen, state: ApplicationState): StepView | null {
  if (screenAllows(screen, state)) return { saved: false };
  const step = SCREEN_STEPS[screen];
  const engine = { step: state.next_step, status: state.status };
  if (step && isStepSaved(step, engine)) return { saved: true, editable: canAmend(step, engine) };
  return null;
}
