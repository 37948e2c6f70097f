import {
  AVAL_TYPE_NAMES,
  EXTRA_ATTEMPTS_MAX,
  NEXT_STEPS,
  STEP_NAMES,
  type AddressReviewBody,
  type LenderDecisionBody,
  type NextStep,
  type PersonType,
  type RegisterGuarantorBody,
} from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { engineOf, StepConflict, stepAnswer, type SignerRow } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { findNeighborhoodPlace } from '../catalog/index.js';
import { BUREAU_QUERY_JOB, retryGivenUpBureauQuery } from '../credit/index.js';
import { avalView, findAval, inviteAval, registerAval } from '../guarantors/index.js';
import { addExtraAttempt, answerCheck, findCheckOfApplication, findSignerOfApplication } from '../identity/index.js';
import { issueContractLink, signingDeps } from '../signing/index.js';
import { lendingDeps, recordLenderDecision } from '../lending/index.js';
import { deliverMessage } from '../messaging/index.js';
import { findUserById, lockBusinessAddress, recordAddressReview, type UserRow } from '../users/index.js';
import { staffActor, type StaffRow } from '../staff/index.js';

/**
 * What a person at the lender can do to an application. Each action is recorded in the
 * application's audit chain with the staff member, in the same transaction as the change; where it
 * moves the application or a signer, it is a transition of the step engine.
 */
const conflict = (code: string, readable: string) => new AppError(409, code, code.toLowerCase(), readable);

export async function applicationUser(app: FastifyInstance, applicationId: string): Promise<UserRow> {
  const user = await findUserById(app.db, applicationId);
  if (!user) throw new AppError(404, 'APPLICATION_NOT_FOUND', 'application not found', 'No encontramos esa solicitud.');
  return user;
}

/** Where the application stands after an action, plus what the action made. */
async function answer(app: FastifyInstance, applicationId: string, result: Record<string, unknown>) {
  const user = await applicationUser(app, applicationId);
  const { next_step, status } = await stepAnswer(engineOf(app), user);
  return { next_step, status, result };
}

/**
 * Why a guarantor cannot be named where the application stands, in the words of the staff member
 * who tried: the step engine's refusal is worded for the shopkeeper's screen ('Te llevamos a donde
 * te quedaste'), which means nothing in the back office (issue 27).
 */
function guarantorNotNow(refusal: StepConflict, user: UserRow, avalType: RegisterGuarantorBody['aval_type']) {
  const current = (refusal.extra.current ?? {}) as { next_step?: string; status?: string };
  const step = (current.next_step ?? user.nextStep) as NextStep;
  const status = current.status ?? user.status;
  const where = `«${STEP_NAMES[step] ?? step}»`;
  const readable =
    status === 'REJECTED'
      ? 'No se puede registrar un aval: la solicitud fue rechazada.'
      : NEXT_STEPS.indexOf(step) < NEXT_STEPS.indexOf('INVENTORY')
        ? `Todavía no se puede registrar un aval: la solicitud está en ${where}. Se puede cuando el solicitante haya creado su contraseña (paso «Inventario»).`
        : `No se puede registrar un ${AVAL_TYPE_NAMES[avalType].toLowerCase()} en este momento: la solicitud está en ${where}. Se registra desde «Inventario», o cuando la solicitud pida otro.`;
  return new AppError(409, 'GUARANTOR_NOT_NOW', 'a guarantor cannot be named at this step', readable, refusal.extra);
}

export async function registerGuarantor(
  app: FastifyInstance,
  member: StaffRow,
  user: UserRow,
  body: RegisterGuarantorBody,
) {
  const { aval, invitation } = await registerAval(app, user, body, staffActor(member)).catch((error: unknown) => {
    throw error instanceof StepConflict ? guarantorNotNow(error, user, body.aval_type) : error;
  });
  // The invitation is a job of the naming's transaction: sent now, or again by the queue.
  await appendAuditEvent(app.db, {
    applicationId: user.id,
    actor: staffActor(member),
    type: 'guarantor.invitation_sent',
    payload: { aval_id: aval.id, aval_type: aval.avalType },
    at: app.clock(),
  });
  await deliverMessage(app, invitation);
  return answer(app, user.id, { aval: avalView(app, aval) });
}

/**
 * The invitation SMS (a new one, with a fresh link), for a guarantor who has not consented yet: a
 * job of the transaction that records the resend, tried at once and again while the provider fails.
 */
