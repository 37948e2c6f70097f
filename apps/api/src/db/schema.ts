import {
  ADVISOR_TASK_SOURCES,
  APPLICATION_STATUSES,
  LENDER_OUTCOMES,
  PARTNER_SCOPES,
  IDENTITY_DOCUMENT_KINDS,
  NEXT_STEPS,
  PERSON_TYPES,
  PRIVACY_REQUEST_KINDS,
  PRIVACY_REQUEST_STATES,
  REMINDED_STEPS,
  SIGNER_STATES,
  STAFF_LOGIN_STAGES,
  STAFF_ROLES,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
} from '@provee/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { searchableName } from './searchable-name.js';

/**
 * A transaction's id (64 bits, PostgreSQL's xid8), as text: the partner API pages by the
 * transaction that wrote a row, so a change that commits late is never behind a cursor handed out.
 */
const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => 'xid8',
  fromDriver: (value) => String(value),
});

/** `'A', 'B', …` for a CHECK constraint over a fixed list of the domain's values. */
const oneOf = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * Append-only audit trail. Each row carries the SHA-256 of the previous row of the same
 * application (prev_hash) and its own (hash), so editing or deleting a row breaks the chain.
 * A database trigger refuses UPDATE and DELETE (migration 0001).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    applicationId: text('application_id').notNull(),
    actor: text('actor').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    prevHash: text('prev_hash'),
    hash: text('hash').notNull(),
  },
  (table) => [index('audit_events_application_idx').on(table.applicationId, table.id)],
);

/**
 * How far each audit chain has been verified (issue 35): the event id and hash the check reached.
 * A read verifies only the events after it, from its hash, and moves it on; a full re-verification
 * starts again from the chain's first event.
 */
