import { fromE164, type AvalType } from '@provee/domain';
import type { Executor, Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import {
  deliverMessage,
  enqueueMessage,
  type QueuedMessage,
  type MessageDeps,
  type MessagePurpose,
} from '../messaging/index.js';
import { findUserById, type UserRow } from '../users/index.js';
import type { GuarantorDeps } from './deps.js';
import { avalView, shopkeeperName } from './guarantor.js';
import { findAval, recordInvitationExpiry, type AvalRow } from './guarantors.store.js';

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

/**
 * The link of a guarantor's invitation: the remote-consent page with an opaque, expiring token
 * (AVAL_INVITE_TTL_SECONDS, or `ttlSeconds`: a reminder's link ends when the invitation's does).
 */
export function invitationLink(
  deps: Pick<GuarantorDeps, 'tokens' | 'config' | 'clock'>,
  aval: AvalRow,
  ttlSeconds = deps.config.AVAL_INVITE_TTL_SECONDS,
): { url: string; expiresAt: Date } {
  const { token } = deps.tokens.issue(
    { kind: 'aval', avalId: aval.id, userId: aval.userId, phoneE164: aval.phoneE164! },
    ttlSeconds,
  );
  const base = deps.config.PUBLIC_BASE_URL ?? `http://localhost:${deps.config.PORT}`;
  return {
    url: `${base}/verify-aval-phone?token=${encodeURIComponent(token)}`,
    expiresAt: new Date(deps.clock().getTime() + ttlSeconds * 1000),
  };
}

/** The purpose of an invitation's SMS (modules/sms asks it before each try). */
const INVITATION_SMS = 'aval-invitation';

/** An invitation is worth sending while its guarantor has not answered and was not replaced. */
export function invitationMessages(deps: Pick<GuarantorDeps, 'db'>): MessagePurpose {
  return {
    name: INVITATION_SMS,
    stillWanted: async (avalId) => (await findAval(deps.db, avalId))?.status === 'PENDING',
  };
}

/**
 * The SMS that invites a guarantor to consent from their own phone, enqueued in the caller's
 * transaction (the naming's, or the resend's with its audit event).
 */
export async function enqueueInvitation(
  deps: Pick<MessageDeps, 'cipher' | 'clock'> & Pick<GuarantorDeps, 'tokens' | 'config'>,
  tx: Executor,
  user: UserRow,
  aval: AvalRow,
): Promise<QueuedMessage> {
  const { url, expiresAt } = invitationLink(deps, aval);
  await recordInvitationExpiry(tx, aval.id, expiresAt);
  const name = shopkeeperName(user);
  return enqueueMessage(deps, tx, {
    kind: 'guarantor-invitation',
    to: aval.phoneE164!,
    body: `${name} te eligió como aval en ${deps.config.APP_NAME}. Autoriza la consulta de tu historial crediticio aquí: ${url}`,
    variables: [name, url],
    applicationId: user.id,
    about: { kind: INVITATION_SMS, id: aval.id },
  });
}

/**
 * A new invitation (a fresh link) for a guarantor named earlier, with what records it (`within`, in
 * the same transaction), tried at once; a provider that fails has it sent again by the queue.
 */
export async function inviteAval(
  deps: MessageDeps & Pick<GuarantorDeps, 'db' | 'tokens' | 'config'>,
  user: UserRow,
  aval: AvalRow,
  within?: (tx: Tx) => Promise<void>,
) {
  const sms = await deps.db.transaction(async (tx) => {
    await within?.(tx);
    return enqueueInvitation(deps, tx, user, aval);
  });
  await deliverMessage(deps, sms);
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
