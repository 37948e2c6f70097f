import type { Database } from '../../db/client.js';
import type { ReportRange } from './report-range.js';

// The exports' rows, formatted as CSV by the database (issue 35): on PostgreSQL one `COPY … TO
// STDOUT (FORMAT csv)` streamed as it comes, on PGlite pages of ready lines read by keyset. Either
// way JavaScript never escapes a cell (the back office is the one read side across modules:
// docs/decisions/026). The SQL is written out because COPY takes no parameters: the only values in
// it are the range's instants (from Date) and a cursor the database itself wrote.

/** Where the last page ended: the exact timestamp as the database wrote it (µs), and the id. */
export interface Cursor {
  at: string;
  id: string;
}

/** One column of an export: its CSV header and the SQL of its text (null shows as an empty cell). */
export interface ExportColumn {
  header: string;
  sql: string;
}

export interface ExportTable {
  /** FROM clause (with the alias the columns use). */
  from: string;
  /** The row's creation time and id, qualified: the range and the keyset order. */
  createdAt: string;
  id: string;
  columns: ExportColumn[];
}

/**
 * A text a spreadsheet would run as a formula (= + - @, tab, CR first) gets a leading apostrophe, so
 * opening an export never executes what an applicant typed (CSV injection). A plain signed number
 * (a phone in E.164, a negative amount) is no formula and stays readable.
 */
export const guarded = (text: string) =>
  String.raw`(case when ${text} ~ '^[-=+@\t\r]' and ${text} !~ '^[+-]?[0-9]+([.][0-9]+)?$' then '''' || ${text} else ${text} end)`;

/** An instant as JavaScript's toISOString writes it (UTC, milliseconds). */
export const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A cell quoted as COPY's CSV quotes it (RFC 4180): in quotes when it holds a quote, a comma, CR or
 * LF, and an empty text as "" (a null is an empty cell). PGlite's pages use it; PostgreSQL's COPY
 * does the same itself.
 */
const quoted = (text: string) =>
  String.raw`(case when ${text} is null then '' when ${text} = '' or ${text} ~ '[",\r\n]' then '"' || replace(${text}, '"', '""') || '"' else ${text} end)`;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

function where(table: ExportTable, range: ReportRange, after: Cursor | null): string {
  const conditions = [
    `${table.createdAt} >= ${literal(range.start.toISOString())}::timestamptz`,
    `${table.createdAt} < ${literal(range.end.toISOString())}::timestamptz`,
  ];
  if (after)
    conditions.push(
      `(${table.createdAt}, ${table.id}) > (${literal(after.at)}::timestamptz, ${literal(after.id)}::uuid)`,
    );
  return conditions.join(' and ');
}

const select = (table: ExportTable) => table.columns.map((column) => column.sql).join(', ');
const order = (table: ExportTable) => `${table.createdAt}, ${table.id}`;

/** PostgreSQL: every row of the range as CSV bytes, without the header (COPY's own quoting). */
export function copyRows(database: Database, table: ExportTable, range: ReportRange) {
  const query = `select ${select(table)} from ${table.from} where ${where(table, range, null)} order by ${order(table)}`;
  return database.copyOut!(`copy (${query}) to stdout with (format csv)`);
}

/** PGlite: one page of rows as CSV text (COPY's quoting, records ending in CRLF), its count and where it ended. */
export async function pageOfRows(
  database: Database,
  table: ExportTable,
  range: ReportRange,
  after: Cursor | null,
  size: number,
): Promise<{ text: string; rows: number; last: Cursor | null }> {
  const line = `${table.columns.map((column) => quoted(column.sql)).join(` || ',' || `)} || E'\\r\\n'`;
  const page = `select ${line} as line, ${table.createdAt} as key_at, ${table.id} as key_id
    from ${table.from} where ${where(table, range, after)} order by ${order(table)} limit ${Math.trunc(size)}`;
  const { rows } = await database.executeSql(
    `select string_agg(line, '' order by key_at, key_id) as text, count(*)::int as rows,
       (array_agg(key_at::text order by key_at desc, key_id desc))[1] as cursor_at,
       (array_agg(key_id::text order by key_at desc, key_id desc))[1] as cursor_id
     from (${page}) as page`,
  );
  const row = rows[0] as { text: string | null; rows: number; cursor_at: string | null; cursor_id: string | null };
  return {
    text: row.text ?? '',
    rows: Number(row.rows),
    last: row.cursor_at && row.cursor_id ? { at: row.cursor_at, id: row.cursor_id } : null,
  };
}
