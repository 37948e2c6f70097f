import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  formatCedula,
  fromE164,
  REVIEW_COUNTDOWN_SECONDS,
  SIGNER_STATE_OF,
  type ContractEvidence,
  type IdentityDocumentKind,
  type PersonType,
  type SignerState,
  type SigningLink,
  type VerificationStatus,
  type VerificationStatusAnswer,
} from '@provee/domain';
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientAddress } from '../../client-address.js';
import type { Executor, Tx } from '../../db/client.js';
import {
  auditEvents,
  avals,
  bureauConsents,
  businessAddresses,
  businesses,
  contractLinks,
  contracts,
  contractSigners,
  identityDocuments,
  identityPhotoUploads,
  identityVerifications,
  users,
} from '../../db/schema.js';
import { AppError, invalidFields } from '../../errors.js';
import { identityWidget, simulatedAnswer } from '../../providers/identity/index.js';
import { engineOf, moveSigner, SignerConflict, uniqueViolation, type SignerRow } from '../application/index.js';
import { appendAuditEvent, phoneAuditId } from '../audit/index.js';
import { latestApprovedDecision } from '../credit/index.js';
import { sendSms } from '../sms/index.js';
import type { UserRow } from '../users/index.js';
import {
  CONTRACT_TEMPLATE_VERSIONS,
  type ContractParty,
  type SignatureEvidence,
  type SignedParty,
} from './document/index.js';
import { answered } from './answer-signals.js';
import type { Encoded } from './decode.js';
import {
  ALREADY_SIGNED,
  attemptsLeft,
  checkOfSamePhotos,
  FORBIDDEN,
  mayStartCheck,
  refuseCheck,
  requireBuiltinWidget,
  signerTaxId,
  startBuiltinCheck,
  type DocumentHashes,
} from './identity-check.js';
import { identityPhotos, imageRefused, signatureImage } from './uploads.js';
import { newLinkToken, requireSigningLink, type LinkRow } from './link-token.js';

type ContractRow = typeof contracts.$inferSelect;
type AvalRow = typeof avals.$inferSelect;

const LINK_USED = new AppError(
  409,
  'LINK_USED',
  'link no longer valid',
  'Este enlace ya no es válido: el contrato debe firmarse desde un enlace nuevo. Pídelo a tu analista.',
);
const LINK_EXPIRED = new AppError(
  401,
  'LINK_EXPIRED',
  'link expired',
  'Este enlace ya venció: el contrato debe firmarse desde un enlace nuevo. Pídelo a tu analista.',
);

export const fullName = (user: Pick<UserRow, 'name' | 'lastname' | 'maternalLastname'>) =>
  [user.name, user.lastname, user.maternalLastname].filter(Boolean).join(' ');

/** The server's HMAC over a signer id, given to MetaMap's button and checked on its answers. */
export function signerProof(app: FastifyInstance, signerId: string): string {
  return createHmac('sha256', app.secrets.key('identity-metadata')).update(signerId).digest('base64url');
}

const baseUrl = (app: FastifyInstance) => app.config.PUBLIC_BASE_URL ?? `http://localhost:${app.config.PORT}`;

// ---------------------------------------------------------------------------------------------
// The contract document and its signers
// ---------------------------------------------------------------------------------------------

async function approvedAvals(app: FastifyInstance, userId: string): Promise<AvalRow[]> {
  return app.db
    .select()
    .from(avals)
    .where(and(eq(avals.userId, userId), eq(avals.status, 'APPROVED')))
    .orderBy(asc(avals.createdAt));
}

function shownTaxId(app: FastifyInstance, encrypted: string | null): string {
  if (!encrypted) return 'no disponible';
  const taxId = app.cipher.decrypt(encrypted);
  return app.config.COUNTRY === 'do' ? formatCedula(taxId) : taxId;
}

const shownPhone = (app: FastifyInstance, e164: string | null) => (e164 ? fromE164(app.config.COUNTRY, e164) : '');

