import {
  getCountry,
  normalizePhone,
  normalizeTaxId,
  staffMay,
  toE164,
  type ApplicationsFilter,
  type ApplicationSummary,
  type StaffRole,
} from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { queryPersonCipher } from '../credit/index.js';
import { signerPersonId } from '../identity/index.js';
import { personCipher } from '../privacy/index.js';
import { staffActor, type StaffRow } from '../staff/index.js';
import { taxIdLookupHash } from '../users/index.js';
import { openContractPdf } from '../signing/index.js';
import {
  applicationsPage,
  applicationsWhere,
  bureauQueryRaw,
  contractOf,
  identityDocument,
  type SearchTerms,
} from './applications.store.js';
import { dayFilter } from './report-range.js';

export const NOT_FOUND = new AppError(
  404,
  'APPLICATION_NOT_FOUND',
  'application not found',
  'No encontramos esa solicitud.',
);

const fullName = (row: { name: string | null; lastname: string | null; maternalLastname: string | null }) =>
  [row.name, row.lastname, row.maternalLastname].filter(Boolean).join(' ') || null;

/**
 * Shown to advisors instead of the tax id and birth date: nothing of either. Any part would help
 * rebuild them (an RFC is the name, the birth date and a check digit; the rules' ages narrow the rest).
 */
export const MASKED_TAX_ID = '•••••••••••';
export const MASKED_DATE = '••••-••-••';

/**
 * What a search box text can be: a phone (any format), an exact tax id (found through its keyed
 * hash, never by decrypting), or part of a name.
 */
function searchTerms(app: FastifyInstance, q: string, byTaxId: boolean): SearchTerms {
  const country = getCountry(app.config.COUNTRY);
  const terms: SearchTerms = {};
  const digits = normalizePhone(country.code, q);
  if (/^[\d\s()+.-]+$/.test(q) && digits.length === 10) terms.phoneE164 = toE164(country.code, digits);
  const taxId = normalizeTaxId(country, q);
  // Advisors cannot search by tax id: each search would confirm a guess about a masked one.
  if (byTaxId && taxId.length >= 10) terms.taxIdHash = taxIdLookupHash(app, taxId);
  const words = q.replace(/[%_\\]/g, '').trim();
  if (/\p{L}/u.test(words)) terms.words = words;
  return terms;
}

export async function listApplications(
  app: FastifyInstance,
  member: StaffRow,
  query: ApplicationsFilter,
): Promise<{ items: ApplicationSummary[]; total: number }> {
  // A server serves one country: asking for another finds nothing.
  const days = dayFilter(query.from, query.to);
  if (query.country && query.country !== app.config.COUNTRY) return { items: [], total: 0 };
  const search = query.q ? searchTerms(app, query.q, staffMay(member.role as StaffRole, 'readSensitive')) : undefined;
  const where = applicationsWhere({ ...query, search, start: days.start, end: days.end });
  const { rows, total } = await applicationsPage(app.db, where, query.page, query.page_size);
  return {
    total,
    items: rows.map(({ user, businessName, guarantorPhoneShared: shared }) => ({
      id: user.id,
      phone: user.phoneE164,
      full_name: fullName(user),
      business_name: businessName,
      next_step: user.nextStep,
      status: user.status,
      utm_source: user.utmSource,
      utm_campaign: user.utmName,
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
      guarantor_phone_shared: shared,
    })),
  };
}

/** One identity image, decrypted (analysts and admins; the route checks the role). */
export async function identityImage(app: FastifyInstance, applicationId: string, documentId: string) {
  const row = await identityDocument(app.db, applicationId, documentId);
  if (!row) throw new AppError(404, 'DOCUMENT_NOT_FOUND', 'document not found', 'No encontramos ese documento.');
  const own = await personCipher(app, app.db, signerPersonId(row.signer));
  return { contentType: `image/${row.format}`, bytes: own.decryptBytes(row.data) };
}

/** The application's contract (signed version once anyone signed) and its id. */
export async function applicationContract(app: FastifyInstance, applicationId: string) {
  const row = await contractOf(app.db, applicationId);
  if (!row)
    throw new AppError(404, 'CONTRACT_NOT_FOUND', 'contract not found', 'Esta solicitud aún no tiene contrato.');
  return { id: row.id, pdf: await openContractPdf(app, app.db, row.userId, row.signedPdf ?? row.unsignedPdf) };
}

/**
 * A bureau query's answer as the bureau sent it (analysts and admins; the route checks the role),
 * each reading recorded on the application's chain in the read's own transaction.
 */
export async function bureauRawReport(app: FastifyInstance, member: StaffRow, applicationId: string, queryId: string) {
  return app.db.transaction(async (tx) => {
    const row = await bureauQueryRaw(tx, applicationId, queryId);
    if (!row?.raw)
      throw new AppError(404, 'BUREAU_REPORT_NOT_FOUND', 'bureau report not found', 'Esta consulta no tiene reporte.');
    const own = await queryPersonCipher(app, tx, row);
    const raw = Buffer.from(own.decrypt(row.raw), 'base64').toString('utf8');
    await appendAuditEvent(tx, {
      applicationId,
      actor: staffActor(member),
      type: 'staff.viewed_bureau_raw',
      payload: { query_id: queryId },
      at: app.clock(),
    });
    return JSON.parse(raw) as Record<string, unknown>;
  });
}
