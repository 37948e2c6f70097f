import {
  confirmTotpCall,
  ownFactorsCall,
  passkeyRegistrationOptionsCall,
  registerPasskeyCall,
  removePasskeyCall,
  renewRecoveryCodesCall,
  startTotpCall,
} from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import type { StaffRow } from './accounts.store.js';
import { ownFactors, recordEnrolment, removeOwnPasskey, renewRecoveryCodes } from './factors.service.js';
import { registerPasskey, registrationOptions, relyingParty } from './passkeys.js';
import { factorEnrolled, INVALID_FACTOR, sessionView } from './session.js';
import { NO_PASSKEYS } from './refusals.js';
import { requireStaffInStage, staffOnly, STEP_UP_REQUIRED, stepUpUntil } from './staff-auth.js';
import { staffDepsOf } from './staff-deps.js';
import { secondFactors } from './staff.service.js';
import { startTotpEnrolment, useTotpCode } from './totp.js';

const ENROLMENT_OVER = new AppError(
  401,
  'STAFF_UNAUTHENTICATED',
  'the account enrolled a factor meanwhile',
  'Tu cuenta ya tiene un segundo factor. Vuelve a iniciar sesión.',
);

/**
 * The signed-in person's own second factors: enrolment at the first login (stage 'enrol'), and
 * later, with a recent second factor, more passkeys, new recovery codes or a passkey removed.
 */
export async function staffFactorRoutes(app: App): Promise<void> {
  const deps = staffDepsOf(app);
  /** Enrolling: during the first login, or later with a recent second factor (a stolen session cannot add its own). */
  const enrolling = async (request: FastifyRequest) => {
    const member = await requireStaffInStage(request, ['enrol', 'active']);
    if ((await secondFactors(deps.db, member.id)).length === 0) return;
    // A login waiting for its enrolment while the owner enrolled elsewhere: it must log in again and
    // give that factor (else whoever had the password could add their own).
    if (request.session.stage === 'enrol') throw ENROLMENT_OVER;
    const until = stepUpUntil(request, deps.config.STAFF_STEP_UP_SECONDS);
    if (!until || until <= deps.clock()) throw STEP_UP_REQUIRED;
  };
  const signedIn = staffOnly();
  const recentFactor = staffOnly(undefined, { stepUp: true });

  /** The first factor of an account brings its recovery codes (shown once); later ones do not. */
  const afterEnrolment = async (request: FastifyRequest, member: StaffRow, method: 'totp' | 'passkey') => {
    const codes = await recordEnrolment(deps, member, method);
    member.enrolRequired = false;
    await factorEnrolled(deps, request, member, method);
    return { session: await sessionView(deps, request, member), recovery_codes: codes };
  };

  register(app, ownFactorsCall, { onRequest: signedIn }, async (request) => ({
    data: await ownFactors(deps, request.staffMember!.id),
  }));

  register(app, startTotpCall, { onRequest: enrolling }, async (request) => {
    const member = request.staffMember!;
    const { secret, otpauthUri } = await startTotpEnrolment(deps, member, deps.config.APP_NAME);
    return { data: { secret, otpauth_uri: otpauthUri } };
  });

  register(app, confirmTotpCall, { onRequest: enrolling }, async (request) => {
    const member = request.staffMember!;
    if (!(await useTotpCode(deps, member.id, request.body.code, 'enrolling'))) throw INVALID_FACTOR;
    return { data: await afterEnrolment(request, member, 'totp') };
  });

  register(app, passkeyRegistrationOptionsCall, { onRequest: enrolling }, async (request) => {
    const member = request.staffMember!;
    const rp = relyingParty(deps.config, request);
    if (!rp) throw NO_PASSKEYS;
    const options = await registrationOptions(deps.db, rp, member);
    request.session.challenge = options.challenge;
    return { data: { options: options as unknown as Record<string, unknown> } };
  });

  register(app, registerPasskeyCall, { onRequest: enrolling }, async (request) => {
    const member = request.staffMember!;
    const rp = relyingParty(deps.config, request);
    if (!rp) throw NO_PASSKEYS;
    const challenge = request.session.challenge;
    request.session.challenge = null;
    const row =
      challenge &&
      (await registerPasskey(deps.db, rp, {
        staffId: member.id,
        challenge,
        credential: request.body.credential,
        name: request.body.name || 'Llave de acceso',
        now: deps.clock(),
      }));
    if (!row)
      throw new AppError(
        400,
        'PASSKEY_NOT_REGISTERED',
        'passkey not verified',
        'No pudimos registrar la llave de acceso. Intenta de nuevo.',
      );
    return { data: await afterEnrolment(request, member, 'passkey') };
  });

  register(app, removePasskeyCall, { onRequest: recentFactor }, async (request, reply) => {
    await removeOwnPasskey(deps, request.staffMember!, request.params.passkeyId);
    return reply.status(204).send(null);
  });

  register(app, renewRecoveryCodesCall, { onRequest: recentFactor }, async (request) => ({
    data: { recovery_codes: await renewRecoveryCodes(deps, request.staffMember!) },
  }));
}