/** The document's data: the parties, the business and the approved amount, as they stand now. */
async function documentInput(
  app: FastifyInstance,
  user: UserRow,
  decision: { amount: number; currency: string },
  guarantors: AvalRow[],
  contractId: string,
  issuedAt: Date,
) {
  const [business] = await app.db.select().from(businesses).where(eq(businesses.userId, user.id)).limit(1);
  const [address] = await app.db.select().from(businessAddresses).where(eq(businessAddresses.userId, user.id)).limit(1);
  const street = address
    ? [
        `${address.streetName} ${address.streetNumber}${address.apartmentNumber ? ` int. ${address.apartmentNumber}` : ''}`,
        address.neighborhood,
        address.city,
        address.state,
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  const guarantorParties: ContractParty[] = guarantors.map((aval) => ({
    name: aval.name ?? '',
    taxId: shownTaxId(app, aval.taxIdEncrypted),
    phone: shownPhone(app, aval.phoneE164),
    role: 'collateral',
    avalType: aval.avalType as 'PARTNER' | 'COLLATERAL',
  }));
  return {
    country: app.config.COUNTRY,
    contractId,
    issuedAt,
    lenderName: app.config.LENDER_NAME,
    titular: {
      name: fullName(user),
      taxId: shownTaxId(app, user.taxIdEncrypted),
      phone: shownPhone(app, user.phoneE164),
      role: 'titular' as const,
    },
    business: business ? { name: business.name, type: business.businessType, address: street } : null,
    amount: decision.amount,
    currency: decision.currency as 'DOP' | 'MXN',
    guarantors: guarantorParties,
  };
}

/**
 * The application's contract: drafted when the first link is issued, with the guarantors approved
 * by then. Re-drafted (new hash) for a guarantor approved later, but only while nobody has signed:
 * a signed document never changes (and the database refuses it).
 */
async function ensureContract(
  app: FastifyInstance,
  user: UserRow,
  decision: { amount: number; currency: string },
  mustInclude: string | null,
): Promise<ContractRow> {
  const [existing] = await app.db.select().from(contracts).where(eq(contracts.userId, user.id)).limit(1);
  if (existing && (!mustInclude || existing.avalIds.includes(mustInclude))) return existing;
  if (existing?.signedSha256) throw signedWithout();
  const guarantors = await approvedAvals(app, user.id);
  const now = app.clock();
  const id = existing?.id ?? randomUUID();
  // Built on a worker thread (decision 021), before the transaction.
  const { pdf, sha256 } = await app.pdfRenderer.unsigned(await documentInput(app, user, decision, guarantors, id, now));
  const values = {
    country: app.config.COUNTRY,
    templateVersion: CONTRACT_TEMPLATE_VERSIONS[app.config.COUNTRY],
    amount: decision.amount,
    currency: decision.currency,
    avalIds: guarantors.map((aval) => aval.id),
    unsignedPdf: sealContractPdf(app, pdf),
    unsignedSha256: sha256,
    updatedAt: now,
  };
  const saved = await app.db.transaction(async (tx) => {
    const [row] = existing
      ? await tx
          .update(contracts)
          .set(values)
          .where(and(eq(contracts.id, existing.id), isNull(contracts.signedSha256)))
          .returning()
      : await tx
          .insert(contracts)
          .values({ ...values, id, userId: user.id, createdAt: now })
          .onConflictDoNothing({ target: contracts.userId })
          .returning();
    if (!row) return null;
    await appendAuditEvent(tx, {
      applicationId: user.id,
      actor: 'system',
      type: existing ? 'contract.redrafted' : 'contract.drafted',
      payload: {
        contract_id: row.id,
        template_version: row.templateVersion,
        unsigned_sha256: row.unsignedSha256,
        amount: row.amount,
        currency: row.currency,
        aval_ids: row.avalIds,
      },
      at: now,
    });
    return row;
  });
  if (saved) return saved;
  // Someone drafted or signed it meanwhile: start again from what is there now.
  const [current] = await app.db.select().from(contracts).where(eq(contracts.userId, user.id)).limit(1);
  if (current && (!mustInclude || current.avalIds.includes(mustInclude))) return current;
  throw signedWithout();
}

const signedWithout = () =>
  new AppError(
    409,
    'CONTRACT_ALREADY_SIGNED',
    'contract signed without this guarantor',
    'El contrato ya tiene firmas y este aval no aparece en él. Se necesita un contrato nuevo.',
  );

async function ensureSigner(
  app: FastifyInstance,
  contract: ContractRow,
  who: { personType: PersonType; aval: AvalRow | null; name: string; phoneE164: string },
): Promise<SignerRow> {
  const find = () =>
    app.db
      .select()
      .from(contractSigners)
      .where(
        and(
          eq(contractSigners.contractId, contract.id),
          who.aval ? eq(contractSigners.avalId, who.aval.id) : eq(contractSigners.personType, 'titular'),
        ),
      )
      .limit(1);
  const [existing] = await find();
  if (existing) return existing;
  const now = app.clock();
  const created = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contractSigners)
      .values({
        contractId: contract.id,
        userId: contract.userId,
        personType: who.personType,
        avalId: who.aval?.id ?? null,
        name: who.name,
        phoneE164: who.phoneE164,
        state: 'AWAITING_VERIFICATION',
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    await appendAuditEvent(tx, {
      applicationId: contract.userId,
      actor: 'system',
      type: 'signer.added',
      payload: { signer_id: row.id, person_type: row.personType, aval_id: row.avalId, contract_id: contract.id },
      at: now,
    });
    return row;
  });
  return created ?? (await find())[0]!;
}

// ---------------------------------------------------------------------------------------------
// Signing links
// ---------------------------------------------------------------------------------------------

export interface LinkRequest {
  person_type: PersonType;
  aval_id?: string | undefined;
}

/**
 * A signing link for the shopkeeper or an approved guarantor, sent by SMS. A new link replaces the
 * signer's earlier ones (they stop working at once); the issue is in the audit trail.
 */
