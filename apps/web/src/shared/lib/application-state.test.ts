import { describe, expect, it } from 'vitest';
import { applicationState, routeAfterSave, screenAllows, type StepScreen } from './application-state.js';

const at = (next_step: string, status = 'IN_PROGRESS') => ({ user_id: 'u1', next_step, status });

describe('application state: which screen each state allows', () => {
  it.each<[StepScreen, string, string, boolean]>([
    ['additional-data', 'TAX_ACCOUNT', 'IN_PROGRESS', true],
    ['additional-data', 'BUSINESS_ADDRESS', 'IN_PROGRESS', false],
    ['search-address', 'BUSINESS_ADDRESS', 'IN_PROGRESS', true],
    ['about-living', 'BUSINESS_ADDRESS', 'IN_PROGRESS', true],
    ['search-address', 'PASSWORD', 'IN_PROGRESS', false],
    ['more-about', 'ABOUT_STORE', 'IN_PROGRESS', true],
    ['send-nip', 'ACCOUNT_NIP', 'IN_PROGRESS', true],
    ['send-nip', 'ACCOUNT_BUREAU', 'IN_PROGRESS', true],
    ['send-nip', 'ACCOUNT_NIP', 'REJECTED', false],
    ['waiting', 'ACCOUNT_BUREAU', 'WAITING', true],
    ['waiting', 'PASSWORD', 'IN_PROGRESS', false],
    ['congratulations', 'PASSWORD', 'IN_PROGRESS', true],
    ['congratulations', 'PASSWORD', 'REJECTED', false],
    ['create-password', 'PASSWORD', 'IN_PROGRESS', true],
    ['create-password', 'INVENTORY', 'IN_PROGRESS', false],
    ['advisor', 'INVENTORY', 'IN_PROGRESS', true],
    ['advisor', 'PASSWORD', 'IN_PROGRESS', false],
    ['advisor', 'PASSWORD', 'REJECTED', false],
  ])('%s with %s/%s → %s', (screen, step, status, allowed) => {
    expect(screenAllows(screen, at(step, status))).toBe(allowed);
  });

  it('a save’s answer is where the app goes, and the state the next screen reads', () => {
    expect(routeAfterSave('8095551234', at('BUSINESS_ADDRESS'))).toBe('/8095551234/u1/search-address');
    expect(applicationState.get('u1')).toMatchObject({ next_step: 'BUSINESS_ADDRESS', phone: '8095551234' });
    expect(applicationState.get('u2')).toBeNull();
  });

  it('the server’s path (SPEC §2.2, computed where the state lives) wins; only a same-site path is followed', () => {
    // A path the client would not compute from this state: proves the answer's path is used.
    expect(routeAfterSave('8095551234', { ...at('ABOUT_STORE'), path: '/8095551234/u1/download' })).toBe(
      '/8095551234/u1/download',
    );
    expect(applicationState.get('u1')).toMatchObject({ next_step: 'ABOUT_STORE' });
    expect(routeAfterSave('8095551234', { ...at('ABOUT_STORE'), path: '//evil.example/x' })).toBe(
      '/8095551234/u1/more-about',
    );
    expect(routeAfterSave('8095551234', { ...at('ABOUT_STORE'), path: 'https://evil.example/x' })).toBe(
      '/8095551234/u1/more-about',
    );
  });
});
