import { fromE164, type AvalType } from '@provee/domain';
import { AppError } from '../../errors.js';
import { sendSms } from '../sms/index.js';
import { findUserById, type UserRow } from '../users/index.js';
import type { GuarantorDeps, SmsDeps } from './deps.js';
import { avalView, shopkeeperName } from './guarantor.js';
import { findAval, type AvalRow } from './guarantors.store.js';

/** A guarantor's invitation token: good only for that guarantor, at the number it was sent to. */
export interface Invited {
  avalId: string;
  phoneE164: string;
}

export const FORBIDDEN = new AppError(
  403,
  'FORBIDDEN',
  'forbidden',
  'Este enlace ya no es válido. Pide uno nuevo a quien te invitó.',
);

export function checkInvited(aval: AvalRow, invited: Invited | undefined): void {
  if (invited && (invited.avalId !== aval.id || invited.phoneE164 !== aval.phoneE164)) throw FORBIDDEN;
}

/** The link of a guarantor's invitation: the remote-consent page with an opaque, expiring token. */
export function invitationLink(deps: Pick<GuarantorDeps, 'tokens' | 'config'>, aval: AvalRow): string {
  const { token } = deps.tokens.issue(
    { kind: 'aval', avalId: aval.id, userId: aval.userId, phoneE164: aval.phoneE164! },
    deps.config.AVAL_INVITE_TTL_SECONDS,
  );
  const base = deps.config.PUBLIC_BASE_URL ?? `http://localhost:${deps.config.PORT}`;
  return `${base}/verify-aval-phone?token=${encodeURIComponent(token)}`;
}

/** The SMS that invites a newly named guarantor to consent from their own phone. */
export async function inviteAval(
  deps: SmsDeps & Pick<GuarantorDeps, 'tokens' | 'config'>,
  user: UserRow,
  aval: AvalRow,
) {
  await sendSms(
    deps,
    aval.phoneE164!,
    `${shopkeeperName(user)} te eligió como aval en ${deps.config.APP_NAME}. Autoriza la consulta de tu historial crediticio aquí: ${invitationLink(deps, aval)}`,
  );
}

/** The invited guarantor and the application that named them; 403 for a replaced one or another's token. */
export async function invitedAval(deps: Pick<GuarantorDeps, 'db'>, invited: Invited) {
  const aval = await findAval(deps.db, invited.avalId);
  const user = aval && (await findUserById(deps.db, aval.userId));
  if (!aval || !user || aval.status === 'REPLACED') throw FORBIDDEN;
  checkInvited(aval, invited);
  return { aval, user };
}

/** What the invitation page shows: who is asked, by whom, and whether they already answered. */
export async function invitation(deps: Pick<GuarantorDeps, 'db' | 'config'>, invited: Invited) {
  const { aval, user } = await invitedAval(deps, invited);
  return {
    user_id: user.id,
    user_type_id: 'SK' as const,
    collateral_id: aval.id,
    aval_type: aval.avalType as AvalType,
    collateralName: aval.name ?? '',
    shopkeeperName: shopkeeperName(user),
    phone_number: fromE164(deps.config.COUNTRY, aval.phoneE164!),
    status: avalView(deps, aval).status,
  };
}