export async function issueContractLink(app: FastifyInstance, user: UserRow, input: LinkRequest, actor: string) {
  const decision = await latestApprovedDecision(app, user.id);
  if (!decision || user.status === 'REJECTED')
    throw new AppError(
      409,
      'CONTRACT_NOT_READY',
      'no approved credit',
      'Este comercio aún no tiene un crédito aprobado para firmar.',
    );
  let aval: AvalRow | null = null;
  if (input.person_type === 'collateral') {
    if (!input.aval_id) throw invalidFields({ aval_id: '* Indica el aval que firmará.' });
    [aval = null] = await app.db
      .select()
      .from(avals)
      .where(and(eq(avals.id, input.aval_id), eq(avals.userId, user.id)))
      .limit(1);
    if (!aval) throw new AppError(404, 'AVAL_NOT_FOUND', 'guarantor not found', 'No encontramos a este aval.');
    if (aval.status !== 'APPROVED' || !aval.phoneE164)
      throw new AppError(409, 'AVAL_NOT_APPROVED', 'guarantor not approved', 'Este aval aún no ha sido aprobado.');
  }
  const contract = await ensureContract(app, user, decision, aval?.id ?? null);
  const signer = await ensureSigner(app, contract, {
    personType: input.person_type,
    aval,
    name: aval ? (aval.name ?? '') : fullName(user),
    phoneE164: aval ? aval.phoneE164! : user.phoneE164,
  });
  if (signer.state === 'SIGNED') throw ALREADY_SIGNED();

  const now = app.clock();
  const expiresAt = new Date(now.getTime() + app.config.CONTRACT_LINK_TTL_SECONDS * 1000);
  // Opaque and stored hashed (link-token.ts): the SMS is the only place the token is ever written.
  const token = newLinkToken();
  const link = await app.db.transaction(async (tx) => {
    // The signer's row first, as a signature locks it: issuing and signing at once cannot deadlock.
    const [locked] = await tx.select().from(contractSigners).where(eq(contractSigners.id, signer.id)).for('update');
    if (locked?.state === 'SIGNED') throw ALREADY_SIGNED();
    await tx
      .update(contractLinks)
      .set({ revokedAt: now })
      .where(
        and(
          eq(contractLinks.signerId, signer.id),
          eq(contractLinks.purpose, 'sign'),
          isNull(contractLinks.usedAt),
          isNull(contractLinks.revokedAt),
        ),
      );
    const [row] = await tx
      .insert(contractLinks)
      .values({ signerId: signer.id, issuedBy: actor, tokenSha256: token.sha256, expiresAt, createdAt: now })
      .returning();
    await appendAuditEvent(tx, {
      applicationId: user.id,
      actor,
      type: 'contract.link_issued',
      payload: {
        link_id: row!.id,
        signer_id: signer.id,
        person_type: signer.personType,
        aval_id: signer.avalId,
        expires_at: expiresAt.toISOString(),
      },
      at: now,
    });
    return row!;
  });
  const query = new URLSearchParams({
    user_type_id: 'SK',
    user_id: user.id,
    titular_full_name: fullName(user),
    type: signer.personType,
    collateral_full_name: signer.personType === 'collateral' ? signer.name : '',
    token: token.token,
  });
  const url = `${baseUrl(app)}/send-contract-sign?${query.toString()}`;
  await sendSms(
    app,
    signer.phoneE164,
    `${app.config.APP_NAME}: tu contrato de crédito está listo para firmar. Verifica tu identidad y firma aquí: ${url}`,
  );
  return {
    link_id: link.id,
    signer_id: signer.id,
    person_type: signer.personType as PersonType,
    url,
    expires_at: expiresAt.toISOString(),
  };
}

export interface SignerAccess {
  link: LinkRow;
  signer: SignerRow;
}

/**
 * The signer of a call: the link its token names (link-token.ts; the route's onRequest hook found
 * it, or a 401), for this user. Signing calls need the signing link unused, unreplaced and
 * unexpired; reading the contract and its evidence (`readOnly`) works with a used link, or the
 * signed copy's link, until it expires.
 */
export async function signerAccess(
  request: FastifyRequest,
  userId: string,
  options: { personType?: PersonType; readOnly?: boolean } = {},
): Promise<SignerAccess> {
  const app = request.server;
  const link = await requireSigningLink(request);
  const [signer] = await app.db.select().from(contractSigners).where(eq(contractSigners.id, link.signerId)).limit(1);
  if (!signer || signer.userId !== userId) throw FORBIDDEN;
  if (options.personType && options.personType !== signer.personType) throw FORBIDDEN;
  // A replaced link stops at once, even for reading; a used one (the signature) still opens the copy.
  if (link.revokedAt) throw LINK_USED;
  if (link.expiresAt.getTime() <= app.clock().getTime()) throw LINK_EXPIRED;
  if (!options.readOnly) {
    if (signer.state === 'SIGNED') throw ALREADY_SIGNED();
    if (link.usedAt || link.purpose !== 'sign') throw LINK_USED;
  }
  return { link, signer };
}

// ---------------------------------------------------------------------------------------------
// Identity verification
// ---------------------------------------------------------------------------------------------

/**
 * SPEC §3 verification status: the current check's answer (null while none), attempts left,
 * identity id; and which check that is, with the seconds left of its review countdown (issue 27:
 * SPEC §4's 300 s from the check's start, by the server's clock).
 */
export async function verificationStatus(app: FastifyInstance, signer: SignerRow): Promise<VerificationStatusAnswer> {
  let status: VerificationStatus | null = null;
  let secondsLeft: number | null = null;
  if (signer.currentVerificationId) {
    const [check] = await app.db
      .select({ status: identityVerifications.status, createdAt: identityVerifications.createdAt })
      .from(identityVerifications)
      .where(eq(identityVerifications.id, signer.currentVerificationId))
      .limit(1);
    status = check && check.status !== 'PENDING' ? (check.status as VerificationStatus) : null;
    if (check) {
      const elapsed = (app.clock().getTime() - check.createdAt.getTime()) / 1000;
      secondsLeft = Math.max(0, Math.min(REVIEW_COUNTDOWN_SECONDS, Math.ceil(REVIEW_COUNTDOWN_SECONDS - elapsed)));
    }
  }
  return {
    status,
    verifications_left: attemptsLeft(app, signer),
    mati_identity_id: signer.identityId,
    verification_id: signer.currentVerificationId,
    review_seconds_left: secondsLeft,
  };
}

