import { sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { isErasedPhone } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { sealedMessages } from '../messaging/index.js';
import { columnsErased } from './data-map.js';
import {
  advisorEventIdsOf,
  allowErasureWrites,
  anyOf,
  clearColumns,
  closeOpenRequests,
  deleteJobs,
  deleteRows,
  deleteWaitingJobsOf,
  emptyRequestReasons,
  emptyContractDocuments,
  hasSignedContract,
  leadIdsOf,
  lockApplication,
  peopleOf,
  phonesNamedElsewhere,
  smsJobs,
  tombstoneApplicantPhone,
  tombstoneSigners,
  ERASED_EVENT,
} from './erase.store.js';
import { destroyPersonKey } from './person-keys.js';

/**
 * Erasure of an application (issue 31, derecho de cancelación / Ley 172-13): the personal data of
 * everyone on it — the shopkeeper (users.id) and each guarantor (avals.id) — as the data map says:
 * plain columns cleared, rows deleted, each person's data key destroyed (so the ciphertext left in
 * this database stays unreadable; a backup taken before still holds the wrapped key and must expire
 * within the erasure term, decision 032), the phone tombstoned so the same number proving itself
 * again starts a new application. The row itself stays: ids, states and the audit chain, which
 * holds only ids and keyed hashes and so still verifies.
 */

export interface EraseDeps {
  /** The application cipher: opens the queue's sealed SMS jobs to find the person's. */
  cipher: FieldCipher;
  clock: () => Date;
}

export interface EraseOptions {
  /**
   * The retention schedule's own rule for signed contracts whose legal term has passed: the signed
   * contract goes too. Anyone else meets the legal hold.
   */
  contractTermPassed?: boolean;
}

export interface ErasureResult {
  /** False when the application had already been erased (nothing more to do, no new event). */
  erased: boolean;
  guarantors: number;
  signers: number;
  /** Rows deleted or changed per table. */
  rows: Record<string, number>;
}

/** A signed contract is evidence the law makes the lender keep: the routes answer 409 with this. */
export class LegalHoldError extends AppError {
  constructor() {
    super(
      409,
      'PRIVACY_LEGAL_HOLD',
      'a signed contract must be kept for its legal term',
      'No podemos eliminar estos datos todavía: hay un contrato firmado que la ley nos obliga a conservar ' +
        'durante su plazo legal. Al cumplirse el plazo se eliminarán.',
    );
  }
}

export class ApplicationNotFoundError extends AppError {
  constructor() {
    super(404, 'APPLICATION_NOT_FOUND', 'application not found', 'No encontramos esa solicitud.');
  }
}

/**
 * Erases the application in the caller's transaction (its audit event commits with it). Locks the
 * application row first, so two erasures (a staff action and the retention job) run one after the
 * other and the second finds it erased.
 */
export async function eraseApplication(
  deps: EraseDeps,
  tx: Executor,
  applicationId: string,
  actor: string,
  options: EraseOptions = {},
): Promise<ErasureResult> {
  const application = await lockApplication(tx, applicationId);
  if (!application) throw new ApplicationNotFoundError();
  // Locks the signers and the contract too: a signature committing now is seen by the legal hold.
  const people = await peopleOf(tx, applicationId);
  const result: ErasureResult = {
    erased: false,
    guarantors: people.guarantors.length,
    signers: people.signers.length,
    rows: {},
  };
  if (isErasedPhone(application.phoneE164)) return result;
  if (!options.contractTermPassed && (await hasSignedContract(tx, applicationId))) throw new LegalHoldError();

  const now = deps.clock();
  await allowErasureWrites(tx);
  const phones = [
    application.phoneE164,
    ...people.guarantors.map((guarantor) => guarantor.phone),
    ...people.signers.map((signer) => signer.phone),
  ].filter((phone): phone is string => !!phone && !isErasedPhone(phone));
  // A number someone else still answers to (another applicant, another application's guarantor or
  // signer) keeps their codes, proofs, sessions and messages: only the numbers of this one's people go.
  const elsewhere = await phonesNamedElsewhere(tx, applicationId, [...new Set(phones)]);
  const uniquePhones = [...new Set(phones)].filter((phone) => !elsewhere.has(phone));
  const count = (table: string, n: number) => {
    if (n > 0) result.rows[table] = (result.rows[table] ?? 0) + n;
  };
  const byUser = sql`user_id = ${applicationId}`;
  const signerIds = people.signers.map((signer) => signer.id);
  const guarantorIds = people.guarantors.map((guarantor) => guarantor.id);

  // The queue's waiting jobs that would act on the application (before its sessions go: they name them).
  count(
    'pgboss.job',
    await deleteWaitingJobsOf(tx, applicationId, { signerIds, guarantorIds, checkIds: people.checkIds }),
  );

  // What keys on the numbers: proofs, codes, the outbox, the queue's SMS jobs; a lead is the
  // applicant's own (a guarantor's number in a lead is that person's own lead, if anyone's).
  count('phone_codes', await deleteRows(tx, 'phone_codes', anyOf('phone_e164', uniquePhones)));
  count('phone_proof_starts', await deleteRows(tx, 'phone_proof_starts', anyOf('phone_e164', uniquePhones)));
  count(
    'reverse_otp_sessions',
    await deleteRows(
      tx,
      'reverse_otp_sessions',
      sql`${anyOf('phone_e164', uniquePhones)} or ${anyOf('from_e164', uniquePhones)} or ${anyOf('aval_id', guarantorIds)}`,
    ),
  );
  count('sms_outbox', await deleteRows(tx, 'sms_outbox', anyOf('to', uniquePhones)));
  await eraseSealedMessages(deps, tx, applicationId, uniquePhones, count);
  await eraseLegacySmsJobs(deps, tx, uniquePhones, count);
  const leadIds = await leadIdsOf(tx, [application.phoneE164]);
  const contactIds = await advisorEventIdsOf(tx, applicationId);
  count(
    'advisor_tasks',
    await deleteRows(
      tx,
      'advisor_tasks',
      sql`(source = 'lead' and ${anyOf('source_id', leadIds)}) or (source = 'contact' and ${anyOf('source_id', contactIds)})`,
    ),
  );
  count('leads', await deleteRows(tx, 'leads', anyOf('lead_id', leadIds)));

  // The application's own tables, as the data map says.
  count('users', await clearColumns(tx, 'users', columnsErased('users', 'clear'), sql`id = ${applicationId}`));
  await tombstoneApplicantPhone(tx, applicationId, now);
  count('avals', await clearColumns(tx, 'avals', columnsErased('avals', 'clear'), byUser));
  count('business_addresses', await deleteRows(tx, 'business_addresses', byUser));
  count('businesses', await deleteRows(tx, 'businesses', byUser));
  count('bureau_queries', await clearColumns(tx, 'bureau_queries', columnsErased('bureau_queries', 'clear'), byUser));
  count(
    'lender_decisions',
    await clearColumns(tx, 'lender_decisions', columnsErased('lender_decisions', 'clear'), byUser),
  );
  count('privacy_requests', await emptyRequestReasons(tx, applicationId));
  const closedRequestIds = await closeOpenRequests(tx, applicationId, actor, now);

  // Signing and identity: documents and uploads deleted, the verifier's answers and evidence cleared.
  count('identity_documents', await deleteRows(tx, 'identity_documents', anyOf('verification_id', people.checkIds)));
  count('identity_photo_uploads', await deleteRows(tx, 'identity_photo_uploads', anyOf('signer_id', signerIds)));
  count(
    'identity_verifications',
    await clearColumns(
      tx,
      'identity_verifications',
      columnsErased('identity_verifications', 'clear'),
      anyOf('id', people.checkIds),
    ),
  );
  count(
    'contract_signers',
    await clearColumns(tx, 'contract_signers', columnsErased('contract_signers', 'clear'), byUser),
  );
  await tombstoneSigners(tx, applicationId, now);
  count('contracts', await emptyContractDocuments(tx, applicationId, now));

  // Each person's data key: whatever ciphertext of theirs is left here (consent PINs) stays closed. Not
  // in a backup taken before, which still holds the wrapped key (decision 032).
  for (const personId of [applicationId, ...guarantorIds]) await destroyPersonKey(tx, personId, now);

  result.erased = true;
  await appendAuditEvent(tx, {
    applicationId,
    actor,
    type: ERASED_EVENT,
    payload: {
      aval_ids: guarantorIds,
      signer_ids: signerIds,
      rows: result.rows,
      ...(closedRequestIds.length > 0 ? { closed_request_ids: closedRequestIds } : {}),
      ...(options.contractTermPassed ? { contract_term_passed: true } : {}),
    },
    at: now,
  });
  return result;
}

/**
 * Messages still holding their sealed number and text (not yet final): the application's, and
 * those of no application (a phone proof's code) to any of the numbers, opened to match. They lose
 * both and end as dropped when not sent yet (their job then finds nothing to send).
 */
async function eraseSealedMessages(
  deps: EraseDeps,
  tx: Executor,
  applicationId: string,
  phones: readonly string[],
  count: (table: string, n: number) => void,
): Promise<void> {
  const wanted = new Set(phones);
  const own = await sealedMessages(tx, [applicationId]);
  const unowned = (await sealedMessages(tx, null)).filter((message) => {
    const sealed = openOrNull(deps.cipher, message.sealed ?? '');
    return sealed !== null && wanted.has((JSON.parse(sealed) as { to: string }).to);
  });
  const ids = [...own, ...unowned].map((message) => message.id);
  if (ids.length === 0) return;
  await tx.execute(sql`
    update outgoing_messages
    set sealed = null, status = case when status = 'pending' then 'dropped' else status end
    where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  count('outgoing_messages', ids.length);
}

/**
 * The sms-send jobs of before issue 34 (their data carried the number and text, sealed) that a
 * database may still hold: to any of the numbers, opened to match, deleted.
 */
async function eraseLegacySmsJobs(
  deps: EraseDeps,
  tx: Executor,
  phones: readonly string[],
  count: (table: string, n: number) => void,
): Promise<void> {
  if (phones.length === 0) return;
  const wanted = new Set(phones);
  const jobs = await smsJobs(tx, 'sms-send');
  for (const table of ['job', 'archive']) {
    const ids = jobs
      .filter((job) => job.table === table && wanted.has(openOrNull(deps.cipher, job.to) ?? ''))
      .map((job) => job.id);
    count(`pgboss.${table}`, await deleteJobs(tx, table, ids));
  }
}

function openOrNull(cipher: FieldCipher, stored: string): string | null {
  try {
    return cipher.decrypt(stored);
  } catch {
    return null;
  }
}
