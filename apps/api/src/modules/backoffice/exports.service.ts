import { Readable } from 'node:stream';
import type { Db } from '../../db/client.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, staffChain, type StaffRow } from '../staff/index.js';
import { applicationsPage, consentsPage, type Cursor } from './exports.store.js';
import type { ReportRange } from './report-range.js';

/** Rows read per query: the export's memory stays one page, whatever the range holds. */
export const EXPORT_PAGE_SIZE = 500;

type Cell = string | number | boolean | null;

/**
 * One RFC 4180 field. A text a spreadsheet would run as a formula (= + - @, tab, CR first) gets a
 * leading apostrophe, so opening an export never executes what an applicant typed (CSV injection).
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  // A plain signed number (a phone in E.164, a negative amount) is no formula and stays readable.
  if (/^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: Cell[]) => `${cells.map(csvCell).join(',')}\r\n`;

interface ExportKind {
  filePrefix: string;
  header: string[];
  page(db: Db, range: ReportRange, after: Cursor | null, size: number): Promise<{ cells: Cell[]; cursor: Cursor }[]>;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The applications started in the range; never the tax id or the birth date. */
const applications: ExportKind = {
  filePrefix: 'solicitudes',
  header: [
    'id',
    'phone',
    'name',
    'lastname',
    'maternal_lastname',
    'next_step',
    'status',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'created_at',
    'updated_at',
  ],
  async page(db, range, after, size) {
    const rows = await applicationsPage(db, range, after, size);
    return rows.map(({ row, cursorAt }) => ({
      cells: [
        row.id,
        row.phoneE164,
        row.name,
        row.lastname,
        row.maternalLastname,
        row.nextStep,
        row.status,
        row.utmSource,
        row.utmMedium,
        row.utmName,
        iso(row.createdAt),
        iso(row.updatedAt),
      ],
      cursor: { at: cursorAt, id: row.id },
    }));
  },
};

/** Every bureau authorisation given in the range, with its evidence. */
const consents: ExportKind = {
  filePrefix: 'consentimientos',
  header: [
    'consent_id',
    'application_id',
    'person_type',
    'aval_id',
    'created_at',
    'ip',
    'peer_ip',
    'forwarded_for',
    'user_agent',
    'pin_verified',
    'bureau_folio',
    'consent_version',
    'consent_text_sha256',
    'authorized_until',
    'folio_cdc',
  ],
  async page(db, range, after, size) {
    const rows = await consentsPage(db, range, after, size);
    return rows.map((row) => ({
      cells: [
        row.id,
        row.userId,
        row.personType,
        row.avalId,
        iso(row.createdAt),
        row.ip,
        row.peerIp,
        row.forwardedFor,
        row.userAgent,
        row.pinVerified,
        row.bureauFolio,
        row.consentVersion,
        row.consentTextSha256,
        iso(row.authorizedUntil),
        row.folioCdc,
      ],
      cursor: { at: row.cursorAt, id: row.id },
    }));
  },
};

export const EXPORTS = { applications, consents } as const;
export type ExportName = keyof typeof EXPORTS;

export const exportFilename = (name: ExportName, range: ReportRange) =>
  `${EXPORTS[name].filePrefix}-${range.from}-${range.to}.csv`;

/**
 * The CSV as a stream, read page by page while it is sent. The audit event is written when the
 * stream ends, with the rows that really left; an interrupted download is recorded as incomplete.
 */
export function exportCsv(
  deps: { db: Db; clock: () => Date },
  member: StaffRow,
  name: ExportName,
  range: ReportRange,
  pageSize = EXPORT_PAGE_SIZE,
): Readable {
  const kind = EXPORTS[name];
  async function* lines() {
    let rows = 0;
    let complete = false;
    try {
      // The byte order mark makes Excel read UTF-8 (accents) instead of the system's code page.
      yield `\uFEFF${csvRow(kind.header)}`;
      let after: Cursor | null = null;
      for (;;) {
        const page = await kind.page(deps.db, range, after, pageSize);
        if (page.length > 0) yield page.map((row) => csvRow(row.cells)).join('');
        rows += page.length;
        if (page.length < pageSize) break;
        after = page[page.length - 1]!.cursor;
      }
      complete = true;
    } finally {
      await appendAuditEvent(deps.db, {
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