export async function linkView(app: FastifyInstance, access: SignerAccess): Promise<SigningLink> {
  const { signer, link } = access;
  const [user] = await app.db.select().from(users).where(eq(users.id, signer.userId)).limit(1);
  const [contract] = await app.db
    .select({ unsignedSha256: contracts.unsignedSha256 })
    .from(contracts)
    .where(eq(contracts.id, signer.contractId));
  return {
    user_id: signer.userId,
    user_type_id: 'SK',
    person_type: signer.personType as PersonType,
    signer_name: signer.name,
    titular_full_name: user ? fullName(user) : '',
    collateral_full_name: signer.personType === 'collateral' ? signer.name : '',
    state: signer.state as SignerState,
    verification: await verificationStatus(app, signer),
    widget: identityWidget(app.config, {
      userId: signer.userId,
      signerId: signer.id,
      personType: signer.personType as PersonType,
      identityId: signer.identityId,
      proof: signerProof(app, signer.id),
    }),
    document_sha256: contract?.unsignedSha256 ?? '',
    expires_at: link.expiresAt.toISOString(),
  };
}

/**
 * The built-in widget's three photos in one request (multipart): checked by content (JPEG, PNG or
 * WebP; 8 MB and 40 megapixels at most), decoded in full and kept as the product's own JPEG copy
 * (uploads.ts, decision 021), stored encrypted, and a check started (identity-check.ts). The
 * photos of the current check sent again answer that check: the copies are encoded the same way
 * every time, so the same photos give the same copies and hashes. The widget itself sends its
 * photos one at a time as they are taken (identity-photos.ts, decision 024).
 */
export async function submitDocuments(
  app: FastifyInstance,
  signer: SignerRow,
  files: Partial<Record<IdentityDocumentKind, Buffer>>,
) {
  requireBuiltinWidget(app);
  const decoded = await identityPhotos(app, files);
  if (!decoded.ok) {
    if (!mayStartCheck(app, signer)) throw refuseCheck(app, signer);
    throw imageRefused(decoded.errors);
  }
  const documents = decoded.photos;
  const facts = documents.map((doc) => ({
    kind: doc.kind,
    format: doc.format,
    bytes: doc.bytes.length,
    width: doc.width,
    height: doc.height,
    sha256: doc.sha256,
  }));
  const hashes: DocumentHashes = Object.fromEntries(documents.map((photo) => [photo.kind, photo.sha256]));
  return startBuiltinCheck(app, signer, {
    facts,
    sameAs: (db, current) => checkOfSamePhotos(db, current, hashes),
    write: async (tx, verificationId, now) => {
      await tx.insert(identityDocuments).values(
        documents.map((doc, i) => ({
          ...facts[i]!,
          verificationId,
          dataEncrypted: app.cipher.encryptBytes(doc.bytes),
          createdAt: now,
        })),
      );
    },
  });
}

/**
 * A check started by an external provider (MetaMap's webhook), idempotent on the provider's id:
 * the same start delivered twice counts once. `within` runs in the start's transaction (the
 * webhook records its delivery there).
 */
export async function startExternalCheck(
  app: FastifyInstance,
  signer: SignerRow,
  provider: string,
  providerVerificationId: string,
  identityId: string | null,
  payload: Record<string, unknown>,
  within?: (tx: Tx) => Promise<void>,
): Promise<'started' | 'duplicate' | 'refused'> {
  const [known] = await app.db
    .select({ id: identityVerifications.id })
    .from(identityVerifications)
    .where(eq(identityVerifications.providerVerificationId, providerVerificationId))
    .limit(1);
  if (known) return 'duplicate';
  const reverification = signer.state === 'VERIFIED';
  const verificationId = randomUUID();
  const now = app.clock();
  try {
    await moveSigner(engineOf(app), {
      signerId: signer.id,
      transition: reverification ? 'reverification-started' : 'verification-started',
      to: 'VERIFYING',
      actor: `provider:${provider}`,
      guard: sql`${contractSigners.verificationAttempts} < ${app.config.IDENTITY_MAX_ATTEMPTS} + ${contractSigners.extraAttempts}`,
      set: {
        verificationAttempts: sql`${contractSigners.verificationAttempts} + 1` as unknown as number,
        currentVerificationId: verificationId,
        ...(identityId ? { identityId } : {}),
      },
      conflict: (current) => refuseCheck(app, current),
      write: async (tx) => {
        await tx.insert(identityVerifications).values({
          id: verificationId,
          signerId: signer.id,
          provider,
          verificationType: reverification ? 'REVERIFICATION' : 'VERIFICATION',
          status: 'PENDING',
          providerVerificationId,
          identityId,
          answer: payload,
          createdAt: now,
        });
        await within?.(tx);
      },
      event: {
        type: 'identity.check_started',
        payload: { verification_id: verificationId, provider, provider_verification_id: providerVerificationId },
      },
    });
    return 'started';
  } catch (error) {
    if (error instanceof AppError) return 'refused';
    // The same start delivered twice at once: the other delivery recorded it.
    if (uniqueViolation(error) !== null) return 'duplicate';
    throw error;
  }
}

/**
 * The verifier's answer (simulator, webhook or, later, a person at the lender), or the decision on
 * a check under review. Moves the signer only if this is still the signer's current check; an
 * answer for a superseded check is recorded on the check alone. `within` runs in the transaction
 * that records the answer (the webhook records its delivery there).
 */
