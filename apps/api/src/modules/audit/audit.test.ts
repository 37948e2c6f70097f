import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { API_ROOT } from '../../paths.js';
import { useTestApp } from '../../test/test-app.js';
import { appendAuditEvent, listAuditEvents, verifyAuditChain } from './audit.service.js';

const event = (applicationId: string, type: string, payload: Record<string, unknown> = {}) => ({
  applicationId,
  actor: 'system',
  type,
  payload,
  at: new Date(),
});

describe('audit trail', () => {
  const t = useTestApp();

  it('links each event to the previous event of the same application', async () => {
    const first = await appendAuditEvent(t.app.db, event('app-1', 'phone.proven', { b: 1, a: { z: 2, y: [1, 'x'] } }));
    await appendAuditEvent(t.app.db, event('app-2', 'phone.proven'));
    const second = await appendAuditEvent(t.app.db, event('app-1', 'step.saved', { step: 'about-you' }));
    expect(first.prevHash).toBeNull();
    expect(second.prevHash).toBe(first.hash);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifyAuditChain(t.app.db, 'app-1')).toEqual({ valid: true, events: 2 });
    expect(await verifyAuditChain(t.app.db, 'app-2')).toEqual({ valid: true, events: 1 });
  });

  it('keeps one chain under concurrent appends', async () => {
    await Promise.all(
      Array.from({ length: 15 }, (_, i) => appendAuditEvent(t.app.db, event('app-busy', 'step.saved', { i }))),
    );
    const events = await listAuditEvents(t.app.db, 'app-busy');
    expect(events).toHaveLength(15);
    expect(await verifyAuditChain(t.app.db, 'app-busy')).toEqual({ valid: true, events: 15 });
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await appendAuditEvent(t.app.db, event('app-locked', 'consent.given'));
    await expect(
      t.app.db.execute(sql`update audit_events set actor = 'x' where application_id = 'app-locked'`),
    ).rejects.toThrow();
    await expect(t.app.db.execute(sql`delete from audit_events where application_id = 'app-locked'`)).rejects.toThrow();
    await expect(t.app.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    expect(await listAuditEvents(t.app.db, 'app-locked')).toHaveLength(1);
  });

  it('an edited event breaks the chain (found even with the guard bypassed)', async () => {
    for (const step of ['a', 'b', 'c']) await appendAuditEvent(t.app.db, event('app-edited', 'step.saved', { step }));
    const [, middle] = await listAuditEvents(t.app.db, 'app-edited');
    await t.app.db.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
    await t.app.db.execute(sql`update audit_events set payload = '{"step":"z"}' where id = ${middle!.id}`);
    await t.app.db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
    expect(await verifyAuditChain(t.app.db, 'app-edited')).toEqual({
      valid: false,
      events: 3,
      brokenAt: middle!.id,
      reason: 'hash-mismatch',
    });
  });

  it('a deleted event breaks the chain', async () => {
    for (const step of ['a', 'b', 'c']) await appendAuditEvent(t.app.db, event('app-deleted', 'step.saved', { step }));
    const [, middle, last] = await listAuditEvents(t.app.db, 'app-deleted');
    await t.app.db.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
    await t.app.db.execute(sql`delete from audit_events where id = ${middle!.id}`);
    await t.app.db.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
    expect(await verifyAuditChain(t.app.db, 'app-deleted')).toMatchObject({
      valid: false,
      brokenAt: last!.id,
      reason: 'link-mismatch',
    });
  });

  it('the operations API shows the trail and its verification, with the API key only', async () => {
    await appendAuditEvent(t.app.db, event('app-ops', 'decision.made', { result: 'APPROVED' }));
    const denied = await t.app.inject({ method: 'GET', url: '/ops/v1/audit/app-ops' });
    expect(denied.statusCode).toBe(401);
    expect(denied.json().code).toBe('INVALID_API_KEY');
    const wrong = await t.app.inject({ method: 'GET', url: '/ops/v1/audit/app-ops', headers: { 'x-api-key': 'nope' } });
    expect(wrong.statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'GET',
      url: '/ops/v1/audit/app-ops',
      headers: { 'x-api-key': t.app.config.OPS_API_KEY },
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.chain).toEqual({ valid: true, events: 1 });
    expect(data.events[0]).toMatchObject({ type: 'decision.made', payload: { result: 'APPROVED' }, prev_hash: null });
  });
});

describe('no code path changes the evidence (audit trail, consents, decisions)', () => {
  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.ts$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
    });
  }

  // The one exception the privacy law makes: once an erased application's consent record has been
  // kept its legal minimum, the retention schedule clears its personal columns (the rows, folios,
  // texts and hashes stay). The tables' triggers allow that update only inside a transaction that
  // called allowErasureWrites (migration 0028; retention.test.ts proves every other write refused).
  const RETENTION_CLEARING = join(API_ROOT, 'src/modules/privacy/retention.store.ts');

  it.each([
    ['auditEvents', 'audit_events', []],
    ['bureauConsents', 'bureau_consents', [RETENTION_CLEARING]],
    ['creditDecisions', 'credit_decisions', [RETENTION_CLEARING]],
  ])('no source file updates or deletes %s (but the retention clearing)', (table, sqlName, allowed) => {
    const offenders = sourceFiles(join(API_ROOT, 'src')).filter((file) => {
      const text = readFileSync(file, 'utf8');
      return (
        new RegExp(`\\.(update|delete)\\(\\s*${table}\\b`).test(text) ||
        new RegExp(`(update|delete\\s+from|truncate)\\s+"?${sqlName}`, 'i').test(text)
      );
    });
    expect(offenders).toEqual(allowed);
    for (const file of allowed) {
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('await allowErasureWrites(tx);');
      expect(text).not.toMatch(new RegExp(`delete\\s+from\\s+"?${sqlName}`, 'i'));
    }
  });
});
