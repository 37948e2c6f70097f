import { sql } from 'drizzle-orm';
import type { FieldCipher } from '../crypto.js';
import { resultRows } from '../db/rows.js';
import type { App } from '../types.js';

/**
 * Every row of every table of the product's schemas (public and the job queue's), each as JSON text:
 * what a copy of the database would hand to whoever took it. Erasure tests search it for a person's
 * values, in clear and hex-encoded (bytea columns print as `\x…`).
 */
export async function dumpDatabase(app: App): Promise<string[]> {
  const tables = resultRows<{ schema: string; name: string }>(
    await app.db.execute(sql`select table_schema as schema, table_name as name from information_schema.tables
      where table_schema in ('public', 'pgboss', 'drizzle') and table_type = 'BASE TABLE'`),
  );
  const lines: string[] = [];
  for (const table of tables) {
    const rows = resultRows<{ row: string }>(
      await app.db.execute(
        sql`select row_to_json(t)::text as row from ${sql.identifier(table.schema)}.${sql.identifier(table.name)} t`,
      ),
    );
    for (const { row } of rows) lines.push(`${table.schema}.${table.name} ${row}`);
  }
  return lines;
}

/** The values of `secrets` found in the dump, in clear or hex-encoded, with the line they were in. */
export function leaks(dump: string[], secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const secret of secrets) {
    const hex = Buffer.from(secret, 'utf8').toString('hex');
    for (const line of dump)
      if (line.includes(secret) || line.toLowerCase().includes(hex)) found.push(`${secret} in ${line.slice(0, 200)}`);
  }
  return found;
}

const TEXT_CIPHERTEXT = /v[12]\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const BYTES_CIPHERTEXT = /\\\\x(0[12][0-9a-f]{58,})/g;

/**
 * What every ciphertext left in the dump opens to under any of `ciphers` (the keys that remain):
 * text values ("v1.…", "v2.…") and encrypted files (bytea starting with the version byte).
 */
export function openAll(dump: string[], ciphers: readonly FieldCipher[]): string[] {
  const opened: string[] = [];
  const tryAll = (open: (cipher: FieldCipher) => string) => {
    for (const cipher of ciphers) {
      try {
        opened.push(open(cipher));
        return;
      } catch {
        // Not this key's: another may open it, or none (an erased person's).
      }
    }
  };
  for (const line of dump) {
    for (const match of line.matchAll(TEXT_CIPHERTEXT)) tryAll((cipher) => cipher.decrypt(match[0]));
    for (const match of line.matchAll(BYTES_CIPHERTEXT))
      tryAll((cipher) => cipher.decryptBytes(Buffer.from(match[1]!, 'hex')).toString('latin1'));
  }
  return opened;
}
