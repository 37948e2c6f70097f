import { countryToday, formatDay, getCountry, type CountryCode, type CountryConfig } from '@provee/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { AppCipher, FieldCipher } from '../../crypto.js';
import type { Executor } from '../../db/client.js';
import { isErasedPhone } from '../application/index.js';
import { CATEGORY_LABELS, DATA_MAP, LEGAL_BASIS_LABELS, type DataCategory } from './data-map.js';
import { ERASED_EVENT } from './erase.store.js';
import {
  avalStatusName,
  avalTypeName,
  CHOICE_LABELS,
  creditResultName,
  lenderOutcomeName,
  statusName,
  stepName,
} from './export-labels.js';
import {
  applicationFacts,
  decisionsOf,
  erasedAt,
  guarantorsOf,
  ownConsents,
  rowsAsJson,
  rowsCount,
  salesRangeDescriptions,
} from './export.store.js';
import { personCipher } from './person-keys.js';

/**
 * What the lender holds about an applicant (derecho de acceso, issue 31): every personal field the
 * data map names that is theirs, decrypted, grouped by category with Spanish labels (codes as the
 * words the screens offered), each distinct value once per label, and the facts of their
 * application. Never another person's values: a guarantor appears as id, type and state only, and
 * rows are picked by the applicant's own id, phone and signer slot. Never a tombstone or a cleared
 * value shown as data: once erased, the export says so and lists no field. A pure service: the "Mis
 * datos" routes render it as JSON and as a PDF, the staff's request detail shows it.
 */

export interface ExportField {
  /** Where it is kept (table.column), for an analyst answering a request. */
  source: string;
  label: string;
  basis: string;
  retention: string;
  value: unknown;
}

export type ApplicantExport = {
  application: {
    id: string;
    status: string;
    status_label: string;
    next_step: string;
    next_step_label: string;
    started_at: string;
    updated_at: string;
    /** When their personal data was erased; then `categories` is empty (the evidence below stays). */
    erased_at: string | null;
    consents: { version: string; folio: string; given_at: string; authorized_until: string }[];
    credit_decisions: { result: string; result_label: string; amount: number; currency: string; decided_at: string }[];
    lender_decisions: {
      outcome: string;
      outcome_label: string;
      amount: number | null;
      currency: string | null;
      decided_at: string;
    }[];
    guarantors: { id: string; type: string; type_label: string; status: string; status_label: string }[];
  };
  categories: { category: DataCategory; label: string; fields: ExportField[] }[];
};

export type ExportDeps = { cipher: AppCipher; config: { COUNTRY: CountryCode } };

/** How each table's rows of the applicant are found; tables not here hold nothing of theirs alone. */
function scopes(id: string, phone: string): Record<string, SQL> {
  const titular = sql`(select s.id from contract_signers s where s.user_id = ${id} and s.person_type = 'titular')`;
  const ownConsent = sql`(select c.id from bureau_consents c where c.user_id = ${id} and c.aval_id is null)`;
  return {
    users: sql`id = ${id}`,
    business_addresses: sql`user_id = ${id}`,
    businesses: sql`user_id = ${id}`,
    bureau_consents: sql`user_id = ${id} and aval_id is null`,
    bureau_queries: sql`user_id = ${id} and consent_id in ${ownConsent}`,
    credit_decisions: sql`user_id = ${id} and aval_id is null`,
    contracts: sql`user_id = ${id}`,
    contract_signers: sql`id in ${titular}`,
    identity_verifications: sql`signer_id in ${titular}`,
    identity_documents: sql`verification_id in (select v.id from identity_verifications v where v.signer_id in ${titular})`,
    identity_photo_uploads: sql`signer_id in ${titular}`,
    lender_decisions: sql`user_id = ${id}`,
    leads: sql`shopkeeper_phone_e164 = ${phone}`,
    advisor_tasks: sql`(source = 'lead' and source_id in (select l.lead_id from leads l where l.shopkeeper_phone_e164 = ${phone}))
      or (source = 'contact' and source_id in (select e.id::text from advisor_events e where e.user_id = ${id}))`,
    phone_codes: sql`phone_e164 = ${phone}`,
    phone_proof_starts: sql`phone_e164 = ${phone}`,
    reverse_otp_sessions: sql`phone_e164 = ${phone} and aval_id is null`,
    sms_outbox: sql`"to" = ${phone}`,
    outgoing_messages: sql`application_id = ${id}`,
    privacy_requests: sql`application_id = ${id}`,
  };
}

/** Values that are not shown as they are stored: files, one-way hashes, keys. */
const HIDDEN: Record<string, string> = {
  'users.password_hash': 'Guardada como huella irreversible (nadie puede leerla)',
  'users.tax_id_hash': 'Huella de tu identificación fiscal (para encontrarla sin descifrarla)',
};

