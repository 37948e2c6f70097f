import { Readable } from 'node:stream';
import type { Database } from '../../db/client.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, staffChain, type StaffRow } from '../staff/index.js';
import { copyRows, guarded, isoText, pageOfRows, type Cursor, type ExportTable } from './exports.store.js';
import type { ReportRange } from './report-range.js';

/** Rows per page on PGlite (no COPY stream there): the export's memory stays one page. */
export const EXPORT_PAGE_SIZE = 5000;

/** A text from outside (an applicant, a browser, a bureau): guarded against formulas. */
const typed = (column: string): string => guarded(column);
/** A text only the server writes (a step or status name, an E.164 phone, a hash): nothing to guard. */
const written = (column: string): string => column;
const asText = (column: string): string => `${column}::text`;
const yesNo = (column: string): string => `(case when ${column} then 'true' when not ${column} then 'false' end)`;

interface ExportKind {
  filePrefix: string;
  table: ExportTable;
}

/** The applications started in the range; never the tax id or the birth date. */
const applications: ExportKind = {
  filePrefix: 'solicitudes',
  table: {
    from: 'users u',
    createdAt: 'u.created_at',
    id: 'u.id',
    columns: [
      { header: 'id', sql: asText('u.id') },
      { header: 'phone', sql: written('u.phone_e164') },
      { header: 'name', sql: typed('u.name') },
      { header: 'lastname', sql: typed('u.lastname') },
      { header: 'maternal_lastname', sql: typed('u.maternal_lastname') },
      { header: 'next_step', sql: written('u.next_step') },
      { header: 'status', sql: written('u.status') },
      { header: 'utm_source', sql: typed('u.utm_source') },
      { header: 'utm_medium', sql: typed('u.utm_medium') },
      { header: 'utm_campaign', sql: typed('u.utm_name') },
      { header: 'created_at', sql: isoText('u.created_at') },
      { header: 'updated_at', sql: isoText('u.updated_at') },
    ],
  },
};

/**
 * The acknowledgement of the consent's audit (Círculo's folioCDC); the latest when several queries
 * owed one. The consent text itself is long and the same for everyone of a version: its hash names
 * it. The PIN (encrypted, for a bureau's audit) is never exported.
 */
const FOLIO_CDC = `(select consent_audit.audit_folio from bureau_consent_audits consent_audit
    join bureau_queries bureau_query on bureau_query.id = consent_audit.query_id
  where bureau_query.consent_id = c.id and consent_audit.audit_folio is not null
  order by consent_audit.updated_at desc limit 1)`;

/** Every bureau authorisation given in the range, with its evidence. */
const consents: ExportKind = {
  filePrefix: 'consentimientos',
  table: {
    from: 'bureau_consents c',
    createdAt: 'c.created_at',
    id: 'c.id',
    columns: [
      { header: 'consent_id', sql: asText('c.id') },
      { header: 'application_id', sql: asText('c.user_id') },
      { header: 'person_type', sql: written('c.person_type') },
      { header: 'aval_id', sql: asText('c.aval_id') },
      { header: 'created_at', sql: isoText('c.created_at') },
      { header: 'ip', sql: typed('c.ip') },
      { header: 'peer_ip', sql: typed('c.peer_ip') },
      { header: 'forwarded_for', sql: typed('c.forwarded_for') },
      { header: 'user_agent', sql: typed('c.user_agent') },
      { header: 'pin_verified', sql: yesNo('c.pin_verified') },
      { header: 'bureau_folio', sql: typed('c.bureau_folio') },
      { header: 'consent_version', sql: written('c.consent_version') },
      { header: 'consent_text_sha256', sql: written('c.consent_text_sha256') },
      { header: 'authorized_until', sql: isoText('c.authorized_until') },
      { header: 'folio_cdc', sql: typed(FOLIO_CDC) },
    ],
  },
};