export async function answerCheck(
  app: FastifyInstance,
  verificationId: string,
  status: VerificationStatus,
  by: string,
  answer: Record<string, unknown>,
  identityId: string | null = null,
  within?: (tx: Tx) => Promise<void>,
): Promise<'applied' | 'superseded' | 'already' | 'unknown'> {
  const [check] = await app.db
    .select()
    .from(identityVerifications)
    .where(eq(identityVerifications.id, verificationId))
    .limit(1);
  if (!check) return 'unknown';
  // A check sent to review is decided once more, by a person (the provider's dashboard or, later,
  // the back office); any other answered check is final.
  const reviewed = check.status === 'UNDER_REVIEW' && status !== 'UNDER_REVIEW';
  if (check.status !== 'PENDING' && !reviewed) return 'already';
  const now = app.clock();
  const record = (tx: Tx) =>
    tx
      .update(identityVerifications)
      .set({ status, answeredAt: now, answeredBy: by, answer, ...(identityId ? { identityId } : {}) })
      .where(and(eq(identityVerifications.id, verificationId), eq(identityVerifications.status, check.status)))
      .returning({ id: identityVerifications.id });
  try {
    await moveSigner(engineOf(app), {
      signerId: check.signerId,
      transition: reviewed ? 'review-decided' : 'verification-answered',
      to: SIGNER_STATE_OF[status],
      actor: by,
      currentVerificationId: verificationId,
      set: { lastVerificationStatus: status, ...(identityId ? { identityId } : {}) },
      write: async (tx) => {
        const [recorded] = await record(tx);
        if (!recorded) throw new SignerConflict(null);
        await within?.(tx);
      },
      event: {
        type: reviewed ? 'identity.review_decided' : 'identity.answered',
        payload: { verification_id: verificationId, status },
      },
    });
    // Committed: a review screen waiting on this signer answers now (status-wait.ts).
    answered(check.signerId);
    return 'applied';
  } catch (error) {
    if (!(error instanceof SignerConflict)) throw error;
  }
  return app.db.transaction(async (tx) => {
    const [recorded] = await record(tx);
    if (!recorded) return 'already';
    await within?.(tx);
    const [signer] = await tx
      .select({ userId: contractSigners.userId })
      .from(contractSigners)
      .where(eq(contractSigners.id, check.signerId));
    await appendAuditEvent(tx, {
      applicationId: signer!.userId,
      actor: by,
      type: 'identity.answer_superseded',
      payload: { verification_id: verificationId, signer_id: check.signerId, status },
      at: now,
    });
    return 'superseded';
  });
}

/** The simulator's answers that are due (the identity worker; tests call it by hand). */
export async function answerDueSimulatedChecks(app: FastifyInstance, limit = 20): Promise<number> {
  const due = await app.db
    .select({ id: identityVerifications.id, signerId: identityVerifications.signerId })
    .from(identityVerifications)
    .where(
      and(
        eq(identityVerifications.status, 'PENDING'),
        eq(identityVerifications.provider, 'simulator'),
        lte(identityVerifications.answerDueAt, app.clock()),
      ),
    )
    .orderBy(asc(identityVerifications.answerDueAt))
    .limit(limit);
  for (const check of due) {
    const [signer] = await app.db.select().from(contractSigners).where(eq(contractSigners.id, check.signerId));
    const taxId = signer ? await signerTaxId(app, signer) : null;
    const status = taxId ? simulatedAnswer(app.config.COUNTRY, taxId) : 'APPROVED';
    if (!status) continue;
    await answerCheck(app, check.id, status, 'provider:simulator', { simulated: true }, `sim-${check.signerId}`);
  }
  return due.length;
}

// ---------------------------------------------------------------------------------------------
// The signature
// ---------------------------------------------------------------------------------------------

/** What a browser's position holds (GeolocationCoordinates and its timestamp): numbers only. */
const GEOLOCATION_KEYS = [
  'latitude',
  'longitude',
  'accuracy',
  'altitude',
  'altitudeAccuracy',
  'heading',
  'speed',
  'timestamp',
];

function geolocationOf(metadata: string): Record<string, number | null> | null {
  if (!metadata.trim()) return null;
  const refused = invalidFields({ metadata: 'La ubicación enviada no es válida.' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    throw refused;
  }
  if (parsed === null) return null;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw refused;
  const position: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!GEOLOCATION_KEYS.includes(key)) throw refused;
    if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) throw refused;
    position[key] = value;
  }
  return position;
}

/** When the signer's phone was proven: the shopkeeper's code, or the guarantor's PIN or message. */
async function phoneProof(app: FastifyInstance, tx: Executor, signer: SignerRow) {
  if (signer.avalId) {
    const [consent] = await tx
      .select({ at: bureauConsents.createdAt, folio: bureauConsents.bureauFolio })
      .from(bureauConsents)
      .where(eq(bureauConsents.avalId, signer.avalId))
      .orderBy(desc(bureauConsents.createdAt))
      .limit(1);
    return { phoneVerifiedAt: consent?.at ?? null, consentFolio: consent?.folio ?? null };
  }
  const [proof] = await tx
    .select({ at: auditEvents.createdAt })
    .from(auditEvents)
    .where(
      and(eq(auditEvents.applicationId, phoneAuditId(app, signer.phoneE164)), eq(auditEvents.type, 'phone.proven')),
    )
    .orderBy(desc(auditEvents.id))
    .limit(1);
  const [consent] = await tx
    .select({ folio: bureauConsents.bureauFolio })
    .from(bureauConsents)
    .where(and(eq(bureauConsents.userId, signer.userId), isNull(bureauConsents.avalId)))
    .orderBy(desc(bureauConsents.createdAt))
    .limit(1);
  return { phoneVerifiedAt: proof?.at ?? null, consentFolio: consent?.folio ?? null };
}

