import {
  staffGiveFactorCall,
  staffLoginCall,
  staffLoginOptionsCall,
  staffLogoutCall,
  staffPasskeyLoginCall,
  staffPasskeyLoginOptionsCall,
  staffSessionCall,
} from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { authenticationOptions, relyingParty, usePasskey } from './passkeys.js';
import { passwordLogin } from './password-login.js';
import { useRecoveryCode } from './recovery-codes.js';
import { giveSecondFactor, INVALID_FACTOR, openStaffSession, sessionView } from './session.js';
import { NO_PASSKEYS, PASSWORD_LOGIN_OFF } from './refusals.js';
import { requireStaffInStage, staffInStage } from './staff-auth.js';
import { staffDepsOf } from './staff-deps.js';
import { useTotpCode } from './totp.js';

/** Login (the password, then the second factor), who am I, logout. */
export async function staffSessionRoutes(app: App): Promise<void> {
  const { config } = app;
  const deps = staffDepsOf(app);

  register(app, staffLoginOptionsCall, {}, async () => ({
    data: {
      password: config.STAFF_PASSWORD_LOGIN,
      sso: config.OIDC_ISSUER ? { name: config.OIDC_NAME } : null,
    },
  }));

  register(app, staffLoginCall, {}, async (request) => {
    if (!config.STAFF_PASSWORD_LOGIN) throw PASSWORD_LOGIN_OFF(config.OIDC_NAME);
    const member = await passwordLogin(deps, request.body.email, request.body.password, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    await openStaffSession(deps, request, member, 'password');
    return { data: await sessionView(deps, request, member) };
  });

  // Any stage: the login screen asks where a login (after single sign-on, say) stands.
  register(app, staffSessionCall, {}, async (request) => {
    const member = await requireStaffInStage(request, ['factor', 'enrol', 'active']);
    return { data: await sessionView(deps, request, member) };
  });

  register(app, staffLogoutCall, {}, async (request, reply) => {
    if (request.session.staffId) await request.session.destroy();
    return reply.status(204).send(null);
  });

  // The second factor: to finish a login, or to confirm it is still you (step-up).
  register(app, staffGiveFactorCall, { onRequest: staffInStage(['factor', 'active']) }, async (request) => {
    const member = request.staffMember!;
    const { method, code } = request.body;
    await giveSecondFactor(deps, request, member, method, () =>
      method === 'totp'
        ? useTotpCode(deps, member.id, code, 'confirmed')
        : useRecoveryCode(deps.db, deps.recoveryKey, member.id, code, deps.clock()),
    );
    return { data: await sessionView(deps, request, member) };
  });

  register(app, staffPasskeyLoginOptionsCall, { onRequest: staffInStage(['factor', 'active']) }, async (request) => {
    const member = request.staffMember!;
    const rp = relyingParty(config, request);
    const options = rp && (await authenticationOptions(deps.db, rp, member.id));
    if (!options) throw NO_PASSKEYS;
    request.session.challenge = options.challenge;
    return { data: { options: options as unknown as Record<string, unknown> } };
  });

  register(app, staffPasskeyLoginCall, { onRequest: staffInStage(['factor', 'active']) }, async (request) => {
    const member = request.staffMember!;
    const rp = relyingParty(config, request);
    if (!rp) throw NO_PASSKEYS;
    const challenge = request.session.challenge;
    request.session.challenge = null; // one answer per challenge
    if (!challenge) throw INVALID_FACTOR;
    await giveSecondFactor(deps, request, member, 'passkey', () =>
      usePasskey(deps.db, rp, {
        staffId: member.id,
        challenge,
        credential: request.body.credential,
        now: deps.clock(),
      }),
    );
    return { data: await sessionView(deps, request, member) };
  });
}
