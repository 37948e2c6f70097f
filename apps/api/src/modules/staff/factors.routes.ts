import {
  factorEnrolledResponse,
  passkeyOptionsResponse,
  passkeyParams,
  passkeyRegisterBody,
  recoveryCodesResponse,
  staffFactorsResponse,
  totpConfirmBody,
  totpEnrolmentResponse,
} from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { staff, staffPasskeys, staffSessions, staffTotp } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { appendAuditEvent } from '../audit/index.js';
import { listPasskeys, registerPasskey, registrationOptions, relyingParty } from './passkeys.js';
import { issueRecoveryCodes, recoveryCodesLeft } from './recovery-codes.js';
import { factorEnrolled, INVALID_FACTOR, sessionView } from './session.js';
import { NO_PASSKEYS, staffErrors } from './refusals.js';
import { requireStaffInStage, staffOnly, STEP_UP_REQUIRED, stepUpUntil } from './staff-auth.js';
import { mustEnrol, secondFactors, staffChain, type StaffRow } from './staff.service.js';
import { startTotpEnrolment, useTotpCode } from './totp.js';

const ENROLMENT_OVER = new AppError(
  401,
  'STAFF_UNAUTHENTICATED',
  'the account enrolled a factor meanwhile',
  'Tu cuenta ya tiene un segundo factor. Vuelve a iniciar sesión.',
);
const LAST_FACTOR = new AppError(
  409,
  'LAST_SECOND_FACTOR',
  'last second factor',
  'Es tu único segundo factor y tu rol lo exige: agrega otro antes de quitar este.',
);

/**
 * The signed-in person's own second factors: enrolment at the first login (stage 'enrol'), and
 * later, with a recent second factor, more passkeys, new recovery codes or a passkey removed.
 */