/** What a signer's evidence records (stored as JSON with the signature; printed on the evidence page). */
interface StoredEvidence {
  contract_id: string;
  link_id: string;
  template_version: string;
  signed_at: string;
  /** The client's address as trusted; the connection's own and X-Forwarded-For as received (issue 26). */
  ip: string;
  peer_ip?: string | null;
  forwarded_for?: string | null;
  user_agent: string | null;
  geolocation: Record<string, unknown> | null;
  phone_verified_at: string | null;
  consent_folio: string | null;
  verification: { id: string; provider: string; status: string; identity_id: string | null } | null;
  unsigned_sha256: string;
  signature_sha256: string;
}

function documentEvidence(evidence: StoredEvidence): SignatureEvidence {
  return {
    signedAt: new Date(evidence.signed_at),
    ip: evidence.ip,
    peerIp: evidence.peer_ip ?? null,
    forwardedFor: evidence.forwarded_for ?? null,
    userAgent: evidence.user_agent,
    geolocation: evidence.geolocation,
    phoneVerifiedAt: evidence.phone_verified_at ? new Date(evidence.phone_verified_at) : null,
    consentFolio: evidence.consent_folio,
    verification: evidence.verification
      ? {
          id: evidence.verification.id,
          provider: evidence.verification.provider,
          status: evidence.verification.status,
          identityId: evidence.verification.identity_id,
        }
      : null,
    unsignedSha256: evidence.unsigned_sha256,
    signatureSha256: evidence.signature_sha256,
  };
}

const slotOf = (contract: ContractRow, signer: SignerRow) =>
  signer.avalId ? 1 + contract.avalIds.indexOf(signer.avalId) : 0;

type CheckRow = typeof identityVerifications.$inferSelect;
type PhoneProof = Awaited<ReturnType<typeof phoneProof>>;
/** This signature's record, from the contract, the identity check and the phone proof as read. */
type EvidenceOf = (contract: ContractRow, check: CheckRow | undefined, proof: PhoneProof) => StoredEvidence;

/** A signed PDF built before the signing transaction, with what it shows (checked again there). */
interface SignedDraft {
  /** The record printed for this signer (JSON). */
  evidence: string;
  /** The signatures already in the document. */
  signedBefore: string;
  pdf: Uint8Array;
  sha256: string;
}

/** The document changed between its draft and the transaction (another signer signed): build it again. */
class DraftOutdated extends Error {
  constructor() {
    super('the signed contract was drafted from what has changed since');
  }
}

const DRAFT_ATTEMPTS = 3;
const CONTRACT_BUSY = () =>
  new AppError(
    503,
    'CONTRACT_BUSY',
    'others signing the contract at the same time',
    'Otra persona está firmando este contrato en este momento. Intenta de nuevo en unos segundos.',
    { retry_after_seconds: 2 },
  );

/** The contract's signers who have signed, and a key that changes when any of them does. */
async function signedSigners(db: Executor, contractId: string) {
  const rows = await db
    .select()
    .from(contractSigners)
    .where(and(eq(contractSigners.contractId, contractId), eq(contractSigners.state, 'SIGNED')));
  return { rows, key: rows.map((one) => `${one.id}:${one.signatureSha256}`).join(',') };
}

/**
 * The signed PDF as it will be once this signer signs: every signature so far plus this one, built
 * on a worker thread (decision 021) outside any transaction. A build takes 10–400 ms; a
 * transaction held that long would hold the contract row (PostgreSQL) or the whole embedded
 * database (PGlite). Null when the signer cannot sign now: the transaction gives the refusal.
 */
async function draftSignedContract(
  app: FastifyInstance,
  signerId: string,
  signature: Encoded,
  documentSha256: string | undefined,
  evidenceOf: EvidenceOf,
  signedAt: Date,
): Promise<SignedDraft | null> {
  const [signer] = await app.db.select().from(contractSigners).where(eq(contractSigners.id, signerId)).limit(1);
  if (signer?.state !== 'VERIFIED') return null;
  const [contract] = await app.db.select().from(contracts).where(eq(contracts.id, signer.contractId)).limit(1);
  if (!contract || (documentSha256 && documentSha256 !== contract.unsignedSha256)) return null;
  const [check] = signer.currentVerificationId
    ? await app.db
        .select()
        .from(identityVerifications)
        .where(eq(identityVerifications.id, signer.currentVerificationId))
    : [];
  const evidence = evidenceOf(contract, check, await phoneProof(app, app.db, signer));
  const before = await signedSigners(app.db, contract.id);
  // Signed meanwhile (the same signature sent twice at once): the transaction refuses it.
  if (before.rows.some((one) => one.id === signer.id)) return null;
  const party = (one: SignerRow, signaturePng: Uint8Array, record: StoredEvidence): SignedParty => ({
    slot: slotOf(contract, one),
    name: one.name,
    personType: one.personType as PersonType,
    signaturePng,
    evidence: documentEvidence(record),
  });
  const { pdf, sha256 } = await app.pdfRenderer.signed(
    openContractPdf(app, contract.unsignedPdf),
    [
      ...before.rows.map((one) =>
        party(one, app.cipher.decryptBytes(one.signaturePngEncrypted!), one.evidence as unknown as StoredEvidence),
      ),
      party(signer, signature.bytes, evidence),
    ],
    signedAt,
  );
  return { evidence: JSON.stringify(evidence), signedBefore: before.key, pdf, sha256 };
}

