import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { inflateSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';

/** Printable runs of at least 8 characters in a binary value (what `strings` shows of it). */
function printable(bytes: Uint8Array): string[] {
  return (
    Buffer.from(bytes)
      .toString('latin1')
      .match(/[\x20-\x7e]{8,}/g) ?? []
  ).slice(0, 2_000);
}

/**
 * The text a PDF shows (the contracts): every compressed stream inflated, then its strings — pdf-lib
 * writes the standard fonts' text as hex strings (`<48656C6C6F> Tj`), sometimes as literals.
 */
function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes);
  const streams: string[] = [];
  let at = 0;
  for (;;) {
    const start = raw.indexOf('stream', at, 'latin1');
    if (start < 0) break;
    const dataStart = start + (raw[start + 6] === 0x0d ? 8 : 7);
    const end = raw.indexOf('endstream', dataStart, 'latin1');
    if (end < 0) break;
    try {
      streams.push(inflateSync(raw.subarray(dataStart, end)).toString('latin1'));
    } catch {
      streams.push(raw.subarray(dataStart, end).toString('latin1'));
    }
    at = end + 9;
  }
  const text: string[] = [];
  for (const stream of streams) {
    for (const match of stream.matchAll(/<([0-9A-Fa-f\s]+)>|\(((?:\\.|[^\\)])*)\)/g)) {
      const hex = match[1]?.replace(/\s/g, '');
      if (hex !== undefined) {
        if (hex.length % 2 === 0 && hex.length > 0) text.push(Buffer.from(hex, 'hex').toString('latin1'));
      } else if (match[2]) text.push(match[2].replace(/\\(.)/g, '$1'));
    }
  }
  return text.join(' ');
}

function rowText(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    // Binary columns (encrypted files, contract PDFs): their size and any text they hold in the clear.
    if (value instanceof Uint8Array) {
      const isPdf = Buffer.from(value.subarray(0, 5)).toString('latin1') === '%PDF-';
      return { $bytea: value.byteLength, ...(isPdf ? { pdfText: pdfText(value) } : { strings: printable(value) }) };
    }
    return value;
  });
}

/**
 * Issue 13, suite 7: the whole database of a stopped e2e server as text, one line per row
 * (`<table> <row as JSON>`), each table introduced by a `-- table` line with its row count.
 * The server must have stopped: PGlite is one process's database.
 */
export async function dumpPgliteDataDir(dataDir: string, file: string): Promise<{ tables: number; rows: number }> {
  const db = new PGlite(join(dataDir, 'pglite'));
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  let rows = 0;
  try {
    const tables = await db.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
       order by table_schema, table_name`,
    );
    for (const { schema, name } of tables.rows) {
      const qualified = schema === 'public' ? name : `${schema}.${name}`;
      const result = await db.query<Record<string, unknown>>(`select * from "${schema}"."${name}"`);
      await write(`-- table ${qualified} (${result.rows.length} rows)`);
      for (const row of result.rows) await write(`${qualified} ${rowText(row)}`);
      rows += result.rows.length;
    }
    return { tables: tables.rows.length, rows };
  } finally {
    out.end();
    await once(out, 'close');
    await db.close();
  }
}
