import { expect, test } from './fixtures.js';
import { proveWithSms, seedUser, uniquePhone } from './helpers.js';

// SPEC §2.2, row by row: a user seeded at that step goes through the phone proof and lands here.
// (The new-user and invalid-verification rows are in phone-proof.spec.ts. The 'any other step' row
// is in packages/domain/src/routing.test.ts: the database refuses a step the domain does not list.)
const rows: {
  name: string;
  nextStep: string;
  status?: string;
  avals?: 'partner' | 'collateral';
  path: (p: string, id: string, aval: string) => string;
}[] = [
  { name: 'BUSINESS_ADDRESS', nextStep: 'BUSINESS_ADDRESS', path: (p, id) => `/${p}/${id}/search-address` },
  { name: 'ABOUT_STORE', nextStep: 'ABOUT_STORE', path: (p, id) => `/${p}/${id}/more-about` },
  { name: 'status WAITING', nextStep: 'ACCOUNT_BUREAU', status: 'WAITING', path: (_p, id) => `/${id}/waiting` },
  { name: 'ACCOUNT_NIP + IN_PROGRESS', nextStep: 'ACCOUNT_NIP', path: (p, id) => `/${p}/${id}/send-nip` },
  { name: 'ACCOUNT_BUREAU', nextStep: 'ACCOUNT_BUREAU', path: (p, id) => `/${p}/${id}/send-nip?already-sent=true` },
  { name: 'PASSWORD + IN_PROGRESS', nextStep: 'PASSWORD', path: (p, id) => `/${p}/${id}/create-password` },
  { name: 'ACCOUNT_NIP + REJECTED', nextStep: 'ACCOUNT_NIP', status: 'REJECTED', path: () => '/rejected' },
  { name: 'PASSWORD + REJECTED', nextStep: 'PASSWORD', status: 'REJECTED', path: () => '/rejected' },
  ...[
    'INVENTORY',
    'PARTNER_FORM',
    'PARTNER_BUREAU',
    'COLLATERAL_FORM',
    'COLLATERAL_BUREAU',
    'WISH_NEW_COLLATERAL',
    'ASK_NEW_COLLATERAL',
    'ASK_REPLACE_PARTNER',
    'PENDING_APPROVAL',
  ].map((step) => ({ name: step, nextStep: step, path: (p: string, id: string) => `/${p}/${id}/download` })),
  {
    name: 'PARTNER_NIP',
    nextStep: 'PARTNER_NIP',
    avals: 'partner',
    path: (_p, id, aval) => `/partner/SK/${id}/${aval}/send-nip-partner`,
  },
  {
    name: 'PARTNER_NIP without a partner phone',
    nextStep: 'PARTNER_NIP',
    path: (_p, id) => `/partner/SK/${id}/0000000000/send-nip-partner`,
  },
  {
    name: 'COLLATERAL_NIP',
    nextStep: 'COLLATERAL_NIP',
    avals: 'collateral',
    path: (_p, id, aval) => `/collateral/SK/${id}/${aval}/send-nip-partner`,
  },
  { name: 'TAX_ACCOUNT', nextStep: 'TAX_ACCOUNT', path: (p, id) => `/${p}/${id}/additional-data` },
];

test.describe('routing after the phone proof (SPEC §2.2)', () => {
  for (const row of rows) {
    test(row.name, async ({ page }) => {
      const phone = uniquePhone();
      const avalPhone = uniquePhone();
      const avals = row.avals
        ? [{ aval_type: row.avals === 'partner' ? ('PARTNER' as const) : ('COLLATERAL' as const), phone: avalPhone }]
        : [];
      const userId = await seedUser(page.request, { phone, nextStep: row.nextStep, status: row.status, avals });
      await proveWithSms(page, phone);
      const expected = row.path(phone, userId, avalPhone);
      await expect(page).toHaveURL((url) => url.pathname + url.search === expected);
    });
  }
});