export const EXPORTS = { applications, consents } as const;
export type ExportName = keyof typeof EXPORTS;

export const exportFilename = (name: ExportName, range: ReportRange) =>
  `${EXPORTS[name].filePrefix}-${range.from}-${range.to}.csv`;

/**
 * COPY's records end in LF; RFC 4180's in CRLF. Each record's end (a line feed outside quotes: a
 * quoted cell may hold one) gets its CR, and is counted.
 */
export function crlfRecords() {
  let quoted = false;
  let rows = 0;
  return {
    convert(chunk: Buffer): Buffer {
      const ends: number[] = [];
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) ends.push(i);
      }
      rows += ends.length;
      if (ends.length === 0) return chunk;
      const out = Buffer.allocUnsafe(chunk.length + ends.length);
      let from = 0;
      let at = 0;
      for (const end of ends) {
        at += chunk.copy(out, at, from, end);
        out[at++] = 0x0d;
        from = end;
      }
      chunk.copy(out, at, from);
      return out;
    },
    get rows() {
      return rows;
    },
  };
}

/** How much of COPY's stream goes on at once. */
const COPY_BATCH_BYTES = 64 * 1024;

/** The rows as CSV, chunk by chunk: COPY's stream on PostgreSQL, a COPY per page of rows on PGlite. */
export async function* csvRows(
  database: Database,
  table: ExportTable,
  range: ReportRange,
  pageSize: number,
  counted: (rows: number) => void,
): AsyncGenerator<Buffer | string> {
  const records = crlfRecords();
  if (database.copyOut) {
    // COPY's stream gives one row per chunk: they go on in batches, or each ~150-byte row would be
    // a step of the stream, a write to the socket and a call of the compressor's thread.
    let batch: Buffer[] = [];
    let size = 0;
    for await (const chunk of await copyRows(database, table, range)) {
      const converted = records.convert(chunk as Buffer);
      batch.push(converted);
      size += converted.length;
      if (size < COPY_BATCH_BYTES) continue;
      counted(records.rows);
      yield Buffer.concat(batch, size);
      batch = [];
      size = 0;
    }
    counted(records.rows);
    if (size > 0) yield Buffer.concat(batch, size);
    return;
  }
  // The database's thread writes the next page while this one is sent.
  const read = (after: Cursor | null) => {
    const page = pageOfRows(database, table, range, after, pageSize);
    // A download cut short leaves the page read ahead unread: its error, if any, is nobody's.
    page.catch(() => undefined);
    return page;
  };
  let next = read(null);
  for (;;) {
    const page = await next;
    if (page.last) next = read(page.last);
    const converted = records.convert(Buffer.from(page.csv.buffer, page.csv.byteOffset, page.csv.byteLength));
    counted(records.rows);
    if (converted.length > 0) yield converted;
    if (!page.last) return;
  }
}

/**
 * The CSV as a stream, read while it is sent. The audit event is written when the stream ends,
 * with the rows that really left; an interrupted download is recorded as incomplete.
 */
export function exportCsv(
  deps: { database: Database; clock: () => Date },
  member: StaffRow,
  name: ExportName,
  range: ReportRange,
  pageSize = EXPORT_PAGE_SIZE,
): Readable {
  const { table } = EXPORTS[name];
  async function* lines() {
    let rows = 0;
    let complete = false;
    try {
      // The byte order mark makes Excel read UTF-8 (accents) instead of the system's code page.
      yield `\uFEFF${table.columns.map((column) => column.header).join(',')}\r\n`;
      yield* csvRows(deps.database, table, range, pageSize, (sent) => (rows = sent));
      complete = true;
    } finally {
      await appendAuditEvent(deps.database.db, {
        applicationId: staffChain(member.id),
        actor: staffActor(member),
        type: 'backoffice.export',
        payload: { kind: name, from: range.from, to: range.to, rows, complete },
        at: deps.clock(),
      });
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
