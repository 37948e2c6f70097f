import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_PARTNER_PHONE } from './constants.js';
import { isPastPassword, routeAfterLookup, type LookupUser } from './routing.js';

const phone = '8095551234';
const userId = '42';
const user = (overrides: Partial<LookupUser>): LookupUser => ({
  user_id: userId,
  next_step: null,
  status: 'IN_PROGRESS',
  avals: [],
  ...overrides,
});
const route = (overrides: Partial<LookupUser>) => routeAfterLookup({ kind: 'user', phone, user: user(overrides) });

describe('routeAfterLookup: every row of SPEC §2.2', () => {
  it('404 on lookup (new user) → about-you', () => {
    expect(routeAfterLookup({ kind: 'new-user', phone })).toBe('/8095551234/about-you');
  });

  it('invalid verification → /home', () => {
    expect(routeAfterLookup({ kind: 'invalid-verification' })).toBe('/home');
  });

  it('BUSINESS_ADDRESS → search-address', () => {
    expect(route({ next_step: 'BUSINESS_ADDRESS' })).toBe('/8095551234/42/search-address');
  });

  it('ABOUT_STORE → more-about', () => {
    expect(route({ next_step: 'ABOUT_STORE' })).toBe('/8095551234/42/more-about');
  });

  it('status WAITING → /{userId}/waiting', () => {
    expect(route({ next_step: 'ACCOUNT_BUREAU', status: 'WAITING' })).toBe('/42/waiting');
    expect(route({ next_step: 'PASSWORD', status: 'WAITING' })).toBe('/42/waiting');
  });

  it('ACCOUNT_NIP with IN_PROGRESS → send-nip', () => {
    expect(route({ next_step: 'ACCOUNT_NIP', status: 'IN_PROGRESS' })).toBe('/8095551234/42/send-nip');
  });

  it('ACCOUNT_BUREAU → send-nip?already-sent=true', () => {
    expect(route({ next_step: 'ACCOUNT_BUREAU', status: 'IN_PROGRESS' })).toBe(
      '/8095551234/42/send-nip?already-sent=true',
    );
  });

  it('PASSWORD with IN_PROGRESS → create-password', () => {
    expect(route({ next_step: 'PASSWORD', status: 'IN_PROGRESS' })).toBe('/8095551234/42/create-password');
  });

  it.each(['REJECTED', 'CANCELLED', 'APPROVED', ''])('ACCOUNT_NIP or PASSWORD with status %j → /rejected', (status) => {
    expect(route({ next_step: 'ACCOUNT_NIP', status })).toBe('/rejected');
    expect(route({ next_step: 'PASSWORD', status })).toBe('/rejected');
  });

  it.each([
    'INVENTORY',
    'PARTNER_FORM',
    'PARTNER_BUREAU',
    'COLLATERAL_FORM',
    'COLLATERAL_BUREAU',
    'WISH_NEW_COLLATERAL',
    'ASK_NEW_COLLATERAL',
    'ASK_REPLACE_PARTNER',
    'PENDING_APPROVAL',
  ])('%s → download', (step) => {
    expect(route({ next_step: step })).toBe('/8095551234/42/download');
  });

  // The lender's decision after PENDING_APPROVAL (issue 30).
  it('PENDING_APPROVAL with REJECTED (the lender declined) → declined', () => {
    expect(route({ next_step: 'PENDING_APPROVAL', status: 'REJECTED' })).toBe('/8095551234/42/declined');
  });

  it('APPROVED (the lender approved) → approved', () => {
    expect(route({ next_step: 'APPROVED', status: 'IN_PROGRESS' })).toBe('/8095551234/42/approved');
  });

  it('DISBURSED → disbursed', () => {
    expect(route({ next_step: 'DISBURSED', status: 'IN_PROGRESS' })).toBe('/8095551234/42/disbursed');
  });

  it('PARTNER_NIP → partner route with the partner phone', () => {
    const avals = [
      { aval_type: 'COLLATERAL' as const, phone: '5512345678' },
      { aval_type: 'PARTNER' as const, phone: '5587654321' },
    ];
    expect(route({ next_step: 'PARTNER_NIP', avals })).toBe('/partner/SK/42/5587654321/send-nip-partner');
  });

  it('PARTNER_NIP without a partner phone → placeholder partner phone', () => {
    expect(route({ next_step: 'PARTNER_NIP', avals: [] })).toBe(
      `/partner/SK/42/${PLACEHOLDER_PARTNER_PHONE}/send-nip-partner`,
    );
    expect(route({ next_step: 'PARTNER_NIP', avals: null })).toBe(
      `/partner/SK/42/${PLACEHOLDER_PARTNER_PHONE}/send-nip-partner`,
    );
  });

  it('COLLATERAL_NIP → collateral route with the collateral phone', () => {
    const avals = [
      { aval_type: 'PARTNER' as const, phone: '5587654321' },
      { aval_type: 'COLLATERAL' as const, phone: '5512345678' },
    ];
    expect(route({ next_step: 'COLLATERAL_NIP', avals })).toBe('/collateral/SK/42/5512345678/send-nip-partner');
  });

  it('TAX_ACCOUNT → additional-data', () => {
    expect(route({ next_step: 'TAX_ACCOUNT' })).toBe('/8095551234/42/additional-data');
  });

  it.each(['SOMETHING_NEW', '', null])('any other step (%j) → advisor-contact', (step) => {
    expect(route({ next_step: step })).toBe('/8095551234/42/advisor-contact');
  });
});

describe('routeAfterLookup: reading the lookup answer', () => {
  it('uses data.id when data.user_id is absent', () => {
    expect(routeAfterLookup({ kind: 'user', phone, user: { id: 7, next_step: 'TAX_ACCOUNT' } })).toBe(
      '/8095551234/7/additional-data',
    );
  });

  it('falls back to request.next_step and request.status', () => {
    expect(
      routeAfterLookup({
        kind: 'user',
        phone,
        user: { user_id: 9, request: { next_step: 'PASSWORD', status: 'IN_PROGRESS' } },
      }),
    ).toBe('/8095551234/9/create-password');
  });

  it('address and store steps win over WAITING (table order)', () => {
    expect(route({ next_step: 'BUSINESS_ADDRESS', status: 'WAITING' })).toBe('/8095551234/42/search-address');
    expect(route({ next_step: 'ABOUT_STORE', status: 'WAITING' })).toBe('/8095551234/42/more-about');
  });
});

describe('isPastPassword: who may reach the advisor screens', () => {
  it.each([
    ['INVENTORY', 'IN_PROGRESS', true],
    ['PENDING_APPROVAL', 'IN_PROGRESS', true],
    ['SIGN_CONTRACT', 'IN_PROGRESS', true],
    ['PASSWORD', 'IN_PROGRESS', false],
    ['PASSWORD', 'REJECTED', false],
    ['ACCOUNT_NIP', 'REJECTED', false],
    ['INVENTORY', 'REJECTED', false],
    ['TAX_ACCOUNT', 'IN_PROGRESS', false],
    ['ACCOUNT_BUREAU', 'WAITING', false],
  ])('%s/%s → %s', (next_step, status, allowed) => {
    expect(isPastPassword({ next_step, status })).toBe(allowed);
  });
});
