import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
 * The shopkeeper's application. Registration (personal data, business, consent) adds columns in
 * later migrations; next_step and status drive the web app's routing (SPEC §2.2).
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  phoneE164: text('phone_e164').notNull().unique(),
  userType: text('user_type').notNull().default('SK'),
  nextStep: text('next_step').notNull(),
  status: text('status').notNull().default('IN_PROGRESS'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('avals_user_idx').on(table.userId)],
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
  (table) => [index('phone_codes_phone_idx').on(table.phoneE164, table.purpose, table.createdAt)],
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
  ],
);

/** Reverse OTP: the user sends `message` from their phone to `destination`; the webhook verifies. */
export const reverseOtpSessions = pgTable(
  'reverse_otp_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phoneE164: text('phone_e164').notNull(),
    anonymousId: text('anonymous_id').notNull(),
    nonce: text('nonce').notNull().unique(),
    provider: text('provider').notNull(),
    status: text('status').notNull().default('PENDING'),
    clientIp: text('client_ip'),
    observedIp: text('observed_ip').notNull(),
    fromE164: text('from_e164'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [index('reverse_otp_sessions_phone_idx').on(table.phoneE164, table.createdAt)],
);

/** Messages the outbox SMS provider "sent" (development and tests). */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sms_outbox_to_idx').on(table.to, table.id)],
);

/** Leads handed to the sales team (SPEC §3 lead payload), idempotent on lead_id. */
export const leads = pgTable('leads', {
  leadId: text('lead_id').primaryKey(),
  leadType: text('lead_type').notNull(),
  shopkeeperPhoneE164: text('shopkeeper_phone_e164').notNull(),
  utmSource: text('utm_source'),
  utmMedium: text('utm_medium'),
  utmCampaign: text('utm_campaign'),
  clientCreatedAt: timestamp('client_created_at', { withTimezone: true }).notNull(),
  clientUpdatedAt: timestamp('client_updated_at', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Failed calls the web app reported (SPEC §8 classification). */
export const clientErrors = pgTable('client_errors', {
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
});
