import { randomUUID } from 'node:crypto';
import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind, type VerificationType } from '@provee/domain';
import type { Executor, Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { simulatedAnswer } from '../../providers/identity/index.js';
import { engineOf, moveSigner, SignerConflict, type SignerRow } from '../application/index.js';
import { describeGuarantor } from '../guarantors/index.js';
import { enqueueJob } from '../jobs/index.js';
import { applicantKeys, applicantTaxId, findUserById } from '../users/index.js';
import { attemptLeft, documentHashes, findCheck, insertCheck, oneMoreAttempt, type CheckRow } from './checks.store.js';
import type { IdentityDeps } from './deps.js';

/**
 * Starting a check of the built-in widget, whichever way its photos came (the three in one
 * multipart request, or one at a time beforehand: photos.ts), and why a signer may not
 * start one. The signer moves only through the step engine (`moveSigner`), the attempt counted in
 * its guarded update.
 */

export const FORBIDDEN = new AppError(403, 'FORBIDDEN', 'forbidden', 'No tienes permiso para ver esta información.');
export const ALREADY_SIGNED = () =>
  new SignerConflict('SIGNED', 'SIGNER_SIGNED', 'Este contrato ya fue firmado con éxito.');
const UNDER_REVIEW = new AppError(
  409,
  'VERIFICATION_UNDER_REVIEW',
  'verification under review',
  'Tus documentos se están revisando. Te avisaremos cuando terminemos.',
);
const ATTEMPTS_EXHAUSTED = new AppError(
  409,
  'VERIFICATION_ATTEMPTS_EXHAUSTED',
  'no verification attempts left',
  'Agotaste los intentos de verificación.',
);

type ConfigDeps = Pick<IdentityDeps, 'config'>;

export const attemptsLeft = (deps: ConfigDeps, signer: SignerRow) =>
  deps.config.IDENTITY_MAX_ATTEMPTS + signer.extraAttempts - signer.verificationAttempts;

/** The states a check starts from ('verification-started', 'reverification-started'), with an attempt left. */
export const mayStartCheck = (deps: ConfigDeps, signer: SignerRow) =>
  ['AWAITING_VERIFICATION', 'VERIFICATION_REJECTED', 'VERIFYING', 'VERIFIED'].includes(signer.state) &&
  attemptsLeft(deps, signer) > 0;

/** Why a check cannot start for this signer, if it cannot. */
export function refuseCheck(deps: ConfigDeps, signer: SignerRow | undefined): AppError {
  if (!signer) return FORBIDDEN;
  if (signer.state === 'SIGNED') return ALREADY_SIGNED();
  if (signer.state === 'UNDER_REVIEW') return UNDER_REVIEW;
  if (attemptsLeft(deps, signer) <= 0) return ATTEMPTS_EXHAUSTED;
  return new SignerConflict(signer.state);
}

/** The documents come to this server only with the built-in widget (MetaMap's button sends them to MetaMap). */
export function requireBuiltinWidget(deps: ConfigDeps): void {
  if (deps.config.IDENTITY_PROVIDER !== 'simulator')
    throw new AppError(
      409,
      'IDENTITY_EXTERNAL',
      'documents go to the identity provider',
      'La verificación se hace con el botón de verificación de identidad.',
    );
}

/** The signer's tax id (the simulator answers from it). */
export async function signerTaxId(
  deps: Pick<IdentityDeps, 'db' | 'cipher' | 'config'>,
  signer: SignerRow,
): Promise<string | null> {
  if (!signer.avalId) {
    const user = await findUserById(deps.db, signer.userId);
    return user ? (applicantTaxId(await applicantKeys(deps, deps.db, user.id), user)?.canonical ?? null) : null;
  }
  return (await describeGuarantor(deps, signer.avalId))?.taxId?.canonical ?? null;
}

export type DocumentHashes = Partial<Record<IdentityDocumentKind, string>>;

/**
 * The signer's current check when it was started with exactly these photos (every kind, same
 * SHA-256: of the stored copy, or of the bytes the phone sent with `by: 'upload'`) and is still
 * running or approved: the same photos sent again. A camera never takes the same bytes twice, so
 * these are a re-sent request (its answer lost, a double tap), not a new try.
 */
export async function checkOfSamePhotos(
  db: Executor,
  signer: SignerRow,
  hashes: DocumentHashes,
  by: 'copy' | 'upload' = 'copy',
): Promise<CheckRow | null> {
  if (!signer.currentVerificationId || !['VERIFYING', 'VERIFIED'].includes(signer.state)) return null;
  const stored = await documentHashes(db, signer.currentVerificationId, by);
  const same =
    stored.length === IDENTITY_DOCUMENT_KINDS.length &&
    stored.every((doc) => doc.sha256 !== null && hashes[doc.kind as IdentityDocumentKind] === doc.sha256);
  if (!same) return null;
  return (await findCheck(db, signer.currentVerificationId)) ?? null;
}

export interface CheckAnswer {
  verification_id: string;
  verification_type: VerificationType;
  verifications_left: number;
}

/** The answer of photos that are the current check sent again: that check, no attempt counted. */
export const sameCheckAnswer = (deps: ConfigDeps, signer: SignerRow, check: CheckRow): CheckAnswer => ({
  verification_id: check.id,
  verification_type: check.verificationType as VerificationType,
  verifications_left: attemptsLeft(deps, signer),
});

class SamePhotos extends Error {
  constructor(readonly answer: CheckAnswer) {
    super('the current check has these photos');
  }
}

/** A stored copy's facts: kept with it and named in the audit event. */
export interface DocumentFacts {
  kind: IdentityDocumentKind;
  format: string;
  bytes: number;
  width: number;
  height: number;
  sha256: string;
}

export interface CheckDocuments {
  facts: DocumentFacts[];
  /** The current check, when it already has exactly these photos (a request sent again). */
  sameAs: (db: Executor, signer: SignerRow) => Promise<CheckRow | null>;
  /** Writes the new check's documents, in its transaction. */
  write: (tx: Tx, verificationId: string, now: Date) => Promise<void>;
}

/**
 * The verifier simulator's answer to one check: a job of the check's transaction, held back until
 * the answer is due (IDENTITY_SIMULATOR_DELAY_MS; answers.ts runs it).
 */
export const SIMULATED_ANSWER_JOB = 'identity-simulated-answer';

/**
 * A check of the built-in widget: the documents stored, the check started with the simulator, the
 * signer moved and the audit event written in one transaction. An attempt is counted only when the
 * check starts, inside the guarded update (parallel requests cannot pass IDENTITY_MAX_ATTEMPTS);
 * the current check's photos sent again answer that check (decided under the signer's lock, so
 * copies sent at once start one check).
 */
export async function startBuiltinCheck(
  deps: Pick<IdentityDeps, 'db' | 'clock' | 'config' | 'cipher'>,
  signer: SignerRow,
  documents: CheckDocuments,
): Promise<CheckAnswer> {
  if (!mayStartCheck(deps, signer)) {
    // The last attempt's photos sent again are that check, not a refusal.
    const current = await documents.sameAs(deps.db, signer);
    if (current) return sameCheckAnswer(deps, signer, current);
    throw refuseCheck(deps, signer);
  }
  const reverification = signer.state === 'VERIFIED';
  const verificationType: VerificationType = reverification ? 'REVERIFICATION' : 'VERIFICATION';
  const taxId = await signerTaxId(deps, signer);
  const answer = taxId ? simulatedAnswer(deps.config.COUNTRY, taxId) : 'APPROVED';
  const now = deps.clock();
  const verificationId = randomUUID();
  try {
    await moveSigner(engineOf(deps), {
      signerId: signer.id,
      transition: reverification ? 'reverification-started' : 'verification-started',
      to: 'VERIFYING',
      actor: `signer:${signer.id}`,
      guard: attemptLeft(deps.config.IDENTITY_MAX_ATTEMPTS),
      set: { verificationAttempts: oneMoreAttempt(), currentVerificationId: verificationId },
      prepare: async (tx, locked) => {
        const current = await documents.sameAs(tx, locked);
        if (current) throw new SamePhotos(sameCheckAnswer(deps, locked, current));
        return {};
      },
      conflict: (current) => refuseCheck(deps, current),
      write: async (tx) => {
        await insertCheck(tx, {
          id: verificationId,
          signerId: signer.id,
          provider: 'simulator',
          verificationType,
          status: 'PENDING',
          // A silent test identity never answers: nothing is due.
          answerDueAt: answer ? new Date(now.getTime() + deps.config.IDENTITY_SIMULATOR_DELAY_MS) : null,
          createdAt: now,
        });
        await documents.write(tx, verificationId, now);
        if (answer)
          await enqueueJob(
            tx,
            SIMULATED_ANSWER_JOB,
            { verification_id: verificationId },
            { startAfterSeconds: deps.config.IDENTITY_SIMULATOR_DELAY_MS / 1000 },
          );
      },
      event: {
        type: 'identity.check_started',
        payload: {
          verification_id: verificationId,
          verification_type: verificationType,
          provider: 'simulator',
          documents: documents.facts,
        },
      },
    });
  } catch (error) {
    if (error instanceof SamePhotos) return error.answer;
    throw error;
  }
  return {
    verification_id: verificationId,
    verification_type: verificationType,
    verifications_left: attemptsLeft(deps, signer) - 1,
  };
}