/** The applicant's export; null when there is no such application. */
export async function exportApplicantData(
  deps: ExportDeps,
  db: Executor,
  applicationId: string,
): Promise<ApplicantExport | null> {
  const facts = await applicationFacts(db, applicationId);
  if (!facts) return null;
  // An erased application keeps its row with a tombstoned phone: nothing of the person is left to list.
  const erased = isErasedPhone(facts.phone);
  const [categories, consents, decisions, guarantors, erasedOn] = [
    erased ? [] : await personalFields(deps, db, applicationId, facts.phone),
    await ownConsents(db, applicationId),
    await decisionsOf(db, applicationId),
    await guarantorsOf(db, applicationId),
    erased ? await erasedAt(db, applicationId, ERASED_EVENT) : null,
  ];
  return {
    application: {
      id: facts.id,
      status: facts.status,
      status_label: statusName(facts.status),
      next_step: facts.next_step,
      next_step_label: stepName(facts.next_step),
      started_at: facts.created_at,
      updated_at: facts.updated_at,
      erased_at: erased ? (erasedOn ?? facts.updated_at) : null,
      consents: consents.map((c) => ({
        version: c.version,
        folio: c.folio,
        given_at: c.created_at,
        authorized_until: c.authorized_until,
      })),
      credit_decisions: decisions.credit.map((d) => ({
        result: d.result,
        result_label: creditResultName(d.result),
        amount: d.amount,
        currency: d.currency,
        decided_at: d.created_at,
      })),
      lender_decisions: decisions.lender.map((d) => ({
        outcome: d.outcome,
        outcome_label: lenderOutcomeName(d.outcome),
        amount: d.amount,
        currency: d.currency,
        decided_at: d.created_at,
      })),
      guarantors: guarantors.map((g) => ({
        ...g,
        type_label: avalTypeName(g.type),
        status_label: avalStatusName(g.status),
      })),
    },
    categories,
  };
}

/**
 * The personal fields of a live application, category by category in the map's order. A value met
 * twice under one label is listed once, and their phone (which every proof, code, message, lead and
 * signer slot keys on) once in all, from the first table that holds it: the application's row.
 */
async function personalFields(
  deps: ExportDeps,
  db: Executor,
  applicationId: string,
  phone: string,
): Promise<ApplicantExport['categories']> {
  const open = opener(deps, db, applicationId);
  const present = presenter(db);
  const byCategory = new Map<DataCategory, ExportField[]>();
  const seen = new Set<string>();
  const add = (category: DataCategory, field: ExportField) => {
    // Their phone is one fact, whatever each table calls it (the signer slot, the lead, a proof).
    const key = field.value === phone ? 'phone' : `${category}\u0000${field.label}\u0000${JSON.stringify(field.value)}`;
    if (seen.has(key)) return;
    seen.add(key);
    byCategory.set(category, [...(byCategory.get(category) ?? []), field]);
  };
  for (const [table, where] of Object.entries(scopes(applicationId, phone))) {
    const entry = DATA_MAP[table];
    const personal = Object.entries(entry?.personal ?? {});
    if (!entry || personal.length === 0) continue;
    if (entry.exported?.as === 'count') {
      const { count, first, last } = await rowsCount(db, table, where);
      if (count > 0) {
        const [meaning] = personal.map(([, column]) => column);
        add(entry.exported.category, {
          source: table,
          label: entry.exported.label,
          basis: LEGAL_BASIS_LABELS[meaning!.basis],
          retention: meaning!.retention,
          value: counted(count, first!, last!, getCountry(deps.config.COUNTRY)),
        });
      }
      continue;
    }
    for (const row of await rowsAsJson(db, table, where)) {
      for (const [column, meaning] of personal) {
        const source = `${table}.${column}`;
        const stored = row[column];
        if (!holdsData(stored)) continue;
        add(meaning.category, {
          source,
          label: meaning.label,
          basis: LEGAL_BASIS_LABELS[meaning.basis],
          retention: meaning.retention,
          value: HIDDEN[source] ?? (await present(source, await open(column, stored))),
        });
      }
    }
  }
  return (Object.keys(CATEGORY_LABELS) as DataCategory[])
    .filter((category) => byCategory.has(category))
    .map((category) => ({ category, label: CATEGORY_LABELS[category], fields: byCategory.get(category)! }));
}

/** Whether a stored value is data: not empty, not a tombstone an erasure left, not an emptied file. */
function holdsData(stored: unknown): boolean {
  if (stored === null || stored === undefined || stored === '' || stored === '\\x') return false;
  return !(typeof stored === 'string' && isErasedPhone(stored));
}

/** A count of messages, in words, their days as the country reads them (their bodies are never exported). */
function counted(count: number, first: Date, last: Date, country: CountryConfig): string {
  const day = (at: Date) => formatDay(countryToday(country, at), country.locale);
  return count === 1
    ? `1 mensaje, enviado el ${day(first)}`
    : `${count} mensajes, enviados del ${day(first)} al ${day(last)}`;
}

/** Codes as the words the registration screens showed; the sales range read from its catalogue once. */
function presenter(db: Executor) {
  let ranges: Promise<Map<number, string>> | undefined;
  return async (source: string, value: unknown): Promise<unknown> => {
    if (source === 'businesses.sales_range_id')
      return (await (ranges ??= salesRangeDescriptions(db))).get(Number(value)) ?? value;
    return CHOICE_LABELS[source]?.(value) ?? value;
  };
}

/**
 * Turns a stored value into what the person reads: ciphertext opened (v1 with the application key,
 * v2 with the person's own, asked for only when one is met), a file described rather than copied.
 */
function opener(deps: ExportDeps, db: Executor, personId: string) {
  let own: Promise<FieldCipher> | undefined;
  const cipherFor = (stored: string) =>
    stored.startsWith('v2.') ? (own ??= personCipher(deps, db, personId)) : Promise.resolve(deps.cipher);
  return async (column: string, stored: unknown): Promise<unknown> => {
    if (typeof stored === 'string' && stored.startsWith('\\x'))
      return `Archivo guardado cifrado (${(stored.length - 2) / 2} bytes)`;
    if (typeof stored === 'string' && column.endsWith('_encrypted')) {
      const plain = (await cipherFor(stored)).decrypt(stored);
      return parseJsonOr(plain);
    }
    return stored;
  };
}

/** An encrypted address or bureau subject is JSON; a birth date or tax id is plain text. */
function parseJsonOr(plain: string): unknown {
  if (!plain.startsWith('{') && !plain.startsWith('[')) return plain;
  try {
    return JSON.parse(plain) as unknown;
  } catch {
    return plain;
  }
}
