import { describe, expect, it } from 'vitest';
import {
  AMENDMENTS,
  APPLICATION_STATUSES,
  INITIAL_STATE,
  NEXT_STEPS,
  REGISTRATION_STEPS,
  TRANSITIONS,
  allows,
  canAmend,
  isStepSaved,
  namingTransition,
  reachableStates,
  savedRegistrationSteps,
  type ApplicationState,
} from './application.js';
import { routeAfterLookup } from './routing.js';

const state = (
  step: ApplicationState['step'],
  status: ApplicationState['status'] = 'IN_PROGRESS',
): ApplicationState => ({ step, status });

describe('the application state machine', () => {
  it('registration moves one step at a time, in the SPEC §4 order', () => {
    expect(allows('tax-id', INITIAL_STATE, state('BUSINESS_ADDRESS'))).toBe(true);
    expect(allows('address', state('BUSINESS_ADDRESS'), state('ABOUT_STORE'))).toBe(true);
    expect(allows('business', state('ABOUT_STORE'), state('ACCOUNT_NIP'))).toBe(true);
    expect(allows('nip-sent', state('ACCOUNT_NIP'), state('ACCOUNT_BUREAU'))).toBe(true);
    expect(allows('consent', state('ACCOUNT_BUREAU'), state('ACCOUNT_BUREAU', 'WAITING'))).toBe(true);
    expect(allows('decision', state('ACCOUNT_BUREAU', 'WAITING'), state('PASSWORD'))).toBe(true);
    expect(allows('password', state('PASSWORD'), state('INVENTORY'))).toBe(true);
  });

  it('refuses a move from the wrong step, to a state the move does not lead to, or from a rejected application', () => {
    expect(allows('address', INITIAL_STATE, state('ABOUT_STORE'))).toBe(false);
    expect(allows('tax-id', INITIAL_STATE, state('ABOUT_STORE'))).toBe(false);
    expect(allows('password', state('PASSWORD', 'REJECTED'), state('INVENTORY'))).toBe(false);
    expect(allows('nip-sent', state('ACCOUNT_NIP', 'REJECTED'), state('ACCOUNT_BUREAU'))).toBe(false);
  });

  it('only the system decides; every other move is the applicant’s', () => {
    const system = Object.entries(TRANSITIONS)
      .filter(([, t]) => t.actor === 'system')
      .map(([name]) => name);
    expect(system).toEqual(['decision', 'partner-decision', 'collateral-decision']);
  });

  it('guarantors: named after the password (or on the mobile app’s forms), consent, then the policy', () => {
    expect(namingTransition('PARTNER', state('INVENTORY'))).toBe('partner-named');
    expect(namingTransition('PARTNER', state('ASK_REPLACE_PARTNER'))).toBe('partner-replaced');
    expect(namingTransition('COLLATERAL', state('WISH_NEW_COLLATERAL'))).toBe('collateral-wished');
    expect(namingTransition('PARTNER', state('PASSWORD'))).toBeUndefined();
    expect(namingTransition('PARTNER', state('ASK_NEW_COLLATERAL'))).toBeUndefined();
    expect(allows('partner-consent', state('PARTNER_NIP'), state('PARTNER_BUREAU'))).toBe(true);
    expect(allows('partner-decision', state('PARTNER_BUREAU'), state('ASK_REPLACE_PARTNER'))).toBe(true);
    expect(allows('collateral-decision', state('COLLATERAL_BUREAU'), state('PENDING_APPROVAL'))).toBe(true);
    expect(allows('collateral-decision', state('COLLATERAL_BUREAU'), state('ASK_REPLACE_PARTNER'))).toBe(false);
    const reached = reachableStates().map((s) => s.step);
    for (const step of ['PARTNER_NIP', 'PARTNER_BUREAU', 'COLLATERAL_NIP', 'PENDING_APPROVAL', 'ASK_NEW_COLLATERAL'])
      expect(reached).toContain(step);
  });

  it('every state of the table uses known steps and statuses, and routing sends each to a screen', () => {
    for (const reached of reachableStates()) {
      expect(NEXT_STEPS).toContain(reached.step);
      expect(APPLICATION_STATUSES).toContain(reached.status);
      const path = routeAfterLookup({
        kind: 'user',
        phone: '8095551234',
        user: { user_id: 'u', next_step: reached.step, status: reached.status },
      });
      expect(path.startsWith('/')).toBe(true);
    }
  });

  it('a rejection is final: no move leaves a REJECTED state', () => {
    for (const transition of Object.values(TRANSITIONS)) expect(transition.from.status).not.toBe('REJECTED');
  });
});

describe('saved registration steps and their corrections (issue 27)', () => {
  it('counts the saved steps from where the application stands', () => {
    expect(savedRegistrationSteps(state('TAX_ACCOUNT'))).toBe(1);
    expect(savedRegistrationSteps(state('BUSINESS_ADDRESS'))).toBe(2);
    expect(savedRegistrationSteps(state('ABOUT_STORE'))).toBe(3);
    for (const past of reachableStates().filter(
      (s) => !['TAX_ACCOUNT', 'BUSINESS_ADDRESS', 'ABOUT_STORE'].includes(s.step),
    ))
      expect(savedRegistrationSteps(past)).toBe(4);
    expect(isStepSaved('personal', state('TAX_ACCOUNT'))).toBe(true);
    expect(isStepSaved('tax-id', state('TAX_ACCOUNT'))).toBe(false);
    expect(isStepSaved('business', state('ACCOUNT_NIP', 'REJECTED'))).toBe(true);
  });

  it('a saved step is corrected only before the business step, the business never', () => {
    expect(canAmend('personal', state('TAX_ACCOUNT'))).toBe(true);
    expect(canAmend('personal', state('ABOUT_STORE'))).toBe(true);
    expect(canAmend('tax-id', state('TAX_ACCOUNT'))).toBe(false);
    expect(canAmend('tax-id', state('ABOUT_STORE'))).toBe(true);
    expect(canAmend('address', state('BUSINESS_ADDRESS'))).toBe(false);
    expect(canAmend('address', state('ABOUT_STORE'))).toBe(true);
    for (const step of REGISTRATION_STEPS) {
      expect(canAmend(step, state('ACCOUNT_NIP'))).toBe(false);
      expect(canAmend(step, state('ACCOUNT_NIP', 'REJECTED'))).toBe(false);
      expect(canAmend(step, state('PASSWORD'))).toBe(false);
    }
    for (const s of reachableStates()) expect(canAmend('business', s)).toBe(false);
  });

  it('a correction is offered only for a step already saved, from states the table reaches', () => {
    for (const [step, states] of Object.entries(AMENDMENTS)) {
      for (const from of states) {
        expect(isStepSaved(step as keyof typeof AMENDMENTS, from)).toBe(true);
        expect(reachableStates().some((s) => s.step === from.step && s.status === from.status)).toBe(true);
      }
    }
  });
});
