import { randomUUID } from 'node:crypto';
import { fromE164, type PersonType } from '@provee/domain';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { SignerRow } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { guarantorKeys, guarantorTaxId, listApprovedAvals, type AvalRow } from '../guarantors/index.js';
import { personCipher } from '../privacy/index.js';
import { describeApplicant, type Applicant, type UserRow } from '../users/index.js';
import type { SigningDeps } from './deps.js';
import { CONTRACT_TEMPLATE_VERSIONS, type ContractDocumentInput, type ContractParty } from './document/index.js';
import {
  findContract,
  findContractOfUser,
  findContractSigner,
  insertContract,
  insertSigner,
  redraftContract,
  type ContractRow,
} from './signing.store.js';

/**
 * What the contract says: the document drafted from the application as it stands (its parties,
 * business and approved amount), its signers, and its PDFs at rest.
 */

type Credit = { amount: number; currency: string };

export const fullName = (user: Pick<UserRow, 'name' | 'lastname' | 'maternalLastname'>) =>
  [user.name, user.lastname, user.maternalLastname].filter(Boolean).join(' ');

/** A guarantor's tax id as the contract prints it (the titular's comes from the applicant read model). */
async function shownAvalTaxId(deps: Pick<SigningDeps, 'db' | 'cipher' | 'config'>, aval: AvalRow): Promise<string> {
  if (!aval.taxIdEncrypted) return 'no disponible';
  return guarantorTaxId(await guarantorKeys(deps, deps.db, aval.id), aval)?.shown ?? 'no disponible';
}

const shownPhone = (deps: Pick<SigningDeps, 'config'>, e164: string | null) =>
  e164 ? fromE164(deps.config.COUNTRY, e164) : '';