export const auditChainCheckpoints = pgTable('audit_chain_checkpoints', {
  applicationId: text('application_id').primaryKey(),
  eventId: bigint('event_id', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  /** Events verified up to and including event_id. */
  events: integer('events').notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
});

/**
 * The shopkeeper's application. next_step and status drive the web app's routing (SPEC §2.2);
 * only the step engine (modules/application) writes them, and the database refuses any value
 * that is not a step or status of packages/domain/src/application.ts.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phoneE164: text('phone_e164').notNull().unique(),
    userType: text('user_type').notNull().default('SK'),
    nextStep: text('next_step').$type<(typeof NEXT_STEPS)[number]>().notNull(),
    status: text('status').$type<(typeof APPLICATION_STATUSES)[number]>().notNull().default('IN_PROGRESS'),
    // Personal data (step 1). Birth date and tax id are encrypted (AES-256-GCM, see crypto.ts).
    name: text('name'),
    lastname: text('lastname'),
    maternalLastname: text('maternal_lastname'),
    dobEncrypted: text('dob_encrypted'),
    lengthOfResidencyInYears: integer('length_of_residency_in_years'),
    maritalStatus: text('marital_status'),
    anonymousId: text('anonymous_id'),
    utmSource: text('utm_source'),
    utmName: text('utm_name'),
    utmMedium: text('utm_medium'),
    salesIdentifier: text('sales_identifier'),
    flowVersionId: integer('flow_version_id'),
    taxIdEncrypted: text('tax_id_encrypted'),
    /** Keyed hash of the tax id, for exact lookups without decrypting; one application per person. */
    taxIdHash: text('tax_id_hash').unique(),
    /** argon2id (OWASP parameters; older rows scrypt), see modules/credit/password.ts. */
    passwordHash: text('password_hash'),
    passwordSetAt: timestamp('password_set_at', { withTimezone: true }),
    /** A slow step (the password hash) is claimed first, so a duplicate is refused before any work. */
    stepClaim: uuid('step_claim'),
    stepClaimedUntil: timestamp('step_claimed_until', { withTimezone: true }),
    /** The lender's own id for the application, set through the partner API (issue 30). */
    externalId: text('external_id').unique(),
    /** The transaction that last wrote the row (a trigger sets it): the partner API's list pages by it. */
    changeTx: xid8('change_tx')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // The back office lists applications by last activity (keyset on both columns), or by start
    // given a range of start days (users_created_at_idx below); names are searched through their
    // trigrams (issue 35).
    index('users_updated_at_idx').on(table.updatedAt, table.id),
    // fastupdate off: new names go into the index at once, not into a pending list only a VACUUM
    // merges (until then the planner prices the index high; PGlite runs no autovacuum). Migration
    // 0039 keeps 1,000 statistics entries on its expression (Drizzle's builder has no SET STATISTICS).
    index('users_name_trgm_idx')
      .using('gin', sql`(${searchableName(table)}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    // The list's filters, each in the list's order: a page and its capped count read one range.
    // Migration 0038 adds INCLUDE of the other three filters' columns to each (Drizzle's builder
    // cannot say it), so a count with two filters is one index-only range checked on the second.
    index('users_status_recent_idx').on(table.status, table.updatedAt, table.id),
    index('users_next_step_recent_idx').on(table.nextStep, table.updatedAt, table.id),
    index('users_utm_source_recent_idx').on(table.utmSource, table.updatedAt, table.id),
    index('users_utm_name_recent_idx').on(table.utmName, table.updatedAt, table.id),
    index('users_change_tx_idx').on(table.changeTx, table.id),
    // The funnel counts who started by it; given a range of start days the list pages by it (keyset)
    // and counts in it: migration 0037 adds INCLUDE (status, next_step, utm_source, utm_name), which
    // Drizzle's builder cannot say, so that a count with a filter is one index-only range.
    index('users_created_at_idx').on(table.createdAt, table.id),
    // The reminders' sweep: applications stopped between the phone proof and the password, by when.
    index('users_stopped_idx')
      .on(table.updatedAt)
      .where(sql`${table.status} = 'IN_PROGRESS' and ${table.nextStep} in (${oneOf(REMINDED_STEPS)})`),
    check('users_next_step_check', sql`${table.nextStep} in (${oneOf(NEXT_STEPS)})`),
    check('users_status_check', sql`${table.status} in (${oneOf(APPLICATION_STATUSES)})`),
  ],
);

/**
 * When an application first reached each milestone of the funnel (packages/domain/src/funnel.ts),
 * written by the step engine with the move (issue 35): the funnel reads one row per applicant of its
 * period instead of their audit trails. Applications are never deleted.
 */
export const applicationMilestones = pgTable(
  'application_milestones',
  {
    // No foreign key: the signer's move writes it after locking the signer, and a key-share lock on
    // the application's row then would invert an erasure's order (decision 038's deadlock).
    applicationId: uuid('application_id').primaryKey(),
    // The application's start and source, copied from it with its first milestone: the funnel reads
    // a period's milestones by start without a join (issue 35).
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    utmSource: text('utm_source'),
    taxId: timestamp('tax_id_at', { withTimezone: true }),
    businessAddress: timestamp('business_address_at', { withTimezone: true }),
    business: timestamp('business_at', { withTimezone: true }),
    nipSent: timestamp('nip_sent_at', { withTimezone: true }),
    consent: timestamp('consent_at', { withTimezone: true }),
    preApproved: timestamp('pre_approved_at', { withTimezone: true }),
    password: timestamp('password_at', { withTimezone: true }),
    contractSigned: timestamp('contract_signed_at', { withTimezone: true }),
  },
  (table) => [index('application_milestones_started_at_idx').on(table.startedAt)],
);

/** Guarantors a shopkeeper named (PARTNER or COLLATERAL). */
export const avals = pgTable(
  'avals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    avalType: text('aval_type').notNull(),
    phoneE164: text('phone_e164'),
    /** The guarantor's full name, as the shopkeeper gave it. */
    name: text('name'),
    /** PENDING (waiting for consent) → CONSENTED → APPROVED or REFUSED (policy); REPLACED when another takes the place. */
    status: text('status').notNull().default('PENDING'),
    /** The guarantor's tax id (the bureau is asked under it), encrypted like the shopkeeper's. */
    taxIdEncrypted: text('tax_id_encrypted'),
    /** Given names and surnames apart (null: only the full `name` was given); a bureau files people by them. */
    givenNames: text('given_names'),
    lastname: text('lastname'),
    maternalLastname: text('maternal_lastname'),
    /** The guarantor's home address (a CatalogAddress as JSON), encrypted: where the bureau asks for one. */
    addressEncrypted: text('address_encrypted'),
    /** When the latest invitation's link stops working (its token's expiry): the reminder goes before. */
    invitationExpiresAt: timestamp('invitation_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('avals_user_idx').on(table.userId),
    // A guarantor phone named on more than one application is flagged in the back office.
    index('avals_phone_idx').on(table.phoneE164),
    // One guarantor of each type at a time; a replaced one stays for the record.
    uniqueIndex('avals_one_active_per_type')
      .on(table.userId, table.avalType)
      .where(sql`${table.status} <> 'REPLACED'`),
  ],
);

/** SMS codes: only a keyed hash is kept; one live code per phone (a resend revokes the others). */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phoneE164: text('phone_e164').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    index('phone_codes_phone_idx').on(table.phoneE164, table.purpose, table.createdAt),
    // The retention rule phone-proof-24h walks rows by age (migration 0027).
    index('phone_codes_created_idx').on(table.createdAt),
  ],
);

/** Every start of a phone proof (SMS code or reverse OTP): the rate limits count these rows. */
export const phoneProofStarts = pgTable(
  'phone_proof_starts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    phoneE164: text('phone_e164').notNull(),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('phone_proof_starts_ip_idx').on(table.ip, table.createdAt),
    index('phone_proof_starts_phone_idx').on(table.phoneE164, table.createdAt),
    index('phone_proof_starts_created_idx').on(table.createdAt),
  ],
);

/** Reverse OTP: the user sends `message` from their phone to `destination`; the webhook verifies. */
export const reverseOtpSessions = pgTable(
  'reverse_otp_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * SHA-256 (hex) of the session's key: the `session_id` the browser polls with, which is
     * exchanged for a phone token once the message arrived. Only its hash is stored, like codes and
     * PINs, so a copy of the database cannot be turned into a token.
     */
    keyHash: text('key_hash').notNull().unique(),
    phoneE164: text('phone_e164').notNull(),
    anonymousId: text('anonymous_id').notNull(),
    nonce: text('nonce').notNull().unique(),
    provider: text('provider').notNull(),
    status: text('status').notNull().default('PENDING'),
    clientIp: text('client_ip'),
    observedIp: text('observed_ip').notNull(),
    fromE164: text('from_e164'),
    /** A guarantor's remote consent (the message from their own phone is their consent). */
    avalId: uuid('aval_id').references(() => avals.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [
    index('reverse_otp_sessions_phone_idx').on(table.phoneE164, table.createdAt),
    index('reverse_otp_sessions_created_idx').on(table.createdAt),
  ],
);

/** Messages the outbox SMS provider "sent" (development and tests). */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    body: text('body').notNull(),
    /** 'sms' or 'whatsapp': the simulator's two inboxes. */
    channel: text('channel').notNull().default('sms'),
    /** The simulator's id for the message (outgoing_messages.provider_message_id). */
    providerMessageId: text('provider_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sms_outbox_to_idx').on(table.to, table.id)],
);

/** Leads handed to the sales team (SPEC §3 lead payload), idempotent on lead_id. */
export const leads = pgTable(
  'leads',
  {
    leadId: text('lead_id').primaryKey(),
    leadType: text('lead_type').notNull(),
    shopkeeperPhoneE164: text('shopkeeper_phone_e164').notNull(),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    clientCreatedAt: timestamp('client_created_at', { withTimezone: true }).notNull(),
    clientUpdatedAt: timestamp('client_updated_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // A person's leads in order (the advisor queue: one task per phone, its first lead).
  (table) => [index('leads_phone_idx').on(table.shopkeeperPhoneE164, table.receivedAt, table.leadId)],
);

/** Failed calls the web app reported (SPEC §8 classification). */
export const clientErrors = pgTable(
  'client_errors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    level: text('level').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    code: text('code'),
    message: text('message'),
    requestId: text('request_id'),
    userAgent: text('user_agent'),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The retention rule `client-errors-30d` walks the reports by their date (migration 0030).
  (table) => [index('client_errors_created_idx').on(table.createdAt)],
);

/** Where the business is (step 4). Names as the catalogue spells them. */
export const businessAddresses = pgTable('business_addresses', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  zipCode: text('zip_code').notNull(),
  state: text('state').notNull(),
  city: text('city').notNull(),
  neighborhood: text('neighborhood').notNull(),
  streetName: text('street_name').notNull(),
  streetNumber: text('street_number').notNull(),
  apartmentNumber: text('apartment_number'),
  municipalityId: integer('municipality_id').references(() => catalogMunicipalities.id),
  /** The shopkeeper typed the neighbourhood ('Mi sector no aparece'): not a catalogue name. */
  neighborhoodTyped: boolean('neighborhood_typed').notNull().default(false),
  /** A typed neighbourhood an analyst confirmed or corrected (back office), and who. */
  neighborhoodReviewedAt: timestamp('neighborhood_reviewed_at', { withTimezone: true }),
  neighborhoodReviewedBy: uuid('neighborhood_reviewed_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The business itself (step 5). */
export const businesses = pgTable('businesses', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  name: text('name').notNull(),
  businessType: text('business_type').notNull(),
  businessTypeOther: text('business_type_other'),
  salesRangeId: integer('sales_range_id')
    .notNull()
    .references(() => catalogSalesRanges.id),
  businessAgeYears: integer('business_age_years').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Provinces (do) or states (mx). `code` is the official one (ONE province, INEGI state). */
export const catalogStates = pgTable(
  'catalog_states',
  {
    id: serial('id').primaryKey(),
    country: text('country').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (table) => [uniqueIndex('catalog_states_code').on(table.country, table.code)],
);

/** Municipalities; `allowed` marks the ones the lender serves (SPEC §2.3 item 15). */
export const catalogMunicipalities = pgTable(
  'catalog_municipalities',
  {
    id: serial('id').primaryKey(),
    stateId: integer('state_id')
      .notNull()
      .references(() => catalogStates.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    allowed: boolean('allowed').notNull().default(false),
  },
  (table) => [uniqueIndex('catalog_municipalities_code').on(table.stateId, table.code)],
);

/** Neighbourhoods: the 'Sector' (do) or 'Colonia' (mx), with its zip code where there is one. */
export const catalogNeighborhoods = pgTable(
  'catalog_neighborhoods',
  {
    id: serial('id').primaryKey(),
    municipalityId: integer('municipality_id')
      .notNull()
      .references(() => catalogMunicipalities.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    zipCode: text('zip_code'),
    /** Name, municipality and state folded for search (lower case, no accents). */
    searchText: text('search_text').notNull(),
    nameKey: text('name_key').notNull(),
  },
  (table) => [
    uniqueIndex('catalog_neighborhoods_code').on(table.municipalityId, table.code),
    index('catalog_neighborhoods_zip').on(table.zipCode),
  ],
);

/**
 * One row: a number every change to the catalogue tables moves on (statement triggers, migration
 * 0013), whoever makes it (the seed, the importer CLI, an operator's SQL). Each process keeps the
 * catalogue's answers and its address index until it sees a new number (db/catalog-revision.ts).
 */
export const catalogRevision = pgTable('catalog_revision', {
  id: integer('id').primaryKey().default(1),
  revision: bigint('revision', { mode: 'number' }).notNull().default(0),
});

/** Which version of a shipped catalogue file the start-up seed has loaded (so later starts skip it). */
export const catalogSeeds = pgTable('catalog_seeds', {
  name: text('name').primaryKey(),
  version: text('version').notNull(),
  loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
});

export const catalogBusinessTypes = pgTable(
  'catalog_business_types',
  {
    id: serial('id').primaryKey(),
    country: text('country').notNull(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
  },
  (table) => [uniqueIndex('catalog_business_types_name').on(table.country, table.name)],
);

/** Weekly sales ranges in the country's currency; `position` orders them low to high. */
export const catalogSalesRanges = pgTable(
  'catalog_sales_ranges',
  {
    id: serial('id').primaryKey(),
    country: text('country').notNull(),
    description: text('description').notNull(),
    position: integer('position').notNull(),
  },
  (table) => [uniqueIndex('catalog_sales_ranges_position').on(table.country, table.position)],
);

/**
 * The bureau-query authorisation, provable years later: the exact text shown, its hash and
 * version, when, from where, with the PIN verified, and the folio the bureau is queried under.
 * Append-only: triggers refuse UPDATE and DELETE (migration 0005).
 */
export const bureauConsents = pgTable(
  'bureau_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    personType: text('person_type').notNull(),
    /** The guarantor who consented (person type 'collateral'); null for the shopkeeper's own consent. */
    avalId: uuid('aval_id').references(() => avals.id),
    consentText: text('consent_text').notNull(),
    consentTextSha256: text('consent_text_sha256').notNull(),
    consentVersion: text('consent_version').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The client's address as trusted (TRUST_PROXY): the evidence's IP. */
    ip: text('ip').notNull(),
    /** The address the connection came from (the proxy, behind one), and X-Forwarded-For as received. */
    peerIp: text('peer_ip'),
    forwardedFor: text('forwarded_for'),
    userAgent: text('user_agent'),
    pinVerified: boolean('pin_verified').notNull(),
    /** The PIN the person typed, encrypted: a bureau that audits consents asks for it (Círculo's NIP audit). */
    pinEncrypted: text('pin_encrypted'),
    bureauFolio: text('bureau_folio').notNull().unique(),
    authorizedUntil: timestamp('authorized_until', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('bureau_consents_user_idx').on(table.userId, table.createdAt),
    // The retention schedule's consent records past their legal minimum (0028).
    index('bureau_consents_created_idx').on(table.createdAt),
  ],
);

/** One bureau query per consent, retried in the background with back-off until it answers. */
export const bureauQueries = pgTable(
  'bureau_queries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    consentId: uuid('consent_id')
      .notNull()
      .unique()
      .references(() => bureauConsents.id),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Due from then, by the database's clock (the job queue's too); now when written. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /**
     * Why a FAILED query will not be tried again by itself: 'exhausted' (every attempt failed),
     * 'refused' (the bureau refused the request as sent) or 'integrity' (an answer whose signature
     * did not verify). null while it may still answer.
     */
    failure: text('failure'),
    report: jsonb('report').$type<Record<string, unknown>>(),
    /** The bureau's answer as received (a real bureau's), encrypted: the evidence behind the report. */
    reportRawEncrypted: text('report_raw_encrypted'),
    /**
     * Who the bureau was asked about (the BureauSubject sent), encrypted, where a consent audit is
     * owed for the answer: the audit sends the person as asked, whatever changed since.
     */
    subjectEncrypted: text('subject_encrypted'),
    /** The bureau that answered ('simulator', 'circulo'). */
    provider: text('provider'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('bureau_queries_due_idx').on(table.status, table.nextAttemptAt),
    check('bureau_queries_failure_check', sql`${table.failure} in ('exhausted', 'refused', 'integrity')`),
    index('bureau_queries_user_idx').on(table.userId),
  ],
);

/**
 * The consent's evidence sent to a bureau that audits it after the query (Círculo's NIP audit),
 * one per answered query, retried in the background with back-off until the bureau acknowledges it.
 */
export const bureauConsentAudits = pgTable(
  'bureau_consent_audits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    queryId: uuid('query_id')
      .notNull()
      .unique()
      .references(() => bureauQueries.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** PENDING → RUNNING → DONE; REFUSED when the bureau refuses it as sent (an analyst looks). */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Due from then, by the database's clock (the job queue's too); now when written. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** The bureau's acknowledgement (Círculo's folioCDC). */
    auditFolio: text('audit_folio'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('bureau_consent_audits_due_idx').on(table.status, table.nextAttemptAt),
    index('bureau_consent_audits_user_idx').on(table.userId),
    check('bureau_consent_audits_status', sql`${table.status} in ('PENDING', 'RUNNING', 'DONE', 'REFUSED')`),
  ],
);

/** Every credit decision with what it was made from, so an analyst can tell why. Append-only. */
export const creditDecisions = pgTable(
  'credit_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    consentId: uuid('consent_id')
      .notNull()
      .unique()
      .references(() => bureauConsents.id),
    /** A decision on a guarantor (the policy's guarantor rules); null for the shopkeeper's. */
    avalId: uuid('aval_id').references(() => avals.id),
    policyVersion: text('policy_version').notNull(),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull(),
    rules: jsonb('rules').$type<{ rule: string; passed: boolean; value: unknown; threshold: unknown }[]>().notNull(),
    result: text('result').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    bureauReportFolio: text('bureau_report_folio'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  // The user detail and the back office read an application's decisions by user (issue 14: a
  // sequential scan made the user detail's p99 grow with the number of users).
  (table) => [
    index('credit_decisions_user_idx').on(table.userId, table.createdAt),
    // The policy lab's backtests read the shopkeepers' decisions of a date range (issue 33).
    index('credit_decisions_created_idx')
      .on(table.createdAt, table.id)
      .where(sql`${table.avalId} IS NULL`),
  ],
);

/**
 * The credit policy's versions per country (issue 33, decision 037): a draft an analyst writes, then
 * published by an admin who did not write it, immutable from then on (a trigger of migration 0031
 * refuses any change to a published document). `label` is what decisions record as their version.
 */
export const creditPolicies = pgTable(
  'credit_policies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    country: text('country').notNull(),
    /** 1, 2, 3 … per country, in the order the versions were begun. */
    number: integer('number').notNull(),
    label: text('label').notNull(),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull(),
    /** The version the draft was begun from. */
    basedOn: uuid('based_on'),
    /** `staff:<id>`, or `system` for the first version. */
    author: text('author').notNull(),
    /** Every save of a draft counts one: a publish names the revision its admin read. */
    revision: integer('revision').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    publishedBy: text('published_by'),
  },
  (table) => [
    uniqueIndex('credit_policies_number').on(table.country, table.number),
    uniqueIndex('credit_policies_label').on(table.country, table.label),
    check('credit_policies_status_check', sql`${table.status} in ('DRAFT', 'PUBLISHED', 'DISCARDED')`),
    check(
      'credit_policies_published_check',
      sql`${table.status} <> 'PUBLISHED' OR (${table.publishedAt} IS NOT NULL AND ${table.publishedBy} IS NOT NULL)`,
    ),
  ],
);

/** Per country: the version that decides, and the one that runs in shadow beside it (never acted on). */
export const creditPolicyLive = pgTable('credit_policy_live', {
  country: text('country').primaryKey(),
  policyId: uuid('policy_id')
    .notNull()
    .references(() => creditPolicies.id),
  shadowPolicyId: uuid('shadow_policy_id').references(() => creditPolicies.id),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  changedBy: text('changed_by').notNull(),
});

/** What the shadow version would have decided, beside each decision the live one made. */
export const creditShadowDecisions = pgTable(
  'credit_shadow_decisions',
  {
    decisionId: uuid('decision_id')
      .primaryKey()
      .references(() => creditDecisions.id),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => creditPolicies.id),
    result: text('result').notNull(),
    /** The rules that would have refused, by name (the values are the decision's own inputs). */
    reasons: jsonb('reasons').$type<string[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('credit_shadow_decisions_policy_idx').on(table.policyId, table.createdAt)],
);

/** A backtest of a version over past decisions: its range, its progress and its counts. */
export const creditPolicyBacktests = pgTable(
  'credit_policy_backtests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => creditPolicies.id),
    requestedBy: text('requested_by').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull(),
    processed: integer('processed').notNull().default(0),
    total: integer('total').notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('credit_policy_backtests_policy_idx').on(table.policyId, table.createdAt),
    check('credit_policy_backtests_status_check', sql`${table.status} in ('RUNNING', 'DONE', 'FAILED')`),
  ],
);

/** How the shopkeeper chose to continue with an advisor (SPEC §4). */
export const advisorEvents = pgTable(
  'advisor_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    contactType: text('contact_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('advisor_events_user_idx').on(table.userId, table.createdAt)],
);

/** Binary columns (encrypted files, PDFs): Buffer in, Uint8Array or Buffer out (PGlite, postgres.js). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  fromDriver: (value) => (value instanceof Uint8Array ? value : Buffer.from(value as string, 'hex')),
});

/**
 * The credit contract of an application: the unsigned document (versioned template, rendered once
 * when the first signing link is issued, and never changed after the first signature) and the
 * signed version with its SHA-256, re-rendered under a row lock at every signature.
 */
export const contracts = pgTable('contracts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id),
  country: text('country').notNull(),
  templateVersion: text('template_version').notNull(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  /** The guarantors printed on the document, in signature-slot order (slot 0 is the titular). */
  avalIds: jsonb('aval_ids').$type<string[]>().notNull(),
  unsignedPdf: bytea('unsigned_pdf').notNull(),
  unsignedSha256: text('unsigned_sha256').notNull(),
  signedPdf: bytea('signed_pdf'),
  signedSha256: text('signed_sha256'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * One signer of a contract: the shopkeeper (titular) or a guarantor (collateral). `state` moves only
 * through the step engine's signer transitions (modules/application), each with its audit event.
 */
export const contractSigners = pgTable(
  'contract_signers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    personType: text('person_type').notNull(),
    avalId: uuid('aval_id').references(() => avals.id),
    name: text('name').notNull(),
    phoneE164: text('phone_e164').notNull(),
    state: text('state').notNull(),
    /** Checks started so far, and attempts granted beyond the configured maximum (back office). */
    verificationAttempts: integer('verification_attempts').notNull().default(0),
    extraAttempts: integer('extra_attempts').notNull().default(0),
    /** The check whose answer counts; an answer for another (superseded) check is ignored. */
    currentVerificationId: uuid('current_verification_id'),
    lastVerificationStatus: text('last_verification_status'),
    /** The verifier's identity id (MetaMap's mati_identity_id). */
    identityId: text('identity_id'),
    signaturePngEncrypted: bytea('signature_png_encrypted'),
    signatureSha256: text('signature_sha256'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    /** What the signing recorded: IP, user agent, geolocation, verification, consent, hashes. */
    evidence: jsonb('evidence').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('contract_signers_user_idx').on(table.userId),
    uniqueIndex('contract_signers_one_titular')
      .on(table.contractId)
      .where(sql`${table.personType} = 'titular'`),
    uniqueIndex('contract_signers_one_per_aval').on(table.contractId, table.avalId),
    check('contract_signers_person_type_check', sql`${table.personType} in (${oneOf(PERSON_TYPES)})`),
    check('contract_signers_state_check', sql`${table.state} in (${oneOf(SIGNER_STATES)})`),
    check(
      'contract_signers_last_status_check',
      sql`${table.lastVerificationStatus} is null or ${table.lastVerificationStatus} in (${oneOf(VERIFICATION_STATUSES)})`,
    ),
  ],
);

/**
 * Signing links sent by SMS. The link's token is signed and expiring; the row says whether it was
 * used (the signature) or replaced by a newer link, so such a link stops working at once.
 */
export const contractLinks = pgTable(
  'contract_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    signerId: uuid('signer_id')
      .notNull()
      .references(() => contractSigners.id),
    issuedBy: text('issued_by').notNull(),
    /**
     * SHA-256 (hex) of the link's token: 32 random bytes the SMS carries and nobody else keeps. Null
     * only on links issued before tokens were stored so (they open nothing any more).
     */
    tokenSha256: text('token_sha256').unique(),
    /** 'sign': the signing link; 'copy': the signed copy's link, which only reads. */
    purpose: text('purpose').notNull().default('sign'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('contract_links_signer_idx').on(table.signerId),
    check('contract_links_purpose_check', sql`${table.purpose} in ('sign', 'copy')`),
  ],
);

/**
 * The lender's seal on a fully signed contract (issue 36): the certificate that sealed it (PAdES),
 * its RFC 3161 time-stamp (added in place once the authority answers: 'waiting' until then), and
 * for COUNTRY=mx its NOM-151 conservation certificate. No personal data: hashes, dates, names of
 * the lender's certificate and of the providers.
 */
export const contractSeals = pgTable(
  'contract_seals',
  {
    contractId: uuid('contract_id')
      .primaryKey()
      .references(() => contracts.id),
    certificateName: text('certificate_name').notNull(),
    certificateSha256: text('certificate_sha256').notNull(),
    /** Sealed with a development certificate (never in production). */
    development: boolean('development').notNull(),
    sealedAt: timestamp('sealed_at', { withTimezone: true }).notNull(),
    /** The file's SHA-256 as sealed, before its time-stamp went in. */
    sealedSha256: text('sealed_sha256').notNull(),
    /** 'waiting' for the authority, or 'stamped'. */
    timestampStatus: text('timestamp_status').notNull(),
    timestampAttempts: integer('timestamp_attempts').notNull().default(0),
    timestampError: text('timestamp_error'),
    timestampAuthority: text('timestamp_authority'),
    /** The token's genTime, and when it was added to the file. */
    timestampTime: timestamp('timestamp_time', { withTimezone: true }),
    timestampSerial: text('timestamp_serial'),
    timestampedAt: timestamp('timestamped_at', { withTimezone: true }),
    /** 'not_required' (not COUNTRY=mx), 'waiting' (for the time-stamp, then the provider), or 'issued'. */
    nom151Status: text('nom151_status').notNull(),
    nom151Provider: text('nom151_provider'),
    nom151Reference: text('nom151_reference'),
    /** The provider's certificate: an RFC 3161 TimeStampResp (DER) over `nom151_sha256`. */
    nom151Record: bytea('nom151_record'),
    nom151Sha256: text('nom151_sha256'),
    nom151IssuedAt: timestamp('nom151_issued_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    check('contract_seals_timestamp_status_check', sql`${table.timestampStatus} in ('waiting', 'stamped')`),
    check('contract_seals_nom151_status_check', sql`${table.nom151Status} in ('not_required', 'waiting', 'issued')`),
    index('contract_seals_waiting_idx')
      .on(table.sealedAt)
      .where(sql`${table.timestampStatus} = 'waiting' or ${table.nom151Status} = 'waiting'`),
  ],
);

/**
 * Vendors' webhook deliveries already processed, by the vendor's id for them (Twilio's MessageSid;
 * MetaMap sends none: the SHA-256 of the signed body). A replay finds its row and changes nothing;
 * the row is written in the transaction of the delivery's effect where it has one.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    provider: text('provider').notNull(),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('webhook_deliveries_key').on(table.provider, table.deliveryId)],
);

/** Identity checks (ID front and back, selfie) and the verifier's answer. */
export const identityVerifications = pgTable(
  'identity_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    signerId: uuid('signer_id')
      .notNull()
      .references(() => contractSigners.id),
    provider: text('provider').notNull(),
    verificationType: text('verification_type').notNull(),
    /** PENDING until the verifier answers. */
    status: text('status').notNull(),
    /** The provider's own id of this check (MetaMap's verification id). */
    providerVerificationId: text('provider_verification_id').unique(),
    identityId: text('identity_id'),
    /** When the simulator answers (null for real providers, which call the webhook). */
    answerDueAt: timestamp('answer_due_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** Who answered: 'provider:<name>' or 'staff:<id>', and the provider's payload or the staff note. */
    answeredBy: text('answered_by'),
    answer: jsonb('answer').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('identity_verifications_signer_idx').on(table.signerId, table.createdAt),
    index('identity_verifications_due_idx')
      .on(table.answerDueAt)
      .where(sql`${table.status} = 'PENDING'`),
    check('identity_verifications_status_check', sql`${table.status} in ('PENDING', ${oneOf(VERIFICATION_STATUSES)})`),
    check('identity_verifications_type_check', sql`${table.verificationType} in (${oneOf(VERIFICATION_TYPES)})`),
  ],
);

/** The images of a check, encrypted (AES-256-GCM); the format and size are checked by content first. */
export const identityDocuments = pgTable(
  'identity_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => identityVerifications.id),
    kind: text('kind').notNull(),
    format: text('format').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    /** SHA-256 of the bytes the phone sent, for photos sent one at a time (identity_photo_uploads). */
    uploadSha256: text('upload_sha256'),
    dataEncrypted: bytea('data_encrypted').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('identity_documents_one_per_kind').on(table.verificationId, table.kind),
    check('identity_documents_kind_check', sql`${table.kind} in (${oneOf(IDENTITY_DOCUMENT_KINDS)})`),
  ],
);

/**
 * Identity photos the built-in widget sends one at a time, as each is accepted (issue 27, decision
 * 024): decoded and kept as the product's copy like identity_documents, until a check takes them
 * (moved into identity_documents in the check's transaction). One per signer and kind: a new photo
 * of a kind replaces the one before. `upload_sha256` names the bytes as sent, the phone's key.
 */
export const identityPhotoUploads = pgTable(
  'identity_photo_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    signerId: uuid('signer_id')
      .notNull()
      .references(() => contractSigners.id),
    kind: text('kind').notNull(),
    uploadSha256: text('upload_sha256').notNull(),
    format: text('format').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    dataEncrypted: bytea('data_encrypted').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('identity_photo_uploads_one_per_kind').on(table.signerId, table.kind),
    check('identity_photo_uploads_kind_check', sql`${table.kind} in (${oneOf(IDENTITY_DOCUMENT_KINDS)})`),
  ],
);

/**
 * People at the lender (back office). Accounts are created by the CLI or an admin; a deactivated
 * account keeps its row (the audit trail names it) but cannot log in.
 */
export const staff = pgTable(
  'staff',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased. */
    email: text('email').notNull().unique(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    /** argon2id, like the shopkeepers' passwords; null until the owner sets one through a password link. */
    passwordHash: text('password_hash'),
    active: boolean('active').notNull().default(true),
    /** An admin reset the second factors: the next login enrols one, whatever the role. */
    enrolRequired: boolean('enrol_required').notNull().default(false),
    /**
     * Moves on at every change that must end the account's sessions (role, deactivation, factor reset,
     * new password): a session opened under an earlier value reads as none, even one a request still
     * in flight writes after the change.
     */
    sessionEpoch: integer('session_epoch').notNull().default(0),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [check('staff_role_check', sql`${table.role} in (${oneOf(STAFF_ROLES)})`)],
);

/**
 * Back-office sessions (@fastify/session's store). Keyed by the SHA-256 of the session id, so a
 * copy of this table opens nothing; a row removed (logout, deactivation) ends the session at once.
 * A session opens at the first factor (password or single sign-on) in stage 'factor' or 'enrol' and
 * reaches the back office ('active') only once the second factor is given, when one applies.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id),
    stage: text('stage').notNull().default('active'),
    authMethod: text('auth_method').notNull().default('password'),
    /** The account's session_epoch when the login began. */
    epoch: integer('epoch').notNull().default(0),
    /** When a second factor was last given in this session (step-up counts from it). */
    factorAt: timestamp('factor_at', { withTimezone: true }),
    /** The WebAuthn challenge this session was last given (single use). */
    challenge: text('challenge'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (table) => [
    index('staff_sessions_staff_idx').on(table.staffId),
    check('staff_sessions_stage_check', sql`${table.stage} in (${oneOf(STAFF_LOGIN_STAGES)})`),
    check('staff_sessions_auth_method_check', sql`${table.authMethod} in ('password', 'sso')`),
  ],
);

/**
 * Failed logins counted per key (the keyed hash of an e-mail, known or not, so both answer alike; or
 * the client address), shared by every replica. The window starts at the first failure.
 */
export const staffLoginFailures = pgTable('staff_login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** An authenticator app (RFC 6238). The secret is encrypted; `last_step` refuses a code used before. */
export const staffTotp = pgTable('staff_totp', {
  staffId: uuid('staff_id')
    .primaryKey()
    .references(() => staff.id),
  secretEncrypted: bytea('secret_encrypted').notNull(),
  /** Null until the first code from the app confirms the enrolment. */
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** Passkeys (WebAuthn credentials), verified by SimpleWebAuthn. */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id),
    /** base64url, as the browser gives it. */
    credentialId: text('credential_id').notNull().unique(),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('staff_passkeys_staff_idx').on(table.staffId)],
);

/** Single-use recovery codes, stored as keyed hashes. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('staff_recovery_codes_hash_idx').on(table.staffId, table.codeHash)],
);

/** Single-use links to set a password (a new account, or recovery), issued by an admin; stored hashed. */
export const staffPasswordLinks = pgTable(
  'staff_password_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id')
      .notNull()
      .references(() => staff.id),
    tokenHash: text('token_hash').notNull().unique(),
    issuedBy: text('issued_by').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('staff_password_links_staff_idx').on(table.staffId)],
);

/**
 * An advisor's work on a contact request (advisor_events) or a new lead (leads): who claimed it and
 * when it was done. The sources stay append-only; this row says where the work stands.
 */
export const advisorTasks = pgTable(
  'advisor_tasks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    source: text('source').notNull(),
    sourceId: text('source_id').notNull(),
    claimedBy: uuid('claimed_by').references(() => staff.id),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    doneBy: uuid('done_by').references(() => staff.id),
    doneAt: timestamp('done_at', { withTimezone: true }),
    note: text('note'),
  },
  (table) => [
    uniqueIndex('advisor_tasks_source_idx').on(table.source, table.sourceId),
    check('advisor_tasks_source_check', sql`${table.source} in (${oneOf(ADVISOR_TASK_SOURCES)})`),
  ],
);

/**
 * The lender's decision after PENDING_APPROVAL (issue 30): one of each outcome per application at
 * most, written by the step engine's move with its audit event.
 */
export const lenderDecisions = pgTable(
  'lender_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    outcome: text('outcome').$type<(typeof LENDER_OUTCOMES)[number]>().notNull(),
    /** An approval's final amount (the currency's units), term and yearly rate (basis points). */
    amount: integer('amount'),
    currency: text('currency'),
    termMonths: integer('term_months'),
    annualRateBps: integer('annual_rate_bps'),
    /** A decline's reason (for the file; the shopkeeper reads a kind message). */
    reason: text('reason'),
    /** A disbursement's reference in the lender's systems. */
    reference: text('reference'),
    /** 'staff:<id>' or 'partner-key:<id>'. */
    decidedBy: text('decided_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('lender_decisions_user_outcome_idx').on(table.userId, table.outcome),
    check('lender_decisions_outcome_check', sql`${table.outcome} in (${oneOf(LENDER_OUTCOMES)})`),
  ],
);

/**
 * What the lender's systems hear about an application (issue 30): a public projection of its audit
 * events (ids and states only), numbered per application so a receiver can order them. Written in
 * the transaction of the change; the id is the events feed's cursor.
 */
export const applicationEvents = pgTable(
  'application_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => users.id),
    sequence: integer('sequence').notNull(),
    type: text('type').notNull(),
    version: integer('version').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** The transaction that wrote it: the events feed pages by it (a late commit is never skipped). */
    txId: xid8('tx_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (table) => [
    uniqueIndex('application_events_sequence_idx').on(table.applicationId, table.sequence),
    index('application_events_occurred_idx').on(table.occurredAt),
    index('application_events_feed_idx').on(table.txId, table.id),
  ],
);

/** Where the lender's systems receive the events (Standard Webhooks), managed by admins. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  /** The event types sent; every type when empty. */
  eventTypes: text('event_types').array().notNull(),
  /** The signing secret (`whsec_…`), encrypted; during a rotation the previous one signs too. */
  secretEncrypted: text('secret_encrypted').notNull(),
  previousSecretEncrypted: text('previous_secret_encrypted'),
  previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
  /** Since when every delivery failed (null while it answers); five days of it disable the endpoint. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  disabledReason: text('disabled_reason'),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * One event for one endpoint: sent in sequence order per application and endpoint (the next waits
 * for the one before), tried again on the retry schedule, failed for good after its last try.
 */
export const webhookSends = pgTable(
  'webhook_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => applicationEvents.id),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    applicationId: uuid('application_id').notNull(),
    sequence: integer('sequence').notNull(),
    status: text('status').$type<'PENDING' | 'DELIVERED' | 'FAILED'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Due from then, by the database's clock (the job queue's too); now when written. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker sending it now holds it until then (a crash lets it go), under this lease's id. */
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    leaseId: uuid('lease_id'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('webhook_sends_event_endpoint_idx').on(table.eventId, table.endpointId),
    index('webhook_sends_order_idx').on(table.endpointId, table.applicationId, table.sequence),
    index('webhook_sends_log_idx').on(table.endpointId, table.createdAt),
    // The sweep's look for stalled sends across every endpoint: only the pending few are indexed.
    index('webhook_sends_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'PENDING'`),
    check('webhook_sends_status_check', sql`${table.status} in ('PENDING', 'DELIVERED', 'FAILED')`),
  ],
);

