import { col, trace, type TableEntry } from './data-map-types.js';

/** Catalogue, staff, integrations and the audit chain: none of it an applicant's but what is said. */
export const SYSTEM_TABLES: Record<string, TableEntry> = {
  // Failed calls the web app reported: tied to no application, so no erasure finds them; the
  // schedule deletes them at 30 days (migration 0030).
  client_errors: {
    personal: {
      user_agent: trace('Navegador', 'client-errors-30d', 'keep'),
      ip: trace('Dirección IP', 'client-errors-30d', 'keep'),
    },
    notPersonal: ['id', 'level', 'method', 'path', 'status', 'code', 'message', 'request_id', 'created_at'],
  },
  catalog_states: { personal: {}, notPersonal: ['id', 'country', 'code', 'name'] },
  catalog_municipalities: { personal: {}, notPersonal: ['id', 'state_id', 'code', 'name', 'allowed'] },
  catalog_neighborhoods: {
    personal: {},
    notPersonal: ['id', 'municipality_id', 'code', 'name', 'zip_code', 'search_text', 'name_key'],
  },
  catalog_revision: { personal: {}, notPersonal: ['id', 'revision'] },
  catalog_seeds: { personal: {}, notPersonal: ['name', 'version', 'loaded_at'] },
  catalog_business_types: { personal: {}, notPersonal: ['id', 'country', 'name', 'position'] },
  catalog_sales_ranges: { personal: {}, notPersonal: ['id', 'country', 'description', 'position'] },
  webhook_deliveries: { personal: {}, notPersonal: ['provider', 'delivery_id', 'received_at'] },
  // Staff data (their employment), not an applicant's: an applicant's erasure never touches it.
  staff: {
    subject: 'staff',
    personal: {
      email: col('contact', 'contract', 'staff-account', 'keep', 'Correo del empleado'),
      name: col('identity', 'contract', 'staff-account', 'keep', 'Nombre del empleado'),
    },
    notPersonal: [
      'id',
      'role',
      'password_hash',
      'active',
      'enrol_required',
      'session_epoch',
      'last_login_at',
      'created_at',
      'updated_at',
    ],
  },
  staff_sessions: {
    subject: 'staff',
    personal: {
      ip: trace('Dirección IP', 'staff-account', 'keep'),
      user_agent: trace('Navegador', 'staff-account', 'keep'),
    },
    notPersonal: [
      'id_hash',
      'staff_id',
      'stage',
      'auth_method',
      'epoch',
      'factor_at',
      'challenge',
      'created_at',
      'last_seen_at',
    ],
  },
  staff_login_failures: { personal: {}, notPersonal: ['key', 'failures', 'window_started_at', 'locked_until'] },
  staff_totp: {
    personal: {},
    notPersonal: ['staff_id', 'secret_encrypted', 'confirmed_at', 'last_step', 'created_at'],
  },
  staff_passkeys: {
    personal: {},
    notPersonal: [
      'id',
      'staff_id',
      'credential_id',
      'public_key',
      'counter',
      'transports',
      'name',
      'created_at',
      'last_used_at',
    ],
  },
  staff_recovery_codes: { personal: {}, notPersonal: ['id', 'staff_id', 'code_hash', 'used_at', 'created_at'] },
  staff_password_links: {
    personal: {},
    notPersonal: ['id', 'staff_id', 'token_hash', 'issued_by', 'expires_at', 'used_at', 'created_at'],
  },
  // What the lender's systems hear: ids and states only (event-feed/projection.ts picks them).
  application_events: {
    personal: {},
    notPersonal: ['id', 'application_id', 'sequence', 'type', 'version', 'data', 'occurred_at', 'tx_id'],
  },
  webhook_endpoints: {
    personal: {},
    notPersonal: [
      'id',
      'url',
      'description',
      'event_types',
      'secret_encrypted',
      'previous_secret_encrypted',
      'previous_secret_until',
      'failing_since',
      'disabled_at',
      'disabled_reason',
      'created_by',
      'created_at',
      'updated_at',
    ],
  },
  webhook_sends: {
    personal: {},
    notPersonal: [
      'id',
      'event_id',
      'endpoint_id',
      'application_id',
      'sequence',
      'status',
      'attempts',
      'next_attempt_at',
      'leased_until',
      'lease_id',
      'last_attempt_at',
      'last_status_code',
      'last_error',
      'delivered_at',
      'created_at',
    ],
  },
  partner_keys: {
    personal: {},
    notPersonal: [
      'id',
      'name',
      'prefix',
      'token_hash',
      'scopes',
      'expires_at',
      'revoked_at',
      'last_used_at',
      'created_by',
      'created_at',
    ],
  },
  partner_calls: {
    personal: {},
    notPersonal: ['id', 'key_id', 'method', 'route', 'application_id', 'status_code', 'at'],
  },
  // The audit chain holds ids and keyed hashes only (never a personal value), so it outlives erasure.
  audit_events: {
    personal: {},
    notPersonal: ['id', 'application_id', 'actor', 'type', 'payload', 'created_at', 'prev_hash', 'hash'],
  },
  // How far each chain was verified: an event id and its hash (issue 35).
  audit_chain_checkpoints: {
    personal: {},
    notPersonal: ['application_id', 'event_id', 'hash', 'events', 'verified_at'],
  },
  retention_rules: {
    personal: {},
    notPersonal: [
      'id',
      'name',
      'country',
      'position',
      'applies_to',
      'counted_from',
      'age_days',
      'action',
      'enabled',
      'legal_basis',
      'updated_at',
    ],
  },
  retention_runs: { personal: {}, notPersonal: ['id', 'started_at', 'finished_at', 'counts'] },
  // The credit policy's versions (issue 33): rules and thresholds; authors and publishers are staff
  // actors (`staff:<id>`), as in the audit chain.
  credit_policies: {
    personal: {},
    notPersonal: [
      'id',
      'country',
      'number',
      'label',
      'document',
      'status',
      'based_on',
      'author',
      'revision',
      'created_at',
      'updated_at',
      'published_at',
      'published_by',
    ],
  },
  credit_policy_live: {
    personal: {},
    notPersonal: ['country', 'policy_id', 'shadow_policy_id', 'changed_at', 'changed_by'],
  },
  // A backtest's counts and the ids of the applications whose outcome would flip: no value of a person.
  credit_policy_backtests: {
    personal: {},
    notPersonal: [
      'id',
      'policy_id',
      'requested_by',
      'params',
      'status',
      'processed',
      'total',
      'result',
      'created_at',
      'finished_at',
    ],
  },
  // The shadow version's outcome beside a decision: the outcome and the names of the rules that
  // would have refused (the values are the decision's own inputs, kept there).
  credit_shadow_decisions: {
    personal: {},
    notPersonal: ['decision_id', 'policy_id', 'result', 'reasons', 'created_at'],
  },
};