export async function staffFactorRoutes(app: App): Promise<void> {
  /** Enrolling: during the first login, or later with a recent second factor (a stolen session cannot add its own). */
  const enrolling = async (request: FastifyRequest) => {
    const member = await requireStaffInStage(request, ['enrol', 'active']);
    if ((await secondFactors(app.db, member.id)).length === 0) return;
    // A login waiting for its enrolment while the owner enrolled elsewhere: it must log in again and
    // give that factor (else whoever had the password could add their own).
    if (request.session.stage === 'enrol') throw ENROLMENT_OVER;
    const until = stepUpUntil(request);
    if (!until || until <= app.clock()) throw STEP_UP_REQUIRED;
  };
  const signedIn = staffOnly();
  const recentFactor = staffOnly(undefined, { stepUp: true });

  const audit = (member: StaffRow, type: string, payload: Record<string, unknown>) =>
    appendAuditEvent(app.db, {
      applicationId: staffChain(member.id),
      actor: staffChain(member.id),
      type,
      payload,
      at: app.clock(),
    });

  /** The first factor of an account brings its recovery codes (shown once); later ones do not. */
  const afterEnrolment = async (request: FastifyRequest, member: StaffRow, method: 'totp' | 'passkey') => {
    const codes = await app.db.transaction(async (tx) => {
      await tx.update(staff).set({ enrolRequired: false }).where(eq(staff.id, member.id));
      // Every other login of the account still waiting to enrol ends: the next one gives this factor.
      await tx.delete(staffSessions).where(and(eq(staffSessions.staffId, member.id), eq(staffSessions.stage, 'enrol')));
      const left = await recoveryCodesLeft(tx, member.id);
      const issued =
        left > 0 ? null : await issueRecoveryCodes(tx, app.secrets.key('staff-recovery-codes'), member.id, app.clock());
      await appendAuditEvent(tx, {
        applicationId: staffChain(member.id),
        actor: staffChain(member.id),
        type: 'staff.factor_enrolled',
        payload: { method, recovery_codes_issued: issued !== null },
        at: app.clock(),
      });
      return issued;
    });
    member.enrolRequired = false;
    await factorEnrolled(request, member, method);
    return { session: await sessionView(request, member), recovery_codes: codes };
  };

  app.get(
    '/me/factors',
    { onRequest: signedIn, schema: { response: { 200: staffFactorsResponse, ...staffErrors } } },
    async (request) => {
      const member = request.staffMember!;
      const [[totp], passkeys, left] = await Promise.all([
        app.db.select().from(staffTotp).where(eq(staffTotp.staffId, member.id)),
        listPasskeys(app.db, member.id),
        recoveryCodesLeft(app.db, member.id),
      ]);
      return {
        data: {
          totp: !!totp?.confirmedAt,
          passkeys: passkeys.map((row) => ({
            id: row.id,
            name: row.name,
            created_at: row.createdAt.toISOString(),
            last_used_at: row.lastUsedAt?.toISOString() ?? null,
          })),
          recovery_codes_left: left,
        },
      };
    },
  );

  app.post(
    '/me/totp',
    { onRequest: enrolling, schema: { response: { 200: totpEnrolmentResponse, ...staffErrors } } },
    async (request) => {
      const member = request.staffMember!;
      const { secret, otpauthUri } = await startTotpEnrolment(app, member, app.config.APP_NAME);
      return { data: { secret, otpauth_uri: otpauthUri } };
    },
  );

  app.post(
    '/me/totp/confirm',
    {
      onRequest: enrolling,
      schema: { body: totpConfirmBody, response: { 200: factorEnrolledResponse, ...staffErrors } },
    },
    async (request) => {
      const member = request.staffMember!;
      if (!(await useTotpCode(app, member.id, request.body.code, 'enrolling'))) throw INVALID_FACTOR;
      return { data: await afterEnrolment(request, member, 'totp') };
    },
  );

  app.post(
    '/me/passkeys/options',
    { onRequest: enrolling, schema: { response: { 200: passkeyOptionsResponse, ...staffErrors } } },
    async (request) => {
      const member = request.staffMember!;
      const rp = relyingParty(app.config, request);
      if (!rp) throw NO_PASSKEYS;
      const options = await registrationOptions(app.db, rp, member);
      request.session.challenge = options.challenge;
      return { data: { options: options as unknown as Record<string, unknown> } };
    },
  );

  app.post(
    '/me/passkeys',
    {
      onRequest: enrolling,
      schema: { body: passkeyRegisterBody, response: { 200: factorEnrolledResponse, ...staffErrors } },
    },
    async (request) => {
      const member = request.staffMember!;
      const rp = relyingParty(app.config, request);
      if (!rp) throw NO_PASSKEYS;
      const challenge = request.session.challenge;
      request.session.challenge = null;
      const row =
        challenge &&
        (await registerPasskey(app.db, rp, {
          staffId: member.id,
          challenge,
          credential: request.body.credential,
          name: request.body.name || 'Llave de acceso',
          now: app.clock(),
        }));
      if (!row)
        throw new AppError(
          400,
          'PASSKEY_NOT_REGISTERED',
          'passkey not verified',
          'No pudimos registrar la llave de acceso. Intenta de nuevo.',
        );
      return { data: await afterEnrolment(request, member, 'passkey') };
    },
  );

  app.delete(
    '/me/passkeys/:passkeyId',
    { onRequest: recentFactor, schema: { params: passkeyParams, response: { 204: z.null(), ...staffErrors } } },
    async (request, reply) => {
      const member = request.staffMember!;
      await app.db.transaction(async (tx) => {
        const [removed] = await tx
          .delete(staffPasskeys)
          .where(and(eq(staffPasskeys.id, request.params.passkeyId), eq(staffPasskeys.staffId, member.id)))
          .returning({ id: staffPasskeys.id });
        if (!removed) throw new AppError(404, 'NOT_FOUND', 'passkey not found', 'No encontramos esa llave de acceso.');
        if (mustEnrol(member, await secondFactors(tx, member.id))) throw LAST_FACTOR;
      });
      await audit(member, 'staff.passkey_removed', { passkey_id: request.params.passkeyId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/me/recovery-codes',
    { onRequest: recentFactor, schema: { response: { 200: recoveryCodesResponse, ...staffErrors } } },
    async (request) => {
      const member = request.staffMember!;
      if ((await secondFactors(app.db, member.id)).length === 0)
        throw new AppError(409, 'NO_SECOND_FACTOR', 'no factor', 'Primero agrega un segundo factor.');
      const codes = await app.db.transaction((tx) =>
        issueRecoveryCodes(tx, app.secrets.key('staff-recovery-codes'), member.id, app.clock()),
      );
      await audit(member, 'staff.recovery_codes_issued', {});
      return { data: { recovery_codes: codes } };
    },
  );
}