export async function sendInvitation(app: FastifyInstance, member: StaffRow, user: UserRow, avalId: string) {
  const found = await findAval(app.db, avalId);
  const aval = found?.userId === user.id ? found : undefined;
  if (!aval) throw new AppError(404, 'AVAL_NOT_FOUND', 'guarantor not found', 'No encontramos a este aval.');
  if (aval.status !== 'PENDING' || !aval.phoneE164)
    throw conflict('AVAL_NOT_PENDING', 'Este aval ya respondió o fue reemplazado: no necesita otra invitación.');
  await inviteAval(app, user, aval, (tx) =>
    appendAuditEvent(tx, {
      applicationId: user.id,
      actor: staffActor(member),
      type: 'guarantor.invitation_resent',
      payload: { aval_id: aval.id, aval_type: aval.avalType },
      at: app.clock(),
    }).then(() => undefined),
  );
  return answer(app, user.id, { aval_id: aval.id });
}

/**
 * A bureau query given up after its attempts is tried once more (its job, enqueued with the retry,
 * is taken at once); the attempt count goes on, so a failure gives up again and the analyst
 * decides when to retry.
 */
export async function retryBureau(app: FastifyInstance, member: StaffRow, user: UserRow) {
  const now = app.clock();
  const retried = await app.db.transaction(async (tx) => {
    const row = await retryGivenUpBureauQuery(tx, user.id, now);
    if (!row) return null;
    await appendAuditEvent(tx, {
      applicationId: user.id,
      actor: staffActor(member),
      type: 'bureau.retry_requested',
      payload: { query_id: row.id, last_error: row.lastError?.slice(0, 200) ?? null },
      at: now,
    });
    return row;
  });
  if (!retried) throw conflict('NOTHING_TO_RETRY', 'Esta solicitud no tiene una consulta al buró detenida.');
  app.jobs.wake(BUREAU_QUERY_JOB);
  return answer(app, user.id, { query_id: retried.id });
}

/** A neighbourhood the applicant typed ('Mi sector no aparece') is confirmed as typed or replaced by a catalogue one. */
export async function reviewAddress(app: FastifyInstance, member: StaffRow, user: UserRow, body: AddressReviewBody) {
  const now = app.clock();
  let correction: { name: string; zipCode: string | null; municipalityId: number; city: string; state: string } | null =
    null;
  if (body.action === 'correct') {
    const found = await findNeighborhoodPlace(app.db, body.neighborhood_id);
    if (!found) throw new AppError(404, 'NEIGHBORHOOD_NOT_FOUND', 'not found', 'Ese sector no está en el catálogo.');
    correction = found;
  }
  const reviewed = await app.db.transaction(async (tx) => {
    const before = await lockBusinessAddress(tx, user.id);
    if (!before?.neighborhoodTyped || before.neighborhoodReviewedAt) return null;
    await recordAddressReview(tx, user.id, {
      neighborhoodReviewedAt: now,
      neighborhoodReviewedBy: member.id,
      ...(correction
        ? {
            neighborhood: correction.name,
            zipCode: correction.zipCode ?? before.zipCode,
            municipalityId: correction.municipalityId,
            city: correction.city,
            state: correction.state,
            neighborhoodTyped: false,
          }
        : {}),
      updatedAt: now,
    });
    await appendAuditEvent(tx, {
      applicationId: user.id,
      actor: staffActor(member),
      type: correction ? 'address.corrected' : 'address.confirmed',
      payload: {
        // A keyed hash, not the text: the chain outlives an erasure, so it holds no applicant's address.
        typed_hash: app.cipher.lookupHash(before.neighborhood),
        ...(correction
          ? { neighborhood_id: body.action === 'correct' ? body.neighborhood_id : null, to: correction.name }
          : {}),
      },
      at: now,
    });
    return true;
  });
  if (!reviewed)
    throw conflict('NOTHING_TO_REVIEW', 'Esta dirección no tiene un sector escrito a mano pendiente de revisar.');
  return answer(app, user.id, { neighborhood: correction?.name ?? null });
}

export async function issueSigningLink(
  app: FastifyInstance,
  member: StaffRow,
  user: UserRow,
  body: { person_type: PersonType; aval_id?: string },
) {
  const link = await issueContractLink(signingDeps(app), user, body, staffActor(member));
  return answer(app, user.id, { link_id: link.link_id, signer_id: link.signer_id, expires_at: link.expires_at });
}