/** The business's address on one line, as the contract prints it. */
function streetLine(address: Applicant['address']): string {
  if (!address) return '';
  const apartment = address.apartmentNumber ? ` int. ${address.apartmentNumber}` : '';
  return [
    `${address.streetName} ${address.streetNumber}${apartment}`,
    address.neighborhood,
    address.city,
    address.state,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The document's data: the parties, the business and the approved amount, as they stand now. */
async function documentInput(
  deps: Pick<SigningDeps, 'db' | 'cipher' | 'config'>,
  user: UserRow,
  credit: Credit,
  guarantors: AvalRow[],
  contractId: string,
  issuedAt: Date,
): Promise<ContractDocumentInput> {
  const applicant = await describeApplicant(deps, user.id);
  const business = applicant?.business;
  const guarantorParties: ContractParty[] = await Promise.all(
    guarantors.map(async (aval) => ({
      name: aval.name ?? '',
      taxId: await shownAvalTaxId(deps, aval),
      phone: shownPhone(deps, aval.phoneE164),
      role: 'collateral' as const,
      avalType: aval.avalType as 'PARTNER' | 'COLLATERAL',
    })),
  );
  return {
    country: deps.config.COUNTRY,
    contractId,
    issuedAt,
    lenderName: deps.config.LENDER_NAME,
    titular: {
      name: fullName(user),
      taxId: applicant?.taxId?.shown ?? 'no disponible',
      phone: shownPhone(deps, user.phoneE164),
      role: 'titular' as const,
    },
    business: business
      ? { name: business.name, type: business.businessType, address: streetLine(applicant.address) }
      : null,
    amount: credit.amount,
    currency: credit.currency as 'DOP' | 'MXN',
    guarantors: guarantorParties,
  };
}

const signedWithout = () =>
  new AppError(
    409,
    'CONTRACT_ALREADY_SIGNED',
    'contract signed without this guarantor',
    'El contrato ya tiene firmas y este aval no aparece en él. Se necesita un contrato nuevo.',
  );

const signedForOtherAmount = (contract: ContractRow) =>
  new AppError(
    409,
    'CONTRACT_ALREADY_SIGNED',
    'contract signed for another amount',
    `El contrato ya tiene firmas por ${contract.amount.toLocaleString('es')} ${contract.currency}, no por el monto aprobado. Se necesita un contrato nuevo.`,
  );

type ContractDeps = Pick<SigningDeps, 'db' | 'clock' | 'cipher' | 'config' | 'pdfRenderer'>;

/**
 * The application's contract: drafted when the first link is issued, with the guarantors approved
 * by then and the credit's amount (the lender's approval once there is one). Re-drafted (new hash)
 * for a guarantor approved later or another amount, but only while nobody has signed: a signed
 * document never changes (and the database refuses it).
 */
export async function ensureContract(
  deps: ContractDeps,
  user: UserRow,
  credit: Credit,
  mustInclude: string | null,
): Promise<ContractRow> {
  const includes = (contract: ContractRow) =>
    (!mustInclude || contract.avalIds.includes(mustInclude)) &&
    contract.amount === credit.amount &&
    contract.currency === credit.currency;
  const existing = await findContractOfUser(deps.db, user.id);
  if (existing && includes(existing)) return existing;
  if (existing?.signedSha256)
    throw existing.amount === credit.amount ? signedWithout() : signedForOtherAmount(existing);
  const saved = await draftContract(deps, user, credit, existing);
  if (saved) return saved;
  // Someone drafted or signed it meanwhile: start again from what is there now.
  const current = await findContractOfUser(deps.db, user.id);
  if (current && includes(current)) return current;
  throw current && current.amount !== credit.amount ? signedForOtherAmount(current) : signedWithout();
}

/** A new draft with the guarantors approved now, saved with its audit event; null when another request won. */
async function draftContract(
  deps: ContractDeps,
  user: UserRow,
  credit: Credit,
  existing: ContractRow | undefined,
): Promise<ContractRow | null> {
  const guarantors = await listApprovedAvals(deps.db, user.id);
  const now = deps.clock();
  const id = existing?.id ?? randomUUID();
  // Built on a worker thread (decision 021), before the transaction.
  const { pdf, sha256 } = await deps.pdfRenderer.unsigned(await documentInput(deps, user, credit, guarantors, id, now));
  const values = {
    country: deps.config.COUNTRY,
    templateVersion: CONTRACT_TEMPLATE_VERSIONS[deps.config.COUNTRY],
    amount: credit.amount,
    currency: credit.currency,
    avalIds: guarantors.map((aval) => aval.id),
    unsignedPdf: await encryptContractPdf(deps, deps.db, user.id, pdf),
    unsignedSha256: sha256,
    updatedAt: now,
  };
  return deps.db.transaction(async (tx) => {
    const row = existing
      ? await redraftContract(tx, existing.id, values)
      : await insertContract(tx, { ...values, id, userId: user.id, createdAt: now });
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
}

/** The contract's signer for this person, added (with its audit event) on their first link. */
export async function ensureSigner(
  deps: Pick<SigningDeps, 'db' | 'clock'>,
  contract: ContractRow,
  who: { personType: PersonType; aval: AvalRow | null; name: string; phoneE164: string },
): Promise<SignerRow> {
  const find = () => findContractSigner(deps.db, contract.id, who.aval?.id ?? null);
  const existing = await find();
  if (existing) return existing;
  const now = deps.clock();
  const created = await deps.db.transaction(async (tx) => {
    const row = await insertSigner(tx, {
      contractId: contract.id,
      userId: contract.userId,
      personType: who.personType,
      avalId: who.aval?.id ?? null,
      name: who.name,
      phoneE164: who.phoneE164,
      state: 'AWAITING_VERIFICATION',
      createdAt: now,
      updatedAt: now,
    });
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
  return created ?? (await find())!;
}

/**
 * The contract PDFs at rest: encrypted like the identity photos and signatures, since they print
 * every party's name, tax id and phone (issue 13, suite 7), with the applicant's data key (decision
 * 032: the contract is their application's). The hashes stay those of the PDF itself.
 */
export async function encryptContractPdf(
  deps: Pick<SigningDeps, 'cipher'>,
  db: Executor,
  userId: string,
  pdf: Uint8Array,
): Promise<Buffer> {
  return (await personCipher(deps, db, userId)).encryptBytes(pdf);
}

/** A stored contract PDF, decrypted; one stored before the PDFs were encrypted is read as it is. */
export async function openContractPdf(
  deps: Pick<SigningDeps, 'cipher'>,
  db: Executor,
  userId: string,
  stored: Uint8Array,
): Promise<Buffer> {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return bytes;
  return (await personCipher(deps, db, userId)).decryptBytes(bytes);
}

export const CONTRACT_NOT_FOUND = () =>
  new AppError(404, 'CONTRACT_NOT_FOUND', 'contract not found', 'No encontramos el contrato.');

/** The PDF a signer's link opens: the signed one once anybody has signed, else the one to sign. */
export async function contractDocument(deps: Pick<SigningDeps, 'db' | 'cipher'>, signer: SignerRow) {
  const contract = await findContract(deps.db, signer.contractId);
  if (!contract) throw CONTRACT_NOT_FOUND();
  return {
    pdf: await openContractPdf(deps, deps.db, contract.userId, contract.signedPdf ?? contract.unsignedPdf),
    sha256: contract.signedSha256 ?? contract.unsignedSha256,
    contractId: contract.id,
  };
}
