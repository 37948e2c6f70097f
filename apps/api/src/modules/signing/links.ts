import type { PersonType, SignerState, SigningLink } from '@provee/domain';
import type { Tx } from '../../db/client.js';
import { AppError, invalidFields } from '../../errors.js';
import { isErasedPhone, type SignerRow } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { latestApprovedDecision } from '../credit/index.js';
import { findLenderApproval } from '../lending/index.js';
import { findAval, type AvalRow } from '../guarantors/index.js';
import { ALREADY_SIGNED, findSigner, signerWidget, verificationStatus } from '../identity/index.js';
import {
  deliverMessage,
  enqueueMessage,
  MESSAGE_SEND_JOB,
  type MessagePurpose,
  type OutgoingMessage,
} from '../messaging/index.js';
import { findUserById, type UserRow } from '../users/index.js';
import { ensureContract, ensureSigner, fullName } from './contract.js';
import type { SigningDeps } from './deps.js';
import { newLinkToken } from './link-token.js';
import type { SignerAccess } from './signer-access.js';
import {
  findLink,
  insertLink,
  lockSigner,
  revokeOpenSigningLinks,
  unsignedSha256Of,
  type LinkRow,
} from './signing.store.js';

/**
 * The signing links (SPEC §2.4): one per signer, sent by SMS, its token stored hashed
 * (link-token.ts); the signed copy's link; and what the signing page shows of its link.
 */

const baseUrl = (deps: Pick<SigningDeps, 'config'>) =>
  deps.config.PUBLIC_BASE_URL ?? `http://localhost:${deps.config.PORT}`;

/** The signing page's address for a signer, with the link's token. */
function signingUrl(deps: Pick<SigningDeps, 'config'>, user: UserRow, signer: SignerRow, token: string): string {
  const query = new URLSearchParams({
    user_type_id: 'SK',
    user_id: user.id,
    titular_full_name: fullName(user),
    type: signer.personType,
    collateral_full_name: signer.personType === 'collateral' ? signer.name : '',
    token,
  });
  return `${baseUrl(deps)}/send-contract-sign?${query.toString()}`;
}

export interface LinkRequest {
  person_type: PersonType;
  aval_id?: string | undefined;
}

/** The purpose of a signing link's SMS (modules/sms asks it before each try). */
const SIGNING_LINK_SMS = 'signing-link';

/** A signing link's SMS is worth sending while the link works (not used, replaced or expired). */
export function signingLinkMessages(deps: Pick<SigningDeps, 'db' | 'clock'>): MessagePurpose {
  return {
    name: SIGNING_LINK_SMS,
    async stillWanted(linkId) {
      const link = await findLink(deps.db, linkId);
      return !!link && !link.usedAt && !link.revokedAt && link.expiresAt.getTime() > deps.clock().getTime();
    },
  };
}

/**
 * A signing link for the shopkeeper or an approved guarantor, sent by SMS (a job of the link's
 * transaction, tried at once and again while the provider fails). A new link replaces the
 * signer's earlier ones (they stop working at once); the issue is in the audit trail.
 */
export async function issueContractLink(deps: SigningDeps, user: UserRow, input: LinkRequest, actor: string) {
  const credit = await creditToSign(deps, user.id);
  if (!credit || user.status === 'REJECTED')
    throw new AppError(
      409,
      'CONTRACT_NOT_READY',
      'no approved credit',
      'Este comercio aún no tiene un crédito aprobado para firmar.',
    );
  // Disbursed on the contract every signer signed: no new link changes it.
  if (user.nextStep === 'DISBURSED')
    throw new AppError(
      409,
      'CONTRACT_CLOSED',
      'credit disbursed',
      'Este crédito ya fue desembolsado: el contrato está cerrado.',
    );
  const aval = input.person_type === 'collateral' ? await approvedAvalNamed(deps, user, input.aval_id) : null;
  const contract = await ensureContract(deps, user, credit, aval?.id ?? null);
  const signer = await ensureSigner(deps, contract, {
    personType: input.person_type,
    aval,
    name: aval ? (aval.name ?? '') : fullName(user),
    phoneE164: aval ? aval.phoneE164! : user.phoneE164,
  });
  if (signer.state === 'SIGNED') throw ALREADY_SIGNED();
  const urlOf = (token: string) => signingUrl(deps, user, signer, token);
  const { link, token, expiresAt, sms } = await replaceSigningLink(deps, signer, actor, (token) => ({
    kind: 'signing-link',
    body: `${deps.config.APP_NAME}: tu contrato de crédito está listo para firmar. Verifica tu identidad y firma aquí: ${urlOf(token)}`,
    variables: [urlOf(token)],
  }));
  await deliverMessage(deps, sms);
  const url = urlOf(token);
  return {
    link_id: link.id,
    signer_id: signer.id,
    person_type: signer.personType as PersonType,
    url,
    expires_at: expiresAt.toISOString(),
  };
}

