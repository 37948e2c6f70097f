import { AVAL_TRANSITIONS, BUREAU_QUERY_TRANSITIONS } from '@provee/domain';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { avals, bureauQueries } from './schema.js';
import { statusMove } from './status-move.js';

const dialect = new PgDialect();

describe('statusMove: a status changes only by a row of its transition table', () => {
  it('guards the update with the transition’s starting statuses', () => {
    const move = statusMove(avals.status, AVAL_TRANSITIONS, 'decided', 'APPROVED');
    expect(move.status).toBe('APPROVED');
    const { sql, params } = dialect.sqlToQuery(move.guard);
    expect(sql).toBe('"avals"."status" in ($1)');
    expect(params).toEqual(['CONSENTED']);
    const retry = dialect.sqlToQuery(
      statusMove(bureauQueries.status, BUREAU_QUERY_TRANSITIONS, 'claimed', 'RUNNING').guard,
    );
    expect(retry.params).toEqual(['PENDING', 'RUNNING']);
  });

  it('refuses a target the transition does not have, and a transition the table does not have', () => {
    expect(() => statusMove(avals.status, AVAL_TRANSITIONS, 'consented', 'APPROVED')).toThrow(/cannot end in APPROVED/);
    expect(() => statusMove(bureauQueries.status, BUREAU_QUERY_TRANSITIONS, 'retried', 'DONE')).toThrow(/retried/);
    expect(() => statusMove(avals.status, AVAL_TRANSITIONS, 'approved', 'APPROVED')).toThrow(/approved/);
  });
});