/** Keys of the lender's systems for /partner/v1 (issue 30): shown once, stored as a keyed hash. */
export const partnerKeys = pgTable(
  'partner_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The key's first characters, so staff can tell keys apart (never enough to use it). */
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    scopes: text('scopes').array().$type<(typeof PARTNER_SCOPES)[number][]>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [check('partner_keys_scopes_check', sql`${table.scopes} <@ array[${oneOf(PARTNER_SCOPES)}]::text[]`)],
);

/** Every call of a partner key: which key, what it asked, how it was answered (issue 30). */
export const partnerCalls = pgTable(
  'partner_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => partnerKeys.id),
    method: text('method').notNull(),
    route: text('route').notNull(),
    applicationId: uuid('application_id'),
    statusCode: integer('status_code').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [index('partner_calls_key_idx').on(table.keyId, table.at)],
);

/**
 * A data key per person (a shopkeeper's users.id or a guarantor's avals.id; no foreign key, since it
 * is either and must outlive an erased row), wrapped by the application key `wrapped_by` names.
 * Erasure clears `wrapped_key` and sets `destroyed_at`: the row stays as a tombstone so the person
 * never gets a new key (decision 032).
 */
export const personKeys = pgTable(
  'person_keys',
  {
    personId: uuid('person_id').primaryKey(),
    wrappedKey: text('wrapped_key'),
    wrappedBy: text('wrapped_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    destroyedAt: timestamp('destroyed_at', { withTimezone: true }),
  },
  (table) => [
    check('person_keys_destroyed_check', sql`(${table.wrappedKey} is null) = (${table.destroyedAt} is not null)`),
  ],
);

/**
 * A person's requests over their data (issue 31, modules/privacy): folio, kind, reason, the legal
 * deadline and the answer. No foreign key to users: the request outlives an erasure of the application.
 */
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    folio: text('folio').notNull().unique(),
    applicationId: uuid('application_id').notNull(),
    kind: text('kind').$type<(typeof PRIVACY_REQUEST_KINDS)[number]>().notNull(),
    reason: text('reason').notNull(),
    /** The field a rectification is about (RECTIFIABLE_FIELDS). */
    field: text('field'),
    state: text('state').$type<(typeof PRIVACY_REQUEST_STATES)[number]>().notNull().default('RECEIVED'),
    country: text('country').notNull(),
    /** The last day to answer (business days per country, packages/domain/src/privacy-requests.ts). */
    deadline: date('deadline', { mode: 'string' }).notNull(),
    refusalReason: text('refusal_reason'),
    /** What was done (e.g. 'erased', 'rectified:name'), for the applicant's list. */
    resolution: text('resolution'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
  },
  (table) => [
    uniqueIndex('privacy_requests_one_open_idx')
      .on(table.applicationId, table.kind)
      .where(sql`${table.state} in ('RECEIVED', 'IN_PROGRESS')`),
    index('privacy_requests_application_idx').on(table.applicationId),
    index('privacy_requests_deadline_idx')
      .on(table.deadline)
      .where(sql`${table.state} in ('RECEIVED', 'IN_PROGRESS')`),
    check('privacy_requests_kind_check', sql`${table.kind} in (${oneOf(PRIVACY_REQUEST_KINDS)})`),
    check('privacy_requests_state_check', sql`${table.state} in (${oneOf(PRIVACY_REQUEST_STATES)})`),
    check('privacy_requests_refusal_check', sql`${table.state} <> 'REFUSED' OR ${table.refusalReason} IS NOT NULL`),
  ],
);