/**
 * The credit the contract is for: the lender's final amount once it approved (issue 30), else the
 * pre-approved one.
 */
async function creditToSign(deps: Pick<SigningDeps, 'db'>, userId: string) {
  const approval = await findLenderApproval(deps.db, userId);
  if (approval?.amount != null && approval.currency) return { amount: approval.amount, currency: approval.currency };
  return latestApprovedDecision(deps, userId);
}

/** The guarantor a collateral link is for: theirs, approved and with a phone. */
async function approvedAvalNamed(deps: Pick<SigningDeps, 'db'>, user: UserRow, avalId: string | undefined) {
  if (!avalId) throw invalidFields({ aval_id: '* Indica el aval que firmará.' });
  const found = await findAval(deps.db, avalId);
  const aval: AvalRow | undefined = found?.userId === user.id ? found : undefined;
  if (!aval) throw new AppError(404, 'AVAL_NOT_FOUND', 'guarantor not found', 'No encontramos a este aval.');
  if (aval.status !== 'APPROVED' || !aval.phoneE164)
    throw new AppError(409, 'AVAL_NOT_APPROVED', 'guarantor not approved', 'Este aval aún no ha sido aprobado.');
  return aval;
}

/**
 * The signer's new signing link, replacing their open ones, with its audit event and its SMS
 * (`message`: the text, from the token); its token leaves only here.
 */
async function replaceSigningLink(
  deps: Pick<SigningDeps, 'db' | 'clock' | 'config' | 'cipher'>,
  signer: SignerRow,
  actor: string,
  message: (token: string) => Pick<OutgoingMessage, 'kind' | 'body' | 'variables'>,
  options: { expiresAt?: Date; within?: (tx: Tx, link: LinkRow) => Promise<void> } = {},
) {
  const now = deps.clock();
  const expiresAt = options.expiresAt ?? new Date(now.getTime() + deps.config.CONTRACT_LINK_TTL_SECONDS * 1000);
  // Opaque and stored hashed (link-token.ts): the SMS (its job's data sealed) is the only place the
  // token is ever written.
  const token = newLinkToken();
  const issued = await deps.db.transaction(async (tx) => {
    // The signer's row first, as a signature locks it: issuing and signing at once cannot deadlock.
    const locked = await lockSigner(tx, signer.id);
    if (locked?.state === 'SIGNED') throw ALREADY_SIGNED();
    await revokeOpenSigningLinks(tx, signer.id, now);
    const row = await insertLink(tx, {
      signerId: signer.id,
      issuedBy: actor,
      tokenSha256: token.sha256,
      expiresAt,
      createdAt: now,
    });
    await appendAuditEvent(tx, {
      applicationId: signer.userId,
      actor,
      type: 'contract.link_issued',
      payload: {
        link_id: row.id,
        signer_id: signer.id,
        person_type: signer.personType,
        aval_id: signer.avalId,
        expires_at: expiresAt.toISOString(),
      },
      at: now,
    });
    await options.within?.(tx, row);
    const sms = await enqueueMessage(deps, tx, {
      ...message(token.token),
      to: signer.phoneE164,
      applicationId: signer.userId,
      about: { kind: SIGNING_LINK_SMS, id: row.id },
    });
    return { row, sms };
  });
  return { link: issued.row, token: token.token, expiresAt, sms: issued.sms };
}

/**
 * The one reminder of a signer whose link expires soon (modules/reminders): a link that replaces
 * theirs and ends when it did, in a reminder's words; `within` records the reminder (with the new
 * link) in the same transaction. Refused (409) for a signer who signed meanwhile. The message is
 * enqueued, not waited for (the sweep wakes the sender).
 */