/**
 * The handwritten signature (SPEC §3, §4). After an APPROVED check only, once. The signature is
 * decoded and encoded again off the event loop (uploads.ts); the signed PDF is built with every
 * signature so far before the transaction (draftSignedContract). Then in ONE transaction with the
 * contract row locked: the draft is checked to show what the record holds now (else it is built
 * again), the signer's move with its evidence, the link marked used, the signed PDF and its
 * SHA-256 stored, and the audit event. Then the signed copy's link goes to the signer's phone.
 */
export async function signContract(
  app: FastifyInstance,
  access: SignerAccess,
  body: { signature: string; metadata?: string | undefined; document_sha256?: string | undefined },
  from: ClientAddress & { userAgent: string | undefined },
) {
  const { signer, link } = access;
  const signature = await signatureImage(app, body.signature);
  const geolocation = geolocationOf(body.metadata ?? '');
  const signatureSha256 = signature.sha256;
  const now = app.clock();
  const evidenceOf: EvidenceOf = (contract, check, proof) => ({
    contract_id: contract.id,
    link_id: link.id,
    template_version: contract.templateVersion,
    signed_at: now.toISOString(),
    ip: from.ip,
    peer_ip: from.peerIp,
    forwarded_for: from.forwardedFor,
    user_agent: from.userAgent?.slice(0, 512) ?? null,
    geolocation,
    phone_verified_at: proof.phoneVerifiedAt?.toISOString() ?? null,
    consent_folio: proof.consentFolio,
    verification: check
      ? { id: check.id, provider: check.provider, status: check.status, identity_id: check.identityId }
      : null,
    unsigned_sha256: contract.unsignedSha256,
    signature_sha256: signatureSha256,
  });
  let moved: { signer: SignerRow; result: { contractId: string; contractSha256: string } } | undefined;
  for (let attempt = 1; !moved; attempt += 1) {
    const draft = await draftSignedContract(app, signer.id, signature, body.document_sha256, evidenceOf, now);
    try {
      moved = await moveSigner(engineOf(app), {
        signerId: signer.id,
        transition: 'signed',
        to: 'SIGNED',
        actor: `signer:${signer.id}`,
        conflict: (current) =>
          current?.state === 'SIGNED'
            ? ALREADY_SIGNED()
            : new AppError(
                409,
                'IDENTITY_NOT_VERIFIED',
                'identity not verified',
                'Primero debemos aprobar tu identidad para que puedas firmar.',
              ),
        prepare: async (tx, locked) => {
          const [contract] = await tx.select().from(contracts).where(eq(contracts.id, locked.contractId)).for('update');
          // The signer read one document; if it was redrafted since (a guarantor added), they read again.
          if (body.document_sha256 && body.document_sha256 !== contract!.unsignedSha256)
            throw new AppError(
              409,
              'CONTRACT_CHANGED',
              'contract changed since it was shown',
              'Tu contrato se actualizó. Vuelve a abrir tu enlace para leer la versión nueva antes de firmar.',
            );
          const [check] = locked.currentVerificationId
            ? await tx
                .select()
                .from(identityVerifications)
                .where(eq(identityVerifications.id, locked.currentVerificationId))
            : [];
          const evidence = evidenceOf(contract!, check, await phoneProof(app, tx, locked));
          // The draft must show this very record and the signatures there are now.
          const signedBefore = (await signedSigners(tx, contract!.id)).key;
          if (draft?.evidence !== JSON.stringify(evidence) || draft.signedBefore !== signedBefore)
            throw new DraftOutdated();
          return {
            signaturePngEncrypted: app.cipher.encryptBytes(signature.bytes),
            signatureSha256,
            signedAt: now,
            evidence: evidence as unknown as Record<string, unknown>,
          };
        },
        write: async (tx, signed) => {
          const [used] = await tx
            .update(contractLinks)
            .set({ usedAt: now })
            .where(and(eq(contractLinks.id, link.id), isNull(contractLinks.usedAt), isNull(contractLinks.revokedAt)))
            .returning({ id: contractLinks.id });
          if (!used) throw LINK_USED;
          // No check starts after the signature: photos sent for one are not kept (personal data).
          await tx.delete(identityPhotoUploads).where(eq(identityPhotoUploads.signerId, signer.id));
          const { pdf, sha256 } = draft!;
          await tx
            .update(contracts)
            .set({ signedPdf: sealContractPdf(app, pdf), signedSha256: sha256, updatedAt: now })
            .where(eq(contracts.id, signed.contractId));
          return { contractId: signed.contractId, contractSha256: sha256 };
        },
        event: {
          type: 'contract.signed',
          payload: (written) => ({
            contract_id: written.contractId,
            link_id: link.id,
            signature_sha256: signatureSha256,
            contract_sha256: written.contractSha256,
            ip: from.ip,
          }),
        },
      });
    } catch (error) {
      if (!(error instanceof DraftOutdated)) throw error;
      if (attempt >= DRAFT_ATTEMPTS) throw CONTRACT_BUSY();
    }
  }
  const { signer: signed, result } = moved;
  try {
    await sendCopy(app, signed);
  } catch (error) {
    // The signature stands; the copy can be sent again from the back office.
    app.log.error({ err: error, signerId: signed.id }, 'signed contract copy not sent');
    await appendAuditEvent(app.db, {
      applicationId: signed.userId,
      actor: 'system',
      type: 'contract.copy_not_sent',
      payload: { signer_id: signed.id },
      at: app.clock(),
    });
  }
  return {
    person_type: signed.personType as PersonType,
    signed_at: now.toISOString(),
    contract_sha256: result.contractSha256,
  };
}