/**
 * The retention schedule as data (issue 31, modules/privacy/retention-*.ts): what a rule applies to,
 * the date its age counts from, the age in days, the action, and whether it is on. `country` null:
 * every country; set: that country's rows only (legal minimums differ by law). Seeded by migration
 * 0025; the allowed values are CHECKs there and `RETENTION_TARGETS` in the module.
 */
export const retentionRules = pgTable(
  'retention_rules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    country: text('country'),
    position: integer('position').notNull(),
    appliesTo: text('applies_to').notNull(),
    countedFrom: text('counted_from').notNull(),
    ageDays: integer('age_days').notNull(),
    action: text('action').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    legalBasis: text('legal_basis').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('retention_rules_name_country').on(table.name, sql`coalesce(${table.country}, '*')`),
    check('retention_rules_age_check', sql`${table.ageDays} > 0`),
  ],
);

/** One run of the retention schedule: its counts per rule (also in its audit event), for the back office. */
export const retentionRuns = pgTable(
  'retention_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
    /** Per rule: what it erased or deleted (`done`), found due but held (`refused`: a legal hold) or failed on. */
    counts: jsonb('counts').$type<Record<string, { done: number; refused: number; failed: number }>>().notNull(),
  },
  (table) => [index('retention_runs_started_idx').on(table.startedAt)],
);

