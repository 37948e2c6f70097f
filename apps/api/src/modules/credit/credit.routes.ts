import {
  advisorEventBody,
  advisorEventResponse,
  confirmNipBody,
  confirmNipResponse,
  consentsResponse,
  consentTextQuery,
  consentTextResponse,
  isPastPassword,
  nipSentResponse,
  passwordBody,
  passwordErrors,
} from '@provee/domain';
import { asc, eq } from 'drizzle-orm';
import { advisorEvents, bureauConsents } from '../../db/schema.js';
import { clientAddress } from '../../client-address.js';
import { errorResponseSchema, invalidFields, notEligible } from '../../errors.js';
import type { App } from '../../types.js';
import {
  assertAt,
  claimStep,
  engineOf,
  moveApplication,
  releaseClaim,
  stepAnswer,
  StepConflict,
} from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { requireToken } from '../auth/index.js';
import { ownedUser, stepAnswerSchema, userParams } from '../users/index.js';
import { confirmConsentNip, currentConsentText, latestApprovedDecision, sendConsentNip } from './credit.service.js';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  409: errorResponseSchema,
  422: errorResponseSchema,
  429: errorResponseSchema,
};

export async function creditRoutes(app: App): Promise<void> {
  app.get(
    '/v1/consents/text',
    {
      schema: {
        summary: 'Texto vigente de la autorización de consulta al buró (del comercio o de un aval)',
        querystring: consentTextQuery,
        response: { 200: consentTextResponse },
      },
    },
    async (request) => ({ data: currentConsentText(app, request.query.person_type) }),
  );

  app.post(
    '/v1/users/:id/:type/nip',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Envía el NIP de consulta (4 dígitos) por SMS',
        security: [{ bearer: [] }],
        params: userParams,
        response: {
          200: nipSentResponse,
          ...errors,
        },
      },
    },
    async (request) => {
      const sent = await sendConsentNip(app, await ownedUser(request, request.params.id));
      return {
        data: {
          expires_at: sent.expiresAt.toISOString(),
          resend_after_seconds: sent.resendAfterSeconds,
          ...(sent.defaultNip ? { default_nip: sent.defaultNip } : {}),
        },
      };
    },
  );

  app.put(
    '/v1/users/:id/:type/nip',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Confirma el NIP: registra la autorización y consulta el buró (422 si no es elegible)',
        security: [{ bearer: [] }],
        params: userParams,
        body: confirmNipBody,
        response: { 200: confirmNipResponse, ...errors },
      },
    },
    async (request) => {
      const user = await confirmConsentNip(app, await ownedUser(request, request.params.id), request.body.nip, {
        ...clientAddress(request),
        userAgent: request.headers['user-agent'],
        shownSha256: request.body.consent_sha256,
      });
      if (user.status === 'REJECTED') {
        throw notEligible('NOT_ELIGIBLE');
      }
      // An approval's amount travels with the answer: the pre-approval screen needs no request.
      const approved = user.nextStep === 'PASSWORD' && user.status === 'IN_PROGRESS';
      return {
        data: {
          ...(await stepAnswer(engineOf(app), user)),
          pre_approval: approved ? await latestApprovedDecision(app, user.id) : null,
        },
      };
    },
  );

  app.get(
    '/v1/users/:id/:type/consents',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Autorizaciones de consulta al buró del usuario',
        security: [{ bearer: [] }],
        params: userParams,
        response: {
          200: consentsResponse,
          ...errors,
        },
      },
    },
    async (request) => {
      const user = await ownedUser(request, request.params.id);
      const rows = await app.db
        .select()
        .from(bureauConsents)
        .where(eq(bureauConsents.userId, user.id))
        .orderBy(asc(bureauConsents.createdAt));
      return {
        data: rows.map((row) => ({
          id: row.id,
          person_type: row.personType,
          consent_version: row.consentVersion,
          consent_text: row.consentText,
          consent_text_sha256: row.consentTextSha256,
          created_at: row.createdAt.toISOString(),
          ip: row.ip,
          user_agent: row.userAgent,
          pin_verified: row.pinVerified,
          bureau_folio: row.bureauFolio,
          authorized_until: row.authorizedUntil.toISOString(),
        })),
      };
    },
  );

  app.put(
    '/v1/users/:id/:type/password',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Crea la contraseña de 6 dígitos (después de la pre-aprobación)',
        security: [{ bearer: [] }],
        params: userParams,
        body: passwordBody,
        response: { 200: stepAnswerSchema, ...errors, 503: errorResponseSchema },
      },
    },
    async (request) => {
      const user = await ownedUser(request, request.params.id);
      const engine = engineOf(app);
      await assertAt(engine, user, 'password');
      const { password, password_confirmation: confirmation = password } = request.body;
      const found = passwordErrors(password, confirmation, {
        dob: user.dobEncrypted ? app.cipher.decrypt(user.dobEncrypted) : undefined,
        phone: user.phoneE164.slice(-10),
      });
      if (Object.keys(found).length > 0) throw invalidFields(found);
      // Claimed before hashing: a duplicate is refused at once, without a second memory-hard hash.
      const claim = await claimStep(engine, user.id, 'password');
      let hash: string;
      try {
        hash = await app.passwords.hash(password);
      } catch (error) {
        await releaseClaim(engine, user.id, claim);
        throw error;
      }
      const { row } = await moveApplication(engine, {
        userId: user.id,
        transition: 'password',
        actor: `user:${user.id}`,
        claim,
        set: { passwordHash: hash, passwordSetAt: app.clock() },
      });
      return { data: await stepAnswer(engine, row) };
    },
  );

  app.post(
    '/v1/users/:id/:type/advisor-events',
    {
      preParsing: requireToken,
      schema: {
        summary: 'Cómo eligió continuar con un asesor',
        security: [{ bearer: [] }],
        params: userParams,
        body: advisorEventBody,
        response: { 201: advisorEventResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = await ownedUser(request, request.params.id);
      // Only a pre-approved application that set its password talks to an advisor.
      if (!isPastPassword({ next_step: user.nextStep, status: user.status })) {
        throw new StepConflict(
          await stepAnswer(engineOf(app), user),
          'STEP_NOT_CURRENT',
          'Tu solicitud aún no está lista para hablar con un asesor. Te llevamos a donde te quedaste.',
        );
      }
      const now = app.clock();
      await app.db.transaction(async (tx) => {
        await tx
          .insert(advisorEvents)
          .values({ userId: user.id, contactType: request.body.contact_type, createdAt: now });
        await appendAuditEvent(tx, {
          applicationId: user.id,
          actor: `user:${user.id}`,
          type: 'advisor.contact',
          payload: { contact_type: request.body.contact_type },
          at: now,
        });
      });
      return reply
        .status(201)
        .send({ data: { contact_type: request.body.contact_type, created_at: now.toISOString() } });
    },
  );
}
