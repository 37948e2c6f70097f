import { describe, expect, it } from 'vitest';
import {
  APPLICATION_STATUSES,
  INITIAL_STATE,
  NEXT_STEPS,
  TRANSITIONS,
  allows,
  namingTransition,
  reachableStates,
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