/**
 * Every message sent to a person (codes, PINs, links, reminders), one row per channel tried: its
 * delivery status as the provider reports it (status callbacks), never its text in clear. The text
 * and number stay sealed (field cipher) until the message is final, so a failed WhatsApp delivery
 * can still fall back to SMS; then they are cleared.
 */
export const outgoingMessages = pgTable(
  'outgoing_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The application it concerns, when there is one (a phone proof's code comes before any). No
     * foreign key: its lock on the application's row, taken by a link's or a copy's transaction
     * after the signer's, would invert an erasure's order (application, then signers) and deadlock.
     * Applications are never deleted.
     */
    applicationId: uuid('application_id'),
    /** What the message is (MESSAGE_KINDS): the back office shows this, never the text. */
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    /** The channels still to try after this one, in order ('sms' after a WhatsApp that fails). */
    fallbacks: text('fallbacks')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    provider: text('provider').notNull(),
    /** The provider's id for it (Twilio's MessageSid): status callbacks name it. */
    providerMessageId: text('provider_message_id'),
    /** pending → queued → sent → delivered → read; failed, undelivered or dropped end it. */
    status: text('status').notNull().default('pending'),
    /** The provider's error code of a failure (Twilio's 63003: no WhatsApp at that number). */
    errorCode: text('error_code'),
    /** {to, body, variables} sealed with the field cipher; null once the message is final. */
    sealed: text('sealed'),
    /** What it is for (a code, a link), asked before each try whether it is still worth sending. */
    aboutKind: text('about_kind'),
    aboutId: text('about_id'),
    /** The row of the channel tried before this one, when this is its fallback. */
    fallbackOf: uuid('fallback_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    statusAt: timestamp('status_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('outgoing_messages_application_idx').on(table.applicationId, table.createdAt),
    uniqueIndex('outgoing_messages_provider_id').on(table.provider, table.providerMessageId),
    // One fallback per message, whichever path (the sender, a status report) makes it first.
    uniqueIndex('outgoing_messages_fallback_of').on(table.fallbackOf),
    // The retention rule message-texts-3d walks the messages still holding their text.
    index('outgoing_messages_sealed_idx')
      .on(table.createdAt)
      .where(sql`${table.sealed} is not null`),
    check('outgoing_messages_channel_check', sql`${table.channel} in ('whatsapp', 'sms')`),
  ],
);

