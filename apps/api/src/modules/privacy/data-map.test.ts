import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema.js';
import { APPLICATION_TABLES } from './data-map-application.js';
import { EVIDENCE_TABLES } from './data-map-evidence.js';
import { SYSTEM_TABLES } from './data-map-system.js';
import { DATA_MAP } from './data-map.js';

const tables = Object.values(schema)
  .filter((value: unknown): value is PgTable => value instanceof PgTable)
  .map((table) => getTableConfig(table));

describe('the map of personal data', () => {
  it('classifies every column of every table of the schema, once', () => {
    const unclassified: string[] = [];
    const twice: string[] = [];
    for (const table of tables) {
      const entry = DATA_MAP[table.name];
      for (const column of table.columns) {
        const personal = entry !== undefined && column.name in entry.personal;
        const plain = entry?.notPersonal.includes(column.name) ?? false;
        if (!personal && !plain) unclassified.push(`${table.name}.${column.name}`);
        if (personal && plain) twice.push(`${table.name}.${column.name}`);
      }
    }
    expect(unclassified, 'columns the data map does not classify').toEqual([]);
    expect(twice, 'columns said to be personal and not personal').toEqual([]);
  });

  it('names no table or column the schema does not have', () => {
    const columns = new Map(tables.map((table) => [table.name, new Set(table.columns.map((column) => column.name))]));
    const unknown: string[] = [];
    for (const [table, entry] of Object.entries(DATA_MAP)) {
      const known = columns.get(table);
      if (!known) unknown.push(table);
      for (const name of [...Object.keys(entry.personal), ...entry.notPersonal])
        if (known && !known.has(name)) unknown.push(`${table}.${name}`);
    }
    expect(unknown).toEqual([]);
  });

  it('declares each table in one part of the map only', () => {
    const parts = [APPLICATION_TABLES, EVIDENCE_TABLES, SYSTEM_TABLES].flatMap((part) => Object.keys(part));
    expect(parts).toHaveLength(new Set(parts).size);
  });

  it('says whose data each table with personal columns holds', () => {
    const ownerless = Object.entries(DATA_MAP)
      .filter(([name, entry]) => Object.keys(entry.personal).length > 0 && !entry.subject && name !== 'client_errors')
      .map(([name]) => name);
    expect(ownerless).toEqual([]);
  });
});
