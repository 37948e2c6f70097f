import {
  cleanRfc,
  formatCedula,
  getCountry,
  normalizePhone,
  staffMay,
  toE164,
  type ApplicationDetail,
  type ApplicationsFilter,
  type ApplicationSummary,
  type StaffRole,
} from '@provee/domain';
import { and, asc, desc, eq, gte, ilike, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  advisorEvents,
  avals,
  bureauConsents,
  bureauQueries,
  businessAddresses,
  businesses,
  contracts,
  contractSigners,
  creditDecisions,
  identityDocuments,
  identityVerifications,
  staff,
  users,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { listAuditEvents, phoneAuditId, verifyEvents } from '../audit/index.js';
import type { StaffRow } from '../staff/index.js';
import { openContractPdf } from '../signing/index.js';
import { dayFilter } from './funnel.service.js';

const NOT_FOUND = new AppError(404, 'APPLICATION_NOT_FOUND', 'application not found', 'No encontramos esa solicitud.');

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
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
function searchCondition(app: FastifyInstance, q: string, byTaxId: boolean): SQL | undefined {
  const country = getCountry(app.config.COUNTRY);
  const conditions: (SQL | undefined)[] = [];
  const digits = normalizePhone(country.code, q);
  if (/^[\d\s()+.-]+$/.test(q) && digits.length === 10)
    conditions.push(eq(users.phoneE164, toE164(country.code, digits)));
  const taxId = (country.taxId.format ? formatCedula(q) : cleanRfc(q)).replace(/-/g, '');
  // Advisors cannot search by tax id: each search would confirm a guess about a masked one.
  if (byTaxId && taxId.length >= 10)
    conditions.push(eq(users.taxIdHash, app.cipher.lookupHash(`${country.code}:${taxId}`)));
  const words = q.replace(/[%_\\]/g, '').trim();
  if (/\p{L}/u.test(words)) {
    const name = sql`concat_ws(' ', ${users.name}, ${users.lastname}, ${users.maternalLastname})`;
    conditions.push(ilike(name, `%${words}%`));
  }
  return conditions.length > 0 ? or(...conditions) : sql`false`;
}

export async function listApplications(
  app: FastifyInstance,
  member: StaffRow,
  query: ApplicationsFilter,
): Promise<{ items: ApplicationSummary[]; total: number }> {
  // A server serves one country: asking for another finds nothing.
  const days = dayFilter(query.from, query.to);
  if (query.country && query.country !== app.config.COUNTRY) return { items: [], total: 0 };
  const where = and(
    query.q ? searchCondition(app, query.q, staffMay(member.role as StaffRole, 'readSensitive')) : undefined,
    query.next_step ? eq(users.nextStep, query.next_step) : undefined,
    query.status ? eq(users.status, query.status) : undefined,
    query.utm_source ? eq(users.utmSource, query.utm_source) : undefined,
    query.utm_campaign ? eq(users.utmName, query.utm_campaign) : undefined,
    days.start ? gte(users.createdAt, days.start) : undefined,
    days.end ? lt(users.createdAt, days.end) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    app.db
      .select({ user: users, businessName: businesses.name, guarantorPhoneShared: guarantorPhoneShared() })
      .from(users)
      .leftJoin(businesses, eq(businesses.userId, users.id))
      .where(where)
      .orderBy(desc(users.updatedAt), desc(users.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    app.db
      .select({ total: sql<number>`count(*)::int` })
      .from(users)
      .where(where),
  ]);
  return {
    total: count?.total ?? 0,
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

/**
 * Whether a guarantor phone of the row's application is named on another application too (issue
 * 26): one person guaranteeing several shopkeepers, or a number made up more than once. An EXISTS
 * per listed row, on the avals' phone index.
 */
const guarantorPhoneShared = () =>
  sql<boolean>`exists (
    select 1 from ${avals} mine join ${avals} theirs
      on theirs.phone_e164 = mine.phone_e164 and theirs.user_id <> mine.user_id
    where mine.user_id = ${users.id}
  )`.mapWith(Boolean);

/** How many other applications name each of these phones as a guarantor's. */
async function otherApplicationsNaming(
  app: FastifyInstance,
  userId: string,
  phones: string[],
): Promise<Map<string, number>> {
  if (phones.length === 0) return new Map();
  const rows = await app.db
    .select({ phone: avals.phoneE164, applications: sql<number>`count(distinct ${avals.userId})::int` })
    .from(avals)
    .where(and(inArray(avals.phoneE164, phones), ne(avals.userId, userId)))
    .groupBy(avals.phoneE164);
  return new Map(rows.map((row) => [row.phone!, row.applications]));
}

/** Audit payload fields that hold where a person connected from: evidence for analysts only. */
const ADDRESS_FIELDS = new Set(['ip', 'peer_ip', 'forwarded_for', 'observed_ip', 'client_ip']);
const withoutAddresses = (payload: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(payload).filter(([key]) => !ADDRESS_FIELDS.has(key)));

const ROLE_NAMES: Record<string, string> = { advisor: 'asesor', analyst: 'analista', admin: 'administrador' };

/** Actors in words: a staff member by name and role (a compliance reader should not need ids). */
async function actorNames(app: FastifyInstance, actors: string[]): Promise<(actor: string) => string> {
  const staffIds = [...new Set(actors.map((actor) => /^staff:([0-9a-f-]{36})$/.exec(actor)?.[1]).filter(Boolean))];
  const members = staffIds.length
    ? await app.db
        .select({ id: staff.id, name: staff.name, role: staff.role })
        .from(staff)
        .where(inArray(staff.id, staffIds as string[]))
    : [];
  const names = new Map(members.map((m) => [`staff:${m.id}`, `${m.name} (${ROLE_NAMES[m.role] ?? m.role})`]));
  return (actor) => {
    if (names.has(actor)) return names.get(actor)!;
    if (actor.startsWith('user:') || actor === 'user') return 'Solicitante';
    if (actor.startsWith('aval:') || actor.startsWith('signer:')) return 'Firmante o aval';
    if (actor.startsWith('provider:')) return `Proveedor (${actor.slice('provider:'.length)})`;
    if (actor === 'system') return 'Sistema';
    if (actor === 'cli') return 'Consola (staff:create)';
    return actor;
  };
}

async function timeline(
  app: FastifyInstance,
  chains: { chain: 'application' | 'phone'; id: string }[],
  sensitive: boolean,
) {
  const read = await Promise.all(
    chains.map(async ({ chain, id }) => {
      // Read once: the same rows are verified and shown.
      const events = await listAuditEvents(app.db, id);
      return { chain, verification: verifyEvents(events), events };
    }),
  );
  const nameOf = await actorNames(
    app,
    read.flatMap(({ events }) => events.map((event) => event.actor)),
  );
  return read.map(({ chain, verification, events }) => ({
    chain,
    valid: verification.valid,
    broken_at: verification.valid ? null : verification.brokenAt,
    reason: verification.valid ? null : verification.reason,
    events: events.map((event) => ({
      id: event.id,
      type: event.type,
      actor: event.actor,
      actor_name: nameOf(event.actor),
      at: event.createdAt.toISOString(),
      // The chain is verified above on the events as stored; advisors see them without addresses.
      payload: sensitive ? event.payload : withoutAddresses(event.payload),
    })),
  }));
}

/** Everything recorded about one application, masked for the staff member's role. */
export async function applicationDetail(
  app: FastifyInstance,
  member: StaffRow,
  applicationId: string,
): Promise<ApplicationDetail> {
  const [user] = await app.db.select().from(users).where(eq(users.id, applicationId)).limit(1);
  if (!user) throw NOT_FOUND;
  const sensitive = staffMay(member.role as StaffRole, 'readSensitive');
  const byUser = <T extends { userId: unknown }>(table: T) => eq(table.userId as never, user.id);
  const [business, address, consents, queries, decisions, guarantors, signers, contract, contacts] = await Promise.all([
    app.db.select().from(businesses).where(byUser(businesses)).limit(1),
    app.db.select().from(businessAddresses).where(byUser(businessAddresses)).limit(1),
    app.db.select().from(bureauConsents).where(byUser(bureauConsents)).orderBy(asc(bureauConsents.createdAt)),
    app.db.select().from(bureauQueries).where(byUser(bureauQueries)).orderBy(asc(bureauQueries.createdAt)),
    app.db.select().from(creditDecisions).where(byUser(creditDecisions)).orderBy(asc(creditDecisions.createdAt)),
    app.db.select().from(avals).where(byUser(avals)).orderBy(asc(avals.createdAt)),
    app.db.select().from(contractSigners).where(byUser(contractSigners)).orderBy(asc(contractSigners.createdAt)),
    app.db
      .select({
        id: contracts.id,
        templateVersion: contracts.templateVersion,
        unsignedSha256: contracts.unsignedSha256,
        signedSha256: contracts.signedSha256,
        createdAt: contracts.createdAt,
      })
      .from(contracts)
      .where(byUser(contracts))
      .limit(1),
    app.db.select().from(advisorEvents).where(byUser(advisorEvents)).orderBy(asc(advisorEvents.createdAt)),
  ]);
  const signerIds = signers.map((signer) => signer.id);
  const checks = signerIds.length
    ? await app.db
        .select()
        .from(identityVerifications)
        .where(inArray(identityVerifications.signerId, signerIds))
        .orderBy(asc(identityVerifications.createdAt))
    : [];
  const documents = checks.length
    ? await app.db
        .select({
          id: identityDocuments.id,
          verificationId: identityDocuments.verificationId,
          kind: identityDocuments.kind,
          format: identityDocuments.format,
          bytes: identityDocuments.bytes,
        })
        .from(identityDocuments)
        .where(
          inArray(
            identityDocuments.verificationId,
            checks.map((check) => check.id),
          ),
        )
    : [];
  const sharedPhones = await otherApplicationsNaming(app, user.id, [
    ...new Set(guarantors.map((aval) => aval.phoneE164).filter((phone): phone is string => Boolean(phone))),
  ]);
  const taxId = user.taxIdEncrypted ? app.cipher.decrypt(user.taxIdEncrypted) : null;
  const dob = user.dobEncrypted ? app.cipher.decrypt(user.dobEncrypted) : null;
  const maxAttempts = app.config.IDENTITY_MAX_ATTEMPTS;
  const [b] = business;
  const [a] = address;
  const [c] = contract;
  return {
    id: user.id,
    phone: user.phoneE164,
    next_step: user.nextStep,
    status: user.status,
    country: app.config.COUNTRY,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    sensitive_visible: sensitive,
    person: {
      name: user.name,
      lastname: user.lastname,
      maternal_lastname: user.maternalLastname,
      tax_id: taxId === null ? null : sensitive ? taxId : MASKED_TAX_ID,
      birth_date: dob === null ? null : sensitive ? dob : MASKED_DATE,
      marital_status: user.maritalStatus,
      length_of_residency_in_years: user.lengthOfResidencyInYears,
    },
    utm: { source: user.utmSource, medium: user.utmMedium, campaign: user.utmName },
    business: b
      ? {
          name: b.name,
          business_type: b.businessTypeOther ? `${b.businessType}: ${b.businessTypeOther}` : b.businessType,
          sales_range_id: b.salesRangeId,
          business_age_years: b.businessAgeYears,
        }
      : null,
    address: a
      ? {
          zip_code: a.zipCode,
          state: a.state,
          city: a.city,
          neighborhood: a.neighborhood,
          street_name: a.streetName,
          street_number: a.streetNumber,
          apartment_number: a.apartmentNumber,
          municipality_id: a.municipalityId,
          neighborhood_typed: a.neighborhoodTyped,
          neighborhood_reviewed_at: iso(a.neighborhoodReviewedAt),
        }
      : null,
    consents: consents.map((consent) => ({
      id: consent.id,
      person_type: consent.personType,
      aval_id: consent.avalId,
      created_at: consent.createdAt.toISOString(),
      // Where the consent was given from is evidence for analysts; an advisor calls, and needs it not.
      ip: sensitive ? consent.ip : null,
      user_agent: consent.userAgent,
      pin_verified: consent.pinVerified,
      bureau_folio: consent.bureauFolio,
      consent_version: consent.consentVersion,
      consent_text_sha256: consent.consentTextSha256,
      authorized_until: consent.authorizedUntil.toISOString(),
    })),
    bureau_queries: queries.map((query) => ({
      id: query.id,
      consent_id: query.consentId,
      status: query.status,
      attempts: query.attempts,
      last_error: query.lastError,
      // The bureau's report is credit data: analysts only.
      report: sensitive ? (query.report ?? null) : null,
      created_at: query.createdAt.toISOString(),
      updated_at: query.updatedAt.toISOString(),
    })),
    decisions: decisions.map((decision) => ({
      id: decision.id,
      consent_id: decision.consentId,
      aval_id: decision.avalId,
      result: decision.result,
      amount: decision.amount,
      currency: decision.currency,
      policy_version: decision.policyVersion,
      // Each rule's value is the applicant's data (age, score, late accounts): the outcome only for advisors.
      rules: sensitive ? decision.rules : decision.rules.map((rule) => ({ ...rule, value: null })),
      created_at: decision.createdAt.toISOString(),
    })),
    guarantors: guarantors.map((aval) => ({
      id: aval.id,
      aval_type: aval.avalType,
      name: aval.name,
      phone: aval.phoneE164,
      status: aval.status,
      created_at: aval.createdAt.toISOString(),
      phone_other_applications: aval.phoneE164 ? (sharedPhones.get(aval.phoneE164) ?? 0) : 0,
    })),
    signers: signers.map((signer) => ({
      id: signer.id,
      person_type: signer.personType as 'titular' | 'collateral',
      aval_id: signer.avalId,
      name: signer.name,
      state: signer.state,
      attempts_used: signer.verificationAttempts,
      attempts_left: maxAttempts + signer.extraAttempts - signer.verificationAttempts,
      extra_attempts: signer.extraAttempts,
      signed_at: iso(signer.signedAt),
      verifications: checks
        .filter((check) => check.signerId === signer.id)
        .map((check) => ({
          id: check.id,
          verification_type: check.verificationType,
          provider: check.provider,
          status: check.status,
          created_at: check.createdAt.toISOString(),
          answered_at: iso(check.answeredAt),
          answered_by: check.answeredBy,
          note: typeof check.answer?.note === 'string' ? check.answer.note : null,
          documents: documents
            .filter((doc) => doc.verificationId === check.id)
            .map((doc) => ({ id: doc.id, kind: doc.kind, format: doc.format, bytes: doc.bytes })),
        })),
    })),
    contract: c
      ? {
          id: c.id,
          template_version: c.templateVersion,
          unsigned_sha256: c.unsignedSha256,
          signed_sha256: c.signedSha256,
          created_at: c.createdAt.toISOString(),
        }
      : null,
    advisor_contacts: contacts.map((contact) => ({
      id: contact.id,
      contact_type: contact.contactType,
      created_at: contact.createdAt.toISOString(),
    })),
    timeline: await timeline(
      app,
      [
        { chain: 'phone', id: phoneAuditId(app, user.phoneE164) },
        { chain: 'application', id: user.id },
      ],
      sensitive,
    ),
  };
}

/** One identity image, decrypted (analysts and admins; the route checks the role). */
export async function identityImage(app: FastifyInstance, applicationId: string, documentId: string) {
  const [row] = await app.db
    .select({ format: identityDocuments.format, data: identityDocuments.dataEncrypted })
    .from(identityDocuments)
    .innerJoin(identityVerifications, eq(identityVerifications.id, identityDocuments.verificationId))
    .innerJoin(contractSigners, eq(contractSigners.id, identityVerifications.signerId))
    .where(and(eq(identityDocuments.id, documentId), eq(contractSigners.userId, applicationId)))
    .limit(1);
  if (!row) throw new AppError(404, 'DOCUMENT_NOT_FOUND', 'document not found', 'No encontramos ese documento.');
  return { contentType: `image/${row.format}`, bytes: app.cipher.decryptBytes(row.data) };
}

/** The application's contract (signed version once anyone signed) and its id. */
export async function applicationContract(app: FastifyInstance, applicationId: string) {
  const [row] = await app.db.select().from(contracts).where(eq(contracts.userId, applicationId)).limit(1);
  if (!row)
    throw new AppError(404, 'CONTRACT_NOT_FOUND', 'contract not found', 'Esta solicitud aún no tiene contrato.');
  return { id: row.id, pdf: openContractPdf(app, row.signedPdf ?? row.unsignedPdf) };
}
