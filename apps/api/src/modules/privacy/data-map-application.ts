import { APP, col, trace, type TableEntry } from './data-map-types.js';

/** The application and what keys on its people or their phones (erasure clears or deletes these). */
export const APPLICATION_TABLES: Record<string, TableEntry> = {
  users: {
    subject: 'applicant',
    personal: {
      phone_e164: col('contact', 'contract', APP, 'tombstone', 'Celular'),
      name: col('identity', 'contract', APP, 'clear', 'Nombre'),
      lastname: col('identity', 'contract', APP, 'clear', 'Primer apellido'),
      maternal_lastname: col('identity', 'contract', APP, 'clear', 'Segundo apellido'),
      dob_encrypted: col('identity', 'contract', APP, 'clear', 'Fecha de nacimiento'),
      length_of_residency_in_years: col('identity', 'contract', APP, 'clear', 'Años de residencia'),
      marital_status: col('identity', 'contract', APP, 'clear', 'Estado civil'),
      tax_id_encrypted: col('identity', 'contract', APP, 'clear', 'Identificación fiscal'),
      tax_id_hash: col('identity', 'contract', APP, 'clear', 'Huella de la identificación fiscal'),
      password_hash: col('technical', 'contract', APP, 'clear', 'Contraseña (cifrada de forma irreversible)'),
      anonymous_id: trace('Identificador del navegador'),
    },
    notPersonal: [
      'id',
      'user_type',
      'next_step',
      'status',
      'utm_source',
      'utm_name',
      'utm_medium',
      'sales_identifier',
      'flow_version_id',
      'password_set_at',
      'step_claim',
      'step_claimed_until',
      'external_id',
      'change_tx',
      'created_at',
      'updated_at',
    ],
  },
  avals: {
    subject: 'guarantor',
    personal: {
      phone_e164: col('contact', 'contract', APP, 'clear', 'Celular del aval'),
      name: col('identity', 'contract', APP, 'clear', 'Nombre del aval'),
      given_names: col('identity', 'contract', APP, 'clear', 'Nombres del aval'),
      lastname: col('identity', 'contract', APP, 'clear', 'Primer apellido del aval'),
      maternal_lastname: col('identity', 'contract', APP, 'clear', 'Segundo apellido del aval'),
      tax_id_encrypted: col('identity', 'contract', APP, 'clear', 'Identificación fiscal del aval'),
      address_encrypted: col('contact', 'contract', APP, 'clear', 'Domicilio del aval'),
    },
    notPersonal: ['id', 'user_id', 'aval_type', 'status', 'invitation_expires_at', 'created_at', 'updated_at'],
  },
  business_addresses: {
    subject: 'applicant',
    personal: {
      zip_code: col('contact', 'contract', APP, 'delete-row', 'Código postal del negocio'),
      state: col('contact', 'contract', APP, 'delete-row', 'Provincia o estado del negocio'),
      city: col('contact', 'contract', APP, 'delete-row', 'Ciudad del negocio'),
      neighborhood: col('contact', 'contract', APP, 'delete-row', 'Sector o colonia del negocio'),
      street_name: col('contact', 'contract', APP, 'delete-row', 'Calle del negocio'),
      street_number: col('contact', 'contract', APP, 'delete-row', 'Número del negocio'),
      apartment_number: col('contact', 'contract', APP, 'delete-row', 'Interior o local'),
    },
    notPersonal: [
      'user_id',
      'municipality_id',
      'neighborhood_typed',
      'neighborhood_reviewed_at',
      'neighborhood_reviewed_by',
      'updated_at',
    ],
  },
  businesses: {
    subject: 'applicant',
    personal: {
      name: col('identity', 'contract', APP, 'delete-row', 'Nombre del negocio'),
      business_type_other: col('financial', 'contract', APP, 'delete-row', 'Giro del negocio (otro)'),
      business_type: col('financial', 'contract', APP, 'delete-row', 'Giro del negocio'),
      sales_range_id: col('financial', 'contract', APP, 'delete-row', 'Rango de ventas semanales'),
      business_age_years: col('financial', 'contract', APP, 'delete-row', 'Antigüedad del negocio (años)'),
    },
    notPersonal: ['user_id', 'updated_at'],
  },
  phone_codes: {
    subject: 'phone',
    personal: { phone_e164: col('contact', 'legitimate-interest', 'phone-proof-24h', 'delete-row', 'Celular') },
    notPersonal: ['id', 'purpose', 'code_hash', 'attempts', 'created_at', 'expires_at', 'consumed_at', 'revoked_at'],
  },
  phone_proof_starts: {
    subject: 'phone',
    personal: {
      phone_e164: col('contact', 'legitimate-interest', 'phone-proof-24h', 'delete-row', 'Celular'),
      ip: trace('Dirección IP', 'phone-proof-24h', 'delete-row'),
    },
    notPersonal: ['id', 'kind', 'created_at'],
  },
  reverse_otp_sessions: {
    subject: 'phone',
    personal: {
      phone_e164: col('contact', 'legitimate-interest', 'phone-proof-24h', 'delete-row', 'Celular'),
      from_e164: col('contact', 'legitimate-interest', 'phone-proof-24h', 'delete-row', 'Celular que envió el mensaje'),
      anonymous_id: trace('Identificador del navegador', 'phone-proof-24h', 'delete-row'),
      client_ip: trace('Dirección IP', 'phone-proof-24h', 'delete-row'),
      observed_ip: trace('Dirección IP observada', 'phone-proof-24h', 'delete-row'),
    },
    notPersonal: [
      'id',
      'key_hash',
      'nonce',
      'provider',
      'status',
      'aval_id',
      'created_at',
      'expires_at',
      'resolved_at',
    ],
  },
  sms_outbox: {
    subject: 'phone',
    personal: {
      to: col('contact', 'legitimate-interest', 'sms-outbox-24h', 'delete-row', 'Celular'),
      body: col('contact', 'legitimate-interest', 'sms-outbox-24h', 'delete-row', 'Mensaje SMS'),
    },
    notPersonal: ['id', 'channel', 'provider_message_id', 'created_at'],
    // The bodies carry live codes and link tokens: the export counts the messages, never shows them.
    exported: { as: 'count', category: 'contact', label: 'Mensajes SMS enviados a tu celular' },
  },
  // Every message sent about the application (issue 34): its number and text only sealed, and only
  // until it is final (three days at most, rule message-texts-3d); an erasure clears them.
  outgoing_messages: {
    subject: 'applicant',
    personal: {
      sealed: col('contact', 'legitimate-interest', 'message-texts-3d', 'clear', 'Mensajes enviados (número y texto)'),
    },
    notPersonal: [
      'id',
      'application_id',
      'kind',
      'channel',
      'fallbacks',
      'provider',
      'provider_message_id',
      'status',
      'error_code',
      'about_kind',
      'about_id',
      'fallback_of',
      'created_at',
      'status_at',
    ],
    // The texts carry codes and link tokens: the export counts the messages, never shows them.
    exported: { as: 'count', category: 'contact', label: 'Mensajes enviados a tu celular (WhatsApp o SMS)' },
  },
  // When each reminder went and whether the applicant came back: steps and times, no one's data.
  application_reminders: {
    personal: {},
    notPersonal: [
      'id',
      'application_id',
      'number',
      'step',
      'status',
      'message_id',
      'sent_at',
      'resume_token_sha256',
      'resume_expires_at',
      'resume_used_at',
      'came_back_at',
    ],
  },
  link_reminders: { personal: {}, notPersonal: ['link_kind', 'link_id', 'application_id', 'message_id', 'sent_at'] },
  reminder_stops: { personal: {}, notPersonal: ['application_id', 'reason', 'created_at'] },
  // When the application first reached each funnel step: the funnel's counts, nothing of the person.
  application_milestones: {
    personal: {},
    notPersonal: [
      'application_id',
      'started_at',
      'utm_source',
      'tax_id_at',
      'business_address_at',
      'business_at',
      'nip_sent_at',
      'consent_at',
      'pre_approved_at',
      'password_at',
      'contract_signed_at',
    ],
  },
  // A number that asked for no more reminders, by keyed hash: kept after an erasure, so the person
  // is never reminded again (their objection is what the law asks us to honour).
  message_opt_outs: {
    subject: 'phone',
    personal: {
      phone_hash: col('contact', 'legal-obligation', 'opt-out-kept', 'keep', 'Baja de recordatorios'),
    },
    notPersonal: ['source', 'channel', 'created_at'],
  },
  leads: {
    subject: 'phone',
    personal: {
      shopkeeper_phone_e164: col('contact', 'legitimate-interest', APP, 'delete-row', 'Celular del prospecto'),
    },
    notPersonal: [
      'lead_id',
      'lead_type',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'client_created_at',
      'client_updated_at',
      'received_at',
    ],
  },
  // An advisor's note is free text about a lead or a contact request: it may hold a phone or a name.
  advisor_tasks: {
    subject: 'applicant',
    personal: { note: col('contact', 'legitimate-interest', APP, 'delete-row', 'Nota del asesor') },
    notPersonal: ['id', 'source', 'source_id', 'claimed_by', 'claimed_at', 'done_by', 'done_at'],
  },
  advisor_events: { personal: {}, notPersonal: ['id', 'user_id', 'contact_type', 'created_at'] },
  lender_decisions: {
    subject: 'applicant',
    personal: {
      amount: col('financial', 'contract', 'signed-contract-legal-minimum', 'keep', 'Monto aprobado'),
      reason: col('financial', 'contract', 'signed-contract-legal-minimum', 'clear', 'Motivo de la decisión'),
    },
    notPersonal: [
      'id',
      'user_id',
      'outcome',
      'currency',
      'term_months',
      'annual_rate_bps',
      'reference',
      'decided_by',
      'created_at',
    ],
  },
  // The applicant's own requests: the record (folio, kind, dates, answer) is what proves the law was served.
  privacy_requests: {
    subject: 'applicant',
    personal: {
      reason: col('contact', 'legal-obligation', 'consent-record-legal-minimum', 'tombstone', 'Motivo de tu solicitud'),
    },
    notPersonal: [
      'id',
      'folio',
      'application_id',
      'kind',
      'field',
      'state',
      'country',
      'deadline',
      'refusal_reason',
      'resolution',
      'created_at',
      'decided_at',
      'decided_by',
    ],
  },
  // A person's wrapped data key: destroying it is what erases their ciphertext.
  person_keys: {
    subject: 'person',
    personal: {
      wrapped_key: col('technical', 'contract', APP, 'destroy-key', 'Llave de cifrado de tus datos'),
    },
    notPersonal: ['person_id', 'wrapped_by', 'created_at', 'destroyed_at'],
  },
};
