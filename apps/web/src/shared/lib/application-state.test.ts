import type { ApplicationStatus, NextStep } from '@provee/domain';
import { describe, expect, it } from 'vitest';
import { applicationState, routeAfterSave, screenAllows, screenView, type StepScreen } from './application-state.js';

const at = (next_step: NextStep, status: ApplicationStatus = 'IN_PROGRESS') => ({ user_id: 'u1', next_step, status });

describe('application state: which screen each state allows', () => {
  it.each<[StepScreen, NextStep, ApplicationStatus, boolean]>([
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
    // The lender's decision (issue 30): its own screen, and no more the advisor screens.
    ['advisor', 'PENDING_APPROVAL', 'IN_PROGRESS', true],
    ['advisor', 'PENDING_APPROVAL', 'REJECTED', false],
    ['advisor', 'APPROVED', 'IN_PROGRESS', false],
    ['advisor', 'DISBURSED', 'IN_PROGRESS', false],
    ['approved', 'APPROVED', 'IN_PROGRESS', true],
    ['approved', 'PENDING_APPROVAL', 'IN_PROGRESS', false],
    ['approved', 'DISBURSED', 'IN_PROGRESS', false],
    ['declined', 'PENDING_APPROVAL', 'REJECTED', true],
    ['declined', 'PENDING_APPROVAL', 'IN_PROGRESS', false],
    ['declined', 'ACCOUNT_NIP', 'REJECTED', false],
    ['disbursed', 'DISBURSED', 'IN_PROGRESS', true],
    ['disbursed', 'APPROVED', 'IN_PROGRESS', false],
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

describe('application state: an earlier registration screen shows what was saved (issue 27)', () => {
  it.each<[StepScreen, NextStep, ApplicationStatus, ReturnType<typeof screenView>]>([
    ['additional-data', 'TAX_ACCOUNT', 'IN_PROGRESS', { saved: false }],
    ['additional-data', 'BUSINESS_ADDRESS', 'IN_PROGRESS', { saved: true, editable: true }],
    ['additional-data', 'ACCOUNT_NIP', 'IN_PROGRESS', { saved: true, editable: false }],
    ['search-address', 'ABOUT_STORE', 'IN_PROGRESS', { saved: true, editable: true }],
    ['about-living', 'ACCOUNT_BUREAU', 'IN_PROGRESS', { saved: true, editable: false }],
    ['about-living', 'ACCOUNT_NIP', 'REJECTED', { saved: true, editable: false }],
    ['more-about', 'ACCOUNT_NIP', 'IN_PROGRESS', { saved: true, editable: false }],
    ['more-about', 'BUSINESS_ADDRESS', 'IN_PROGRESS', null],
    ['search-address', 'TAX_ACCOUNT', 'IN_PROGRESS', null],
    ['send-nip', 'PASSWORD', 'IN_PROGRESS', null],
    ['create-password', 'INVENTORY', 'IN_PROGRESS', null],
  ])('%s with %s/%s → %j', (screen, step, status, view) => {
    expect(screenView(screen, at(step, status))).toEqual(view);
  });

  it('knows a number without an application until one is saved for it', () => {
    applicationState.clear();
    applicationState.markNew('8095550000');
    expect(applicationState.isNew('8095550000')).toBe(true);
    expect(applicationState.isNew('8095550001')).toBe(false);
    routeAfterSave('8095550000', { ...at('TAX_ACCOUNT'), user_id: 'u9' });
    expect(applicationState.isNew('8095550000')).toBe(false);
    expect(applicationState.forPhone('8095550000')).toMatchObject({ user_id: 'u9' });
  });
});
