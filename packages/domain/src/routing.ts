import { STEPS_BEFORE_PRE_APPROVAL, type AvalType } from './application.js';
import { PLACEHOLDER_PARTNER_PHONE } from './constants.js';

/** The part of the user lookup answer (SPEC §3) that routing reads. */
export interface LookupUser {
  user_id?: string | number;
  id?: string | number;
  next_step?: string | null;
  status?: string | null;
  request?: { next_step?: string | null; status?: string | null } | null;
  avals?: { aval_type: AvalType; phone?: string | null }[] | null;
}

export type LookupResult =
  | { kind: 'new-user'; phone: string }
  | { kind: 'invalid-verification' }
  | { kind: 'user'; phone: string; user: LookupUser };

/** Steps after the pre-approval that continue in the mobile app (SPEC §2.2). */
const DOWNLOAD_STEPS: ReadonlySet<string> = new Set([
  'INVENTORY',
  'PARTNER_FORM',
  'PARTNER_BUREAU',
  'COLLATERAL_FORM',
  'COLLATERAL_BUREAU',
  'WISH_NEW_COLLATERAL',
  'ASK_NEW_COLLATERAL',
  'ASK_REPLACE_PARTNER',
  'PENDING_APPROVAL',
]);

/** Steps up to and including the password: the application is not pre-approved yet. */
const BEFORE_ADVISOR_STEPS: ReadonlySet<string> = new Set(STEPS_BEFORE_PRE_APPROVAL);

/** Advisor contact, advisor welcome and the download: only past the password, still IN_PROGRESS. */
export function isPastPassword(state: { next_step?: string | null; status?: string | null }): boolean {
  return state.status === 'IN_PROGRESS' && !!state.next_step && !BEFORE_ADVISOR_STEPS.has(state.next_step);
}

function avalPhone(user: LookupUser, type: AvalType): string {
  const phone = user.avals?.find((aval) => aval.aval_type === type)?.phone;
  return phone ? phone : PLACEHOLDER_PARTNER_PHONE;
}

/**
 * SPEC §2.2: where the app goes after the phone is proven and the user looked up.
 * Rows are checked in the table's order and the first match wins, so a user whose
 * address or store step is pending goes there even while the request is WAITING.
 * The top-level next_step/status win over the ones nested in `request`.
 */
export function routeAfterLookup(result: LookupResult): string {
  if (result.kind === 'invalid-verification') return '/home';
  const { phone } = result;
  if (result.kind === 'new-user') return `/${phone}/about-you`;

  const { user } = result;
  const userId = String(user.user_id ?? user.id ?? '');
  const step = user.next_step ?? user.request?.next_step ?? '';
  const status = user.status ?? user.request?.status ?? '';
  const base = `/${phone}/${userId}`;

  if (step === 'BUSINESS_ADDRESS') return `${base}/search-address`;
  if (step === 'ABOUT_STORE') return `${base}/more-about`;
  if (status === 'WAITING') return `/${userId}/waiting`;
  if (step === 'ACCOUNT_NIP' && status === 'IN_PROGRESS') return `${base}/send-nip`;
  if (step === 'ACCOUNT_BUREAU') return `${base}/send-nip?already-sent=true`;
  if (step === 'PASSWORD' && status === 'IN_PROGRESS') return `${base}/create-password`;
  if (step === 'ACCOUNT_NIP' || step === 'PASSWORD') return '/rejected';
  // The lender's decision after PENDING_APPROVAL (issue 30).
  if (step === 'PENDING_APPROVAL' && status === 'REJECTED') return `${base}/declined`;
  if (step === 'APPROVED') return `${base}/approved`;
  if (step === 'DISBURSED') return `${base}/disbursed`;
  if (DOWNLOAD_STEPS.has(step)) return `${base}/download`;
  if (step === 'PARTNER_NIP') return `/partner/SK/${userId}/${avalPhone(user, 'PARTNER')}/send-nip-partner`;
  if (step === 'COLLATERAL_NIP') {
    return `/collateral/SK/${userId}/${avalPhone(user, 'COLLATERAL')}/send-nip-partner`;
  }
  if (step === 'TAX_ACCOUNT') return `${base}/additional-data`;
  return `${base}/advisor-contact`;
}