/** Numbers that asked for no more reminders (a "BAJA" reply or the template's button), by keyed hash. */
export const messageOptOuts = pgTable('message_opt_outs', {
  phoneHash: text('phone_hash').primaryKey(),
  /** How it was asked: 'reply' (a text), 'button' (the template's opt-out button). */
  source: text('source').notNull(),
  channel: text('channel').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The reminders of an application whose applicant stopped between the phone proof and the
 * password: at most REMINDER_DELAYS' count, each with a single-use resume link (its token stored
 * hashed). `cameBackAt`: the applicant moved on after this reminder (the funnel counts it).
 */
export const applicationReminders = pgTable(
  'application_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => users.id),
    number: integer('number').notNull(),
    /** Where the applicant stood when reminded. */
    step: text('step').notNull(),
    status: text('status').notNull(),
    messageId: uuid('message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    resumeTokenSha256: text('resume_token_sha256').unique(),
    resumeExpiresAt: timestamp('resume_expires_at', { withTimezone: true }).notNull(),
    resumeUsedAt: timestamp('resume_used_at', { withTimezone: true }),
    cameBackAt: timestamp('came_back_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('application_reminders_number').on(table.applicationId, table.number),
    index('application_reminders_sent_idx').on(table.sentAt),
    index('application_reminders_open_idx')
      .on(table.applicationId)
      .where(sql`${table.cameBackAt} is null`),
  ],
);

/**
 * Applications that get no more reminders though their step would say so: the number opted out
 * (BAJA). The sweep reads it to leave them out.
 */
export const reminderStops = pgTable('reminder_stops', {
  applicationId: uuid('application_id')
    .primaryKey()
    .references(() => users.id),
  reason: text('reason').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/**
 * The one reminder a guarantor (their invitation) or a signer (their signing link) gets before
 * their link expires: one row per link reminded, so two sweeps at once send it once.
 */
export const linkReminders = pgTable(
  'link_reminders',
  {
    /** 'aval-invitation' (the aval's id) or 'signing-link' (the contract link's id). */
    linkKind: text('link_kind').notNull(),
    linkId: text('link_id').notNull(),
    /** No foreign key, as outgoing_messages: written after the signer's lock (a signing link's reminder). */
    applicationId: uuid('application_id').notNull(),
    messageId: uuid('message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.linkKind, table.linkId] })],
);
