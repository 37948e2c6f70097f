import {
  applicationsOrder,
  getCountry,
  normalizePhone,
  normalizeTaxId,
  staffMay,
  toE164,
  type ApplicationsFilter,
  type ApplicationsOrder,
  type ApplicationSummary,
  type StaffRole,
} from '@provee/domain';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError, invalidFields } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { queryPersonCipher } from '../credit/index.js';
import { signerPersonId } from '../identity/index.js';
import { personCipher } from '../privacy/index.js';
import { staffActor, type StaffRow } from '../staff/index.js';
import { taxIdLookupHash } from '../users/index.js';
import { checkContractCopy, openContractPdf } from '../signing/index.js';
import {
  applicationsPage,
  applicationsWhere,
  bureauQueryRaw,
  contractOf,
  countMatches,
  identityDocument,
  searchPage,
  type ListPosition,
  type PageFrom,
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

/** Where the count of the list stops (the contract's `total`): its cost stays bounded as the table grows. */
const TOTAL_CAP = 10_000;

const refused = (field: string, message: string) => invalidFields({ [field]: message }, 'query', true);

/**
 * What a search box text can be: a phone (any format), an exact tax id (found through its keyed
 * hash, never by decrypting), or part of a name. A name is found through its trigrams (issue 35),
 * which need three letters in a row: fewer would read the whole index, so they are refused.
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
  if (/\p{L}{3}/u.test(words)) terms.words = words;
  else if (/\p{L}/u.test(words) && !terms.taxIdHash)
    throw refused('q', 'Para buscar por nombre escribe al menos 3 letras seguidas.');
  return terms;
}

/**
 * A cursor of the list: the row's updated_at, or its created_at in the order by start (then marked
 * 'created|', so that a page of one order is never read as a place in the other), in µs, UTC, and
 * its id, as one opaque text.
 */
const CREATED = 'created|';
const encodeCursor = (order: ApplicationsOrder, position: ListPosition) =>
  Buffer.from(`${order === 'start' ? CREATED : ''}${position.at}|${position.id}`).toString('base64url');

const CURSOR =
  /^(created\|)?((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z)\|([0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12})$/;

function decodeCursor(field: 'after' | 'before', order: ApplicationsOrder, text: string): ListPosition {
  const match = CURSOR.exec(Buffer.from(text, 'base64url').toString('utf8'));
  const instant = match ? new Date(`${match[3]}Z`) : undefined;
  // Only an instant that reads back the same (no 30 February), from 1970 on: what the database takes;
  // and only in the order it was given in.
  if (
    !match ||
    (match[1] === CREATED) !== (order === 'start') ||
    !instant ||
    !(instant.getTime() >= 0) ||
    instant.toISOString() !== `${match[3]}Z`
  )
    throw refused(field, 'La página pedida no es válida: vuelve a la primera página de la lista.');
  return { at: match[2]!, id: match[4]! };
}

export interface ApplicationsList {
  items: ApplicationSummary[];
  total: number;
  total_exact: boolean;
  next_cursor: string | null;
  previous_cursor: string | null;
}

const EMPTY: ApplicationsList = { items: [], total: 0, total_exact: true, next_cursor: null, previous_cursor: null };

/**
 * A page (`limit` rows) and how many match, up to TOTAL_CAP + 1. A name's matches are found once for
 * both (`searchPage`); any other list reads its page and its count at the same time, each on its index.
 */
async function pageAndCount(
  db: Db,
  where: SQL | undefined,
  order: ApplicationsOrder,
  from: PageFrom,
  limit: number,
  byName: boolean,
) {
  const countOf = async () => (await countMatches(db, where, TOTAL_CAP + 1))[0]?.count ?? 0;
  if (!byName) {
    const [walked, counted] = await Promise.all([applicationsPage(db, where, order, from, limit), countOf()]);
    return { walked, counted };
  }
  const found = await searchPage(db, where, order, from, limit, TOTAL_CAP + 1);
  // An empty page tells nothing of how many match (none, or a cursor past the last): counted apart.
  const counted = found[0]?.matched ?? (await countOf());
  // Past the cap the page was taken among the matches found first, not all: read in the list's order.
  if (counted > TOTAL_CAP) return { walked: await applicationsPage(db, where, order, from, limit), counted };
  return { walked: found, counted };
}

/**
 * One page of the list, last activity first (latest started first given a range of start days:
 * applicationsOrder), from a cursor (keyset on (updated_at or created_at, id): every page costs the
 * same), and how many match, counted up to TOTAL_CAP.
 */
export async function listApplications(
  app: FastifyInstance,
  member: StaffRow,
  query: ApplicationsFilter,
): Promise<ApplicationsList> {
  if (query.after && query.before) throw refused('before', 'Pide la página siguiente o la anterior, no ambas.');
  const order = applicationsOrder(query);
  const older = query.after ? decodeCursor('after', order, query.after) : undefined;
  const newer = query.before ? decodeCursor('before', order, query.before) : undefined;
  const days = dayFilter(query.from, query.to);
  // A server serves one country: asking for another finds nothing.
  if (query.country && query.country !== app.config.COUNTRY) return EMPTY;
  const search = query.q ? searchTerms(app, query.q, staffMay(member.role as StaffRole, 'readSensitive')) : undefined;
  const where = applicationsWhere({ ...query, search, start: days.start, end: days.end });
  const size = query.page_size;
  // One row more than the page tells whether another page follows in the walk's direction.
  const { walked, counted } = await pageAndCount(app.db, where, order, { older, newer }, size + 1, !!search?.words);
  const more = walked.length > size;
  const rows = newer ? walked.slice(0, size).reverse() : walked.slice(0, size);
  const edge = (row: (typeof rows)[number] | undefined) => row && { at: row.position, id: row.id };
  const [first, last] = [edge(rows[0]), edge(rows.at(-1))];
  // An empty page turns back with the cursor it was asked with (the rows on its other side).
  const cursor = (position: ListPosition | undefined) => (position ? encodeCursor(order, position) : null);
  return {
    total: Math.min(counted, TOTAL_CAP),
    total_exact: counted <= TOTAL_CAP,
    next_cursor: newer ? cursor(last ?? newer) : more ? cursor(last) : null,
    previous_cursor: older ? cursor(first ?? older) : newer && more ? cursor(first) : null,
    items: rows.map((row) => ({
      id: row.id,
      phone: row.phoneE164,
      full_name: fullName(row),
      business_name: row.businessName,
      next_step: row.nextStep,
      status: row.status,
      utm_source: row.utmSource,
      utm_campaign: row.utmName,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      guarantor_phone_shared: row.guarantorPhoneShared,
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
 * "¿Es este documento el que firmamos?": a PDF compared with the application's sealed contract
 * (signing's checkContractCopy); who checked which file, and the answer, on the application's chain.
 */
export async function checkApplicationContract(
  app: FastifyInstance,
  member: StaffRow,
  applicationId: string,
  pdf: Buffer,
) {
  const row = await contractOf(app.db, applicationId);
  if (!row)
    throw new AppError(404, 'CONTRACT_NOT_FOUND', 'contract not found', 'Esta solicitud aún no tiene contrato.');
  const check = await checkContractCopy(app, row.id, pdf);
  await appendAuditEvent(app.db, {
    applicationId,
    actor: staffActor(member),
    type: 'backoffice.contract_copy_checked',
    payload: { contract_id: row.id, sha256: check.sha256, matches: check.matches, version: check.version },
    at: app.clock(),
  });
  return check;
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
