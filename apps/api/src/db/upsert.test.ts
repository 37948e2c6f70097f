import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { identityPhotoUploads } from './schema.js';
import { takeFromExcluded } from './upsert.js';

describe('takeFromExcluded: an upsert takes these columns from the row it tried to insert', () => {
  it('maps each key to excluded.<its column name>', () => {
    const dialect = new PgDialect();
    const set = takeFromExcluded(identityPhotoUploads, ['uploadSha256', 'format']) as Record<
      string,
      Parameters<typeof dialect.sqlToQuery>[0]
    >;
    expect(Object.keys(set)).toEqual(['uploadSha256', 'format']);
    expect(dialect.sqlToQuery(set.uploadSha256!).sql).toBe('excluded.upload_sha256');
    expect(dialect.sqlToQuery(set.format!).sql).toBe('excluded.format');
  });
});