export async function remindSigner(
  deps: SigningDeps,
  signer: SignerRow,
  expiresAt: Date,
  within: (tx: Tx, link: LinkRow) => Promise<void>,
) {
  const user = await findUserById(deps.db, signer.userId);
  if (!user) return null;
  const url = (token: string) => signingUrl(deps, user, signer, token);
  const { sms } = await replaceSigningLink(
    deps,
    signer,
    'system',
    (token) => ({
      kind: 'signing-reminder',
      body: `${deps.config.APP_NAME}: tu contrato de crédito sigue esperando tu firma y el enlace vence pronto. Firma aquí: ${url(token)}`,
      variables: [url(token)],
    }),
    { expiresAt, within },
  );
  return sms;
}

/**
 * SPEC §2.4: "a copy of the digital contract will be sent to the phone": an SMS with the PDF's link,
 * a link of its own (purpose 'copy': it reads, never signs) that lasts CONTRACT_COPY_TTL_SECONDS.
 */
export async function sendCopy(
  deps: Pick<SigningDeps, 'db' | 'clock' | 'config' | 'cipher' | 'jobs'>,
  signer: SignerRow,
): Promise<void> {
  const now = deps.clock();
  const token = newLinkToken();
  const expiresAt = new Date(now.getTime() + deps.config.CONTRACT_COPY_TTL_SECONDS * 1000);
  const url = `${baseUrl(deps)}/api/v1/users/SK/${signer.userId}/contract?token=${encodeURIComponent(token.token)}`;
  await deps.db.transaction(async (tx) => {
    const link = await insertLink(tx, {
      signerId: signer.id,
      issuedBy: 'system',
      tokenSha256: token.sha256,
      purpose: 'copy',
      expiresAt,
      createdAt: now,
    });
    await appendAuditEvent(tx, {
      applicationId: signer.userId,
      actor: 'system',
      type: 'contract.copy_link_issued',
      payload: { link_id: link.id, signer_id: signer.id, expires_at: expiresAt.toISOString() },
      at: now,
    });
    await enqueueMessage(deps, tx, {
      kind: 'signed-copy',
      to: signer.phoneE164,
      body: `${deps.config.APP_NAME}: firmaste tu contrato de crédito. Tu copia: ${url}`,
      variables: [url],
      applicationId: signer.userId,
      about: { kind: COPY_MESSAGE, id: signer.id },
    });
  });
  // A job of its own already: the sender takes it now, nobody waits for it.
  deps.jobs.wake(MESSAGE_SEND_JOB);
}

/** The purpose of the signed copy's message (modules/messaging asks it before each try). */
const COPY_MESSAGE = 'signed-copy';

/**
 * The signed copy is worth sending while its signer is there (not erased); one never sent (every
 * try refused) is said in the application's trail, so the back office can send it again.
 */
export function copyMessages(deps: Pick<SigningDeps, 'db' | 'clock'>): MessagePurpose {
  return {
    name: COPY_MESSAGE,
    async stillWanted(signerId) {
      const signer = await findSigner(deps.db, signerId);
      return !!signer && !isErasedPhone(signer.phoneE164);
    },
    async notSent(signerId) {
      const signer = await findSigner(deps.db, signerId);
      if (signer) await recordCopyNotSent(deps, signer);
    },
  };
}

/** The application's trail says the signer's copy never went (the back office can send it again). */
export async function recordCopyNotSent(deps: Pick<SigningDeps, 'db' | 'clock'>, signer: SignerRow): Promise<void> {
  await appendAuditEvent(deps.db, {
    applicationId: signer.userId,
    actor: 'system',
    type: 'contract.copy_not_sent',
    payload: { signer_id: signer.id },
    at: deps.clock(),
  });
}

/** What the signing page shows of its link: who signs, where they stand, the widget and the document's hash. */
export async function linkView(deps: SigningDeps, access: SignerAccess): Promise<SigningLink> {
  const { signer, link } = access;
  const user = await findUserById(deps.db, signer.userId);
  const documentSha256 = await unsignedSha256Of(deps.db, signer.contractId);
  return {
    user_id: signer.userId,
    user_type_id: 'SK',
    person_type: signer.personType as PersonType,
    signer_name: signer.name,
    titular_full_name: user ? fullName(user) : '',
    collateral_full_name: signer.personType === 'collateral' ? signer.name : '',
    state: signer.state as SignerState,
    verification: await verificationStatus(deps, signer),
    widget: signerWidget(deps, signer),
    document_sha256: documentSha256 ?? '',
    expires_at: link.expiresAt.toISOString(),
  };
}
