import { AVAL_STEPS, toE164, type AvalType } from '@provee/domain';
import { assertAt, engineOf, StepConflict, stepAnswer, workUnderClaim } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { consumeCode, issueCode } from '../one-time-codes/index.js';
import type { UserRow } from '../users/index.js';
import { recordAvalConsent, refreshed, type ConsentFrom } from './consent.js';
import type { CodeDeps, ConsentDeps, GuarantorDeps } from './deps.js';
import { assertBureauCanAsk, NOT_FOUND, shopkeeperName } from './guarantor.js';
import { findActiveAval, type AvalRow } from './guarantors.store.js';
import { checkInvited, FORBIDDEN, type Invited } from './invitation.js';

// In person: the guarantor’s PIN, sent to their phone and typed on the shopkeeper’s screen.

/** The guarantor whose PIN step the application is at, and whose number is `to`. */
export async function avalAtPinStep(
  deps: Pick<GuarantorDeps, 'db' | 'clock' | 'config' | 'cipher'> & Pick<ConsentDeps, 'bureau'>,
  user: UserRow,
  to: string,
  invited?: Invited,
): Promise<AvalRow> {
  const type: AvalType | undefined =
    user.nextStep === 'PARTNER_NIP' ? 'PARTNER' : user.nextStep === 'COLLATERAL_NIP' ? 'COLLATERAL' : undefined;
  if (!type || user.status !== 'IN_PROGRESS') throw new StepConflict(await stepAnswer(engineOf(deps), user));
  const aval = await findActiveAval(deps.db, user.id, type);
  if (!aval || aval.phoneE164 !== toE164(deps.config.COUNTRY, to)) throw invited ? FORBIDDEN : NOT_FOUND;
  checkInvited(aval, invited);
  await assertBureauCanAsk(deps, aval);
  return aval;
}

/** The guarantor's PIN SMS. */
export const avalPinMessage =
  (deps: Pick<GuarantorDeps, 'config'>, user: UserRow) =>
  (code: string): string =>
    `${code} es tu NIP de ${deps.config.APP_NAME}. Con él autorizas la consulta de tu historial crediticio como aval de ${shopkeeperName(user)}. No lo compartas.`;

/** The PIN by SMS to the guarantor's phone (a code issued already, after a number change, or a new one). */
export async function sendAvalPin(
  deps: CodeDeps & Pick<GuarantorDeps, 'db' | 'clock' | 'config'>,
  user: UserRow,
  aval: AvalRow,
  issued?: Awaited<ReturnType<typeof issueCode>>,
) {
  issued ??= await issueCode(deps, {
    phoneE164: aval.phoneE164!,
    purpose: 'aval-nip',
    message: avalPinMessage(deps, user),
    applicationId: user.id,
  });
  await appendAuditEvent(deps.db, {
    applicationId: user.id,
    actor: 'system',
    type: 'guarantor.nip_sent',
    payload: { aval_id: aval.id, aval_type: aval.avalType },
    at: deps.clock(),
  });
  return {
    collateralName: aval.name ?? '',
    shopkeeperName: shopkeeperName(user),
    aval_type: aval.avalType as AvalType,
    expires_at: issued.expiresAt.toISOString(),
    resend_after_seconds: issued.resendAfterSeconds,
    ...(deps.config.NIP_PREFILL ? { default_nip: issued.code } : {}),
  };
}

/** POST …/aval/nip?to=: the PIN to the guarantor's phone. */
export async function sendPinToAval(
  deps: CodeDeps & Pick<GuarantorDeps, 'db' | 'clock' | 'config' | 'cipher'> & Pick<ConsentDeps, 'bureau'>,
  user: UserRow,
  to: string,
  invited?: Invited,
) {
  return sendAvalPin(deps, user, await avalAtPinStep(deps, user, to, invited));
}

/** PUT …/aval/nip?to= {nip}: the PIN proves the guarantor's consent; their bureau query runs. */
export async function confirmAvalPin(
  deps: CodeDeps & ConsentDeps,
  user: UserRow,
  to: string,
  nip: string,
  evidence: ConsentFrom,
  invited?: Invited,
) {
  const engine = engineOf(deps);
  const aval = await avalAtPinStep(deps, user, to, invited);
  const steps = AVAL_STEPS[aval.avalType as AvalType];
  await assertAt(engine, user, steps.consent);
  const { claim } = await workUnderClaim(engine, user.id, steps.consent, () =>
    consumeCode(deps, { phoneE164: aval.phoneE164!, purpose: 'aval-nip', code: nip }),
  );
  await recordAvalConsent(deps, user, aval, { ...evidence, pinVerified: true, pin: nip, claim });
  return refreshed(deps, user.id, aval.id);
}
