import { randomUUID } from 'node:crypto';
import { formatTaxId, fromE164, getCountry, type PersonType } from '@provee/domain';
import { AppError } from '../../errors.js';
import type { SignerRow } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { listApprovedAvals, type AvalRow } from '../guarantors/index.js';
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
function shownAvalTaxId(deps: Pick<SigningDeps, 'cipher' | 'config'>, encrypted: string | null): string {
  if (!encrypted) return 'no disponible';
  return formatTaxId(getCountry(deps.config.COUNTRY), deps.cipher.decrypt(encrypted));
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
  const guarantorParties: ContractParty[] = guarantors.map((aval) => ({
    name: aval.name ?? '',
    taxId: shownAvalTaxId(deps, aval.taxIdEncrypted),
    phone: shownPhone(deps, aval.phoneE164),
    role: 'collateral',
    avalType: aval.avalType as 'PARTNER' | 'COLLATERAL',
  }));
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

type ContractDeps = Pick<SigningDeps, 'db' | 'clock' | 'cipher' | 'config' | 'pdfRenderer'>;

/**
 * The application's contract: drafted when the first link is issued, with the guarantors approved
 * by then. Re-drafted (new hash) for a guarantor approved later, but only while nobody has signed:
 * a signed document never changes (and the database refuses it).
 */
export async function ensureContract(
  deps: ContractDeps,
  user: UserRow,
  credit: Credit,
  mustInclude: string | null,
): Promise<ContractRow> {
  const includes = (contract: ContractRow) => !mustInclude || contract.avalIds.includes(mustInclude);
  const existing = await findContractOfUser(deps.db, user.id);
  if (existing && includes(existing)) return existing;
  if (existing?.signedSha256) throw signedWithout();
  const saved = await draftContract(deps, user, credit, existing);
  if (saved) return saved;
  // Someone drafted or signed it meanwhile: start again from what is there now.
  const current = await findContractOfUser(deps.db, user.id);
  if (current && includes(current)) return current;
  throw signedWithout();
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
    unsignedPdf: sealContractPdf(deps, pdf),
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
 * every party's name, tax id and phone (issue 13, suite 7). The hashes stay those of the PDF itself.
 */
export function sealContractPdf(deps: Pick<SigningDeps, 'cipher'>, pdf: Uint8Array): Buffer {
  return deps.cipher.encryptBytes(pdf);
}

/** A stored contract PDF, decrypted; one stored before the PDFs were encrypted is read as it is. */
export function openContractPdf(deps: Pick<SigningDeps, 'cipher'>, stored: Uint8Array): Buffer {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? bytes : deps.cipher.decryptBytes(bytes);
}

export const CONTRACT_NOT_FOUND = () =>
  new AppError(404, 'CONTRACT_NOT_FOUND', 'contract not found', 'No encontramos el contrato.');

/** The PDF a signer's link opens: the signed one once anybody has signed, else the one to sign. */
export async function contractDocument(deps: Pick<SigningDeps, 'db' | 'cipher'>, signer: SignerRow) {
  const contract = await findContract(deps.db, signer.contractId);
  if (!contract) throw CONTRACT_NOT_FOUND();
  return {
    pdf: openContractPdf(deps, contract.signedPdf ?? contract.unsignedPdf),
    sha256: contract.signedSha256 ?? contract.unsignedSha256,
    contractId: contract.id,
  };
}