/**
 * SPEC §2.4: "a copy of the digital contract will be sent to the phone": an SMS with the PDF's link,
 * a link of its own (purpose 'copy': it reads, never signs) that lasts CONTRACT_COPY_TTL_SECONDS.
 */
async function sendCopy(app: FastifyInstance, signer: SignerRow): Promise<void> {
  const now = app.clock();
  const token = newLinkToken();
  const expiresAt = new Date(now.getTime() + app.config.CONTRACT_COPY_TTL_SECONDS * 1000);
  await app.db.transaction(async (tx) => {
    const [link] = await tx
      .insert(contractLinks)
      .values({
        signerId: signer.id,
        issuedBy: 'system',
        tokenSha256: token.sha256,
        purpose: 'copy',
        expiresAt,
        createdAt: now,
      })
      .returning({ id: contractLinks.id });
    await appendAuditEvent(tx, {
      applicationId: signer.userId,
      actor: 'system',
      type: 'contract.copy_link_issued',
      payload: { link_id: link!.id, signer_id: signer.id, expires_at: expiresAt.toISOString() },
      at: now,
    });
  });
  const url = `${baseUrl(app)}/api/v1/users/SK/${signer.userId}/contract?token=${encodeURIComponent(token.token)}`;
  await sendSms(app, signer.phoneE164, `${app.config.APP_NAME}: firmaste tu contrato de crédito. Tu copia: ${url}`);
}

// ---------------------------------------------------------------------------------------------
// Reading the contract and its evidence
// ---------------------------------------------------------------------------------------------

/**
 * The contract PDFs at rest: encrypted like the identity photos and signatures, since they print
 * every party's name, tax id and phone (issue 13, suite 7). The hashes stay those of the PDF itself.
 */
function sealContractPdf(app: FastifyInstance, pdf: Uint8Array): Buffer {
  return app.cipher.encryptBytes(pdf);
}

/** A stored contract PDF, decrypted; one stored before the PDFs were encrypted is read as it is. */
export function openContractPdf(app: FastifyInstance, stored: Uint8Array): Buffer {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? bytes : app.cipher.decryptBytes(bytes);
}

export async function contractDocument(app: FastifyInstance, signer: SignerRow) {
  const [contract] = await app.db.select().from(contracts).where(eq(contracts.id, signer.contractId)).limit(1);
  if (!contract) throw new AppError(404, 'CONTRACT_NOT_FOUND', 'contract not found', 'No encontramos el contrato.');
  return {
    pdf: openContractPdf(app, contract.signedPdf ?? contract.unsignedPdf),
    sha256: contract.signedSha256 ?? contract.unsignedSha256,
    contractId: contract.id,
  };
}

export async function contractEvidence(app: FastifyInstance, contractId: string): Promise<ContractEvidence> {
  const [contract] = await app.db.select().from(contracts).where(eq(contracts.id, contractId)).limit(1);
  if (!contract) throw new AppError(404, 'CONTRACT_NOT_FOUND', 'contract not found', 'No encontramos el contrato.');
  const signers = await app.db
    .select()
    .from(contractSigners)
    .where(eq(contractSigners.contractId, contractId))
    .orderBy(asc(contractSigners.createdAt));
  const checkIds = signers.map((one) => one.currentVerificationId).filter((id): id is string => Boolean(id));
  const checks = checkIds.length
    ? await app.db.select().from(identityVerifications).where(inArray(identityVerifications.id, checkIds))
    : [];
  return {
    contract_id: contract.id,
    template_version: contract.templateVersion,
    country: contract.country,
    amount: contract.amount,
    currency: contract.currency,
    unsigned_sha256: contract.unsignedSha256,
    signed_sha256: contract.signedSha256,
    signers: signers.map((one) => {
      const evidence = one.evidence as unknown as StoredEvidence | null;
      // Who has not signed shows only where they stand: their identity check is nobody else's business.
      const check = one.state === 'SIGNED' ? checks.find((c) => c.id === one.currentVerificationId) : undefined;
      return {
        signer_id: one.id,
        name: one.name,
        person_type: one.personType as PersonType,
        state: one.state as SignerState,
        signed_at: one.signedAt?.toISOString() ?? null,
        ip: evidence?.ip ?? null,
        peer_ip: evidence?.peer_ip ?? null,
        forwarded_for: evidence?.forwarded_for ?? null,
        user_agent: evidence?.user_agent ?? null,
        geolocation: evidence?.geolocation ?? null,
        phone_verified_at: evidence?.phone_verified_at ?? null,
        consent_folio: evidence?.consent_folio ?? null,
        verification:
          evidence?.verification ??
          (check
            ? { id: check.id, provider: check.provider, status: check.status, identity_id: check.identityId }
            : null),
        signature_sha256: one.signatureSha256,
      };
    }),
  };
}

/**
 * The signer a provider's webhook names. The metadata went through the signer's browser, so it
 * counts only with the server's proof over the signer id (a page cannot name another signer).
 */
export async function signerFromMetadata(
  app: FastifyInstance,
  metadata: {
    account_id: string;
    person_type: PersonType;
    signer_id?: string | undefined;
    signer_proof?: string | undefined;
  },
): Promise<SignerRow | null> {
  const { signer_id: signerId, signer_proof: proof } = metadata;
  if (!signerId || !proof || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(signerId))
    return null;
  const expected = Buffer.from(signerProof(app, signerId));
  const given = Buffer.from(proof);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const [signer] = await app.db.select().from(contractSigners).where(eq(contractSigners.id, signerId)).limit(1);
  return signer && signer.userId === metadata.account_id && signer.personType === metadata.person_type ? signer : null;
}