/** The lender's decision after PENDING_APPROVAL, recorded by an analyst (issue 30). */
export async function recordDecision(app: FastifyInstance, member: StaffRow, user: UserRow, body: LenderDecisionBody) {
  const { decision } = await recordLenderDecision(lendingDeps(app), user.id, body, staffActor(member));
  return answer(app, user.id, { lender_decision: decision });
}

/** A check the verifier sent to review, decided by an analyst (the signer's screen sees it on its next poll). */
export async function decideVerification(
  app: FastifyInstance,
  member: StaffRow,
  user: UserRow,
  verificationId: string,
  decision: { status: 'APPROVED' | 'REJECTED'; note: string },
) {
  const check = await findCheckOfApplication(app.db, verificationId, user.id);
  if (!check) throw new AppError(404, 'VERIFICATION_NOT_FOUND', 'not found', 'No encontramos esa verificación.');
  if (check.status !== 'UNDER_REVIEW')
    throw conflict('NOT_UNDER_REVIEW', 'Esta verificación no está en revisión: ya tiene una respuesta.');
  const outcome = await answerCheck(app, verificationId, decision.status, staffActor(member), {
    note: decision.note,
    staff_name: member.name,
  });
  if (outcome !== 'applied')
    throw conflict('NOT_UNDER_REVIEW', 'Esta verificación ya fue decidida o reemplazada por otra.');
  return answer(app, user.id, { verification_id: verificationId, status: decision.status });
}

/** Why a signer gets no extra attempt now (the guarded update below found nothing to change). */
function noExtraAttempt(app: FastifyInstance, signer: SignerRow | undefined): AppError {
  if (!signer) return new AppError(404, 'SIGNER_NOT_FOUND', 'not found', 'No encontramos a ese firmante.');
  if (signer.state === 'SIGNED') return conflict('ALREADY_SIGNED', 'Esta persona ya firmó: no necesita más intentos.');
  if (signer.verificationAttempts < app.config.IDENTITY_MAX_ATTEMPTS + signer.extraAttempts)
    return conflict(
      'ATTEMPTS_LEFT',
      'Esta persona todavía tiene intentos de verificación: podrás darle otro cuando los use todos.',
    );
  if (signer.extraAttempts >= EXTRA_ATTEMPTS_MAX)
    return conflict(
      'EXTRA_ATTEMPTS_LIMIT',
      `Esta persona ya recibió los ${EXTRA_ATTEMPTS_MAX} intentos adicionales permitidos.`,
    );
  if (signer.state === 'VERIFIED')
    return conflict('IDENTITY_VERIFIED', 'La identidad de esta persona ya fue aprobada: puede firmar.');
  return conflict(
    'VERIFICATION_UNDER_REVIEW',
    'Su última verificación está en revisión: decídela antes de dar otro intento.',
  );
}

/**
 * One more identity-verification attempt (issue 26): only for a signer with none left, once each
 * time they run out (the grant leaves one, so the next grant waits until it is used), at most
 * EXTRA_ATTEMPTS_MAX in all. The conditions are the update's own guard: grants sent at once change
 * the row once, the others find it changed (409).
 */
export async function grantExtraAttempt(
  app: FastifyInstance,
  member: StaffRow,
  user: UserRow,
  signerId: string,
  note: string,
) {
  const now = app.clock();
  const granted = await app.db.transaction(async (tx) => {
    const extraAttempts = await addExtraAttempt(tx, {
      signerId,
      userId: user.id,
      maxAttempts: app.config.IDENTITY_MAX_ATTEMPTS,
      extraMax: EXTRA_ATTEMPTS_MAX,
      now,
    });
    if (extraAttempts === null) return null;
    await appendAuditEvent(tx, {
      applicationId: user.id,
      actor: staffActor(member),
      type: 'identity.attempt_granted',
      // Free text may hold a name or a phone, and the audit trail outlives an erasure: it says a note came.
      payload: { signer_id: signerId, extra_attempts: extraAttempts, with_note: note.length > 0 },
      at: now,
    });
    return { extraAttempts };
  });
  if (!granted) {
    throw noExtraAttempt(app, await findSignerOfApplication(app.db, signerId, user.id));
  }
  return answer(app, user.id, { signer_id: signerId, extra_attempts: granted.extraAttempts });
}
