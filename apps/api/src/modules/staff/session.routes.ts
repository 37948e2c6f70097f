import {
  passkeyLoginBody,
  passkeyOptionsResponse,
  staffFactorBody,
  staffLoginBody,
  staffLoginOptionsResponse,
  staffSessionResponse,
} from '@provee/domain';
import { z } from 'zod';
import type { App } from '../../types.js';
import { authenticationOptions, relyingParty, usePasskey } from './passkeys.js';
import { passwordLogin } from './password-login.js';
import { useRecoveryCode } from './recovery-codes.js';
import { giveSecondFactor, INVALID_FACTOR, openStaffSession, sessionView } from './session.js';
import { NO_PASSKEYS, PASSWORD_LOGIN_OFF, staffErrors } from './refusals.js';
import { requireStaffInStage, staffInStage } from './staff-auth.js';
import { useTotpCode } from './totp.js';

/** Login (the password, then the second factor), who am I, logout. */
export async function staffSessionRoutes(app: App): Promise<void> {
  const { config } = app;

  app.get('/login-options', { schema: { response: { 200: staffLoginOptionsResponse } } }, async () => ({
    data: {
      password: config.STAFF_PASSWORD_LOGIN,
      sso: config.OIDC_ISSUER ? { name: config.OIDC_NAME } : null,
    },
  }));

  app.post(
    '/session',
    { schema: { body: staffLoginBody, response: { 200: staffSessionResponse, ...staffErrors } } },
    async (request) => {
      if (!config.STAFF_PASSWORD_LOGIN) throw PASSWORD_LOGIN_OFF(config.OIDC_NAME);
      const member = await passwordLogin(
        { db: app.db, clock: app.clock, passwords: app.passwords, loginKey: app.secrets.key('staff-login') },
        request.body.email,
        request.body.password,
        { ip: request.ip, userAgent: request.headers['user-agent'] },
      );
      await openStaffSession(request, member, 'password');
      return { data: await sessionView(request, member) };
    },
  );

  // Any stage: the login screen asks where a login (after single sign-on, say) stands.
  app.get('/session', { schema: { response: { 200: staffSessionResponse, ...staffErrors } } }, async (request) => {
    const member = await requireStaffInStage(request, ['factor', 'enrol', 'active']);
    return { data: await sessionView(request, member) };
  });

  app.delete('/session', { schema: { response: { 204: z.null(), ...staffErrors } } }, async (request, reply) => {
    if (request.session.staffId) await request.session.destroy();
    return reply.status(204).send(null);
  });

  // The second factor: to finish a login, or to confirm it is still you (step-up).
  app.post(
    '/session/factor',
    {
      onRequest: staffInStage(['factor', 'active']),
      schema: { body: staffFactorBody, response: { 200: staffSessionResponse, ...staffErrors } },
    },
    async (request) => {
      const member = request.staffMember!;
      const { method, code } = request.body;
      await giveSecondFactor(request, member, method, () =>
        method === 'totp'
          ? useTotpCode(app, member.id, code, 'confirmed')
          : useRecoveryCode(app.db, app.secrets.key('staff-recovery-codes'), member.id, code, app.clock()),
      );
      return { data: await sessionView(request, member) };
    },
  );

  app.post(
    '/session/passkey/options',
    {
      onRequest: staffInStage(['factor', 'active']),
      schema: { response: { 200: passkeyOptionsResponse, ...staffErrors } },
    },
    async (request) => {
      const member = request.staffMember!;
      const rp = relyingParty(config, request);
      const options = rp && (await authenticationOptions(app.db, rp, member.id));
      if (!options) throw NO_PASSKEYS;
      request.session.challenge = options.challenge;
      return { data: { options: options as unknown as Record<string, unknown> } };
    },
  );

  app.post(
    '/session/passkey',
    {
      onRequest: staffInStage(['factor', 'active']),
      schema: { body: passkeyLoginBody, response: { 200: staffSessionResponse, ...staffErrors } },
    },
    async (request) => {
      const member = request.staffMember!;
      const rp = relyingParty(config, request);
      if (!rp) throw NO_PASSKEYS;
      const challenge = request.session.challenge;
      request.session.challenge = null; // one answer per challenge
      if (!challenge) throw INVALID_FACTOR;
      await giveSecondFactor(request, member, 'passkey', () =>
        usePasskey(app.db, rp, {
          staffId: member.id,
          challenge,
          credential: request.body.credential,
          now: app.clock(),
        }),
      );
      return { data: await sessionView(request, member) };
    },
  );
}
